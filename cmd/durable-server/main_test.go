package main

import (
	"bufio"
	"context"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/client"
)

func TestItServesAtTheAddressItPrintsUntilItsContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	out, w := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"--port", "0", "--namespace", "cmdtest", "--time-skipping",
			"--search-attribute", "CustomerId=Keyword", "--search-attribute", "Tags=KeywordList"}, w, io.Discard)
		w.Close()
	}()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`at (127\.0\.0\.1:\d+) .*time skipping on`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("the ready line %q names no address or says time skipping is off", line)
	}
	go io.Copy(io.Discard, out)
	dialCtx, dialCancel := context.WithTimeout(ctx, 10*time.Second)
	defer dialCancel()
	c, err := client.DialContext(dialCtx, client.Options{HostPort: m[1], Namespace: "cmdtest"})
	if err != nil {
		t.Fatal(err)
	}
	ns, err := c.WorkflowService().DescribeNamespace(dialCtx, &workflowservice.DescribeNamespaceRequest{Namespace: "cmdtest"})
	if err != nil || ns.GetNamespaceInfo().GetName() != "cmdtest" {
		t.Fatalf("describing the namespace served answered %v, %v", ns, err)
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
