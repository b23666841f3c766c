package main

import (
	"bufio"
	"context"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/client"
)

func TestItServesAtTheAddressItPrintsUntilItsContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	out, w := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"--port", "0", "--namespace", "cmdtest", "--namespace", "second", "--time-skipping"}, w, io.Discard)
		w.Close()
	}()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`namespaces "default", "cmdtest", "second" at (127\.0\.0\.1:\d+) .*time skipping on`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("the ready line %q names no address, not the three namespaces, or says time skipping is off", line)
	}
	go io.Copy(io.Discard, out)
	dialCtx, dialCancel := context.WithTimeout(ctx, 10*time.Second)
	defer dialCancel()
	c, err := client.DialContext(dialCtx, client.Options{HostPort: m[1], Namespace: "cmdtest"})
	if err != nil {
		t.Fatal(err)
	}
	// The --namespace flags create namespaces besides "default", as a dev
	// server's do.
	for _, name := range []string{"default", "cmdtest", "second"} {
		ns, err := c.WorkflowService().DescribeNamespace(dialCtx, &workflowservice.DescribeNamespaceRequest{Namespace: name})
		if err != nil || ns.GetNamespaceInfo().GetName() != name {
			t.Fatalf("describing namespace %q answered %v, %v", name, ns, err)
		}
	}
	if _, err := c.WorkflowService().DescribeNamespace(dialCtx, &workflowservice.DescribeNamespaceRequest{Namespace: "other"}); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Fatalf("describing another namespace answered %v; want not found", err)
	}
	c.Close()
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestBadFlagsAreRefused(t *testing.T) {
	for _, args := range [][]string{{"--port", "70000"}, {"extra"}, {"--nope"}} {
		if err := run(context.Background(), args, io.Discard, io.Discard); err == nil {
			t.Errorf("run(%q) succeeded", args)
		}
	}
}
