package replaytool

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/temporalproto"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// replayQuery replays the runs that c.query lists, each history fetched
// whole (and saved when asked) before it is replayed.
func (c *command) replayQuery(ctx context.Context, options client.Options, report func(string, error)) error {
	options.HostPort, options.Namespace = c.address, c.namespace
	cl, err := client.DialContext(ctx, options)
	if err != nil {
		return fmt.Errorf("connecting to %s for -query: %w", c.address, err)
	}
	defer cl.Close()
	if c.saveDir != "" {
		if err := os.MkdirAll(c.saveDir, 0o755); err != nil {
			return err
		}
	}
	runs, err := c.listRuns(ctx, cl)
	if err != nil {
		return err
	}
	for _, run := range runs {
		name := run.ID + " (run " + run.RunID + ")"
		h, err := fetchHistory(ctx, cl, run)
		if err != nil {
			report(name, err)
			continue
		}
		if c.saveDir != "" {
			if err := saveHistory(c.saveDir, run, h); err != nil {
				return err
			}
		}
		report(name, c.replayer.ReplayWorkflowHistoryWithOptions(c.logger, h, worker.ReplayWorkflowHistoryOptions{OriginalExecution: run}))
	}
	return nil
}

// listRuns returns the runs the query lists, at most c.limit of them.
func (c *command) listRuns(ctx context.Context, cl client.Client) ([]workflow.Execution, error) {
	var runs []workflow.Execution
	var token []byte
	for {
		resp, err := cl.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{
			Namespace: c.namespace, Query: c.query, NextPageToken: token,
		})
		if err != nil {
			return nil, fmt.Errorf("listing the runs of -query %q: %w", c.query, err)
		}
		for _, e := range resp.GetExecutions() {
			if c.limit > 0 && len(runs) == c.limit {
				return runs, nil
			}
			runs = append(runs, workflow.Execution{ID: e.GetExecution().GetWorkflowId(), RunID: e.GetExecution().GetRunId()})
		}
		token = resp.GetNextPageToken()
		if len(token) == 0 {
			return runs, nil
		}
	}
}

func fetchHistory(ctx context.Context, cl client.Client, run workflow.Execution) (*historypb.History, error) {
	it := cl.GetWorkflowHistory(ctx, run.ID, run.RunID, false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	h := &historypb.History{}
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			return nil, fmt.Errorf("fetching the history: %w", err)
		}
		h.Events = append(h.Events, ev)
	}
	return h, nil
}

// saveHistory writes h as `temporal workflow show --output json` does, to
// DIR/<workflow ID>_<run ID>.json.
func saveHistory(dir string, run workflow.Execution, h *historypb.History) error {
	b, err := temporalproto.CustomJSONMarshalOptions{Indent: "  "}.Marshal(h)
	if err != nil {
		return err
	}
	name := fileSafe(run.ID) + "_" + fileSafe(run.RunID) + ".json"
	return os.WriteFile(filepath.Join(dir, name), append(b, '\n'), 0o644)
}

// fileSafe turns a workflow ID into a file name: characters that paths or
// shells treat specially become '_'.
func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '.':
			return r
		}
		return '_'
	}, s)
}
