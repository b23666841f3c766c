package main

import (
	"bufio"
	"context"
	"io"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/testharness"
)

func TestItServesAtTheAddressItPrintsUntilItsContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	out, w := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"--port", "0", "--namespace", "cmdtest", "--namespace", "second", "--time-skipping",
			"--search-attribute", "CustomerId=Keyword", "--search-attribute", "Tags=KeywordList"}, w, io.Discard)
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
	attrs, err := c.OperatorService().ListSearchAttributes(dialCtx, &operatorservice.ListSearchAttributesRequest{Namespace: "cmdtest"})
	if custom := attrs.GetCustomAttributes(); err != nil || len(custom) != 2 || custom["CustomerId"] != enumspb.INDEXED_VALUE_TYPE_KEYWORD ||
		custom["Tags"] != enumspb.INDEXED_VALUE_TYPE_KEYWORD_LIST {
		t.Fatalf("the custom search attributes are %v, %v; want those of --search-attribute", custom, err)
	}
	c.Close()
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestBadFlagsAreRefused(t *testing.T) {
	for _, args := range [][]string{{"--port", "70000"}, {"extra"}, {"--nope"}, {"--search-attribute", "Total=Money"},
		{"--search-attribute", "Total"}, {"--search-attribute", "WorkflowId=Keyword"}} {
		if err := run(context.Background(), args, io.Discard, io.Discard); err == nil {
			t.Errorf("run(%q) succeeded", args)
		}
	}
}

// TestTheCLISetsUpNamespacesAndNexusEndpoints runs the Temporal CLI's
// commands of examples/nexus's README against durable-server: the two
// namespaces and the endpoint are created, described and listed as on
// a dev server.
func TestTheCLISetsUpNamespacesAndNexusEndpoints(t *testing.T) {
	cli := testharness.RequireCLI(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, w := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"--port", "0"}, w, io.Discard)
		w.Close()
	}()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, out)
	address := regexp.MustCompile(`at (\S+) `).FindStringSubmatch(line)[1]
	temporal := func(args ...string) string {
		t.Helper()
		cmd := exec.CommandContext(ctx, cli, append(args, "--address", address)...)
		got, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("temporal %s: %v\n%s", strings.Join(args, " "), err, got)
		}
		return string(got)
	}
	temporal("operator", "namespace", "create", "--namespace", "my-target-namespace")
	temporal("operator", "namespace", "create", "--namespace", "my-caller-namespace", "--retention", "72h")
	temporal("operator", "namespace", "update", "--namespace", "my-caller-namespace", "--description", "the callers")
	if got := temporal("operator", "namespace", "describe", "--namespace", "my-caller-namespace", "-o", "json"); !strings.Contains(got, `"description": "the callers"`) || !strings.Contains(got, `"259200s"`) {
		t.Errorf("the caller's namespace is described as %s", got)
	}
	temporal("operator", "nexus", "endpoint", "create", "--name", "hello-endpoint",
		"--target-namespace", "my-target-namespace", "--target-task-queue", "my-handler-task-queue")
	if got := temporal("operator", "nexus", "endpoint", "get", "--name", "hello-endpoint", "-o", "json"); !strings.Contains(got, `"taskQueue": "my-handler-task-queue"`) {
		t.Errorf("the endpoint is described as %s", got)
	}
	temporal("operator", "nexus", "endpoint", "update", "--name", "hello-endpoint", "--target-task-queue", "other-queue")
	temporal("operator", "nexus", "endpoint", "delete", "--name", "hello-endpoint")
	if got := temporal("operator", "nexus", "endpoint", "list", "-o", "json"); strings.Contains(got, "hello-endpoint") {
		t.Errorf("the deleted endpoint is listed: %s", got)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
