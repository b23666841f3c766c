package compat

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/workflowservice/v1"
	officialclient "go.temporal.io/sdk/client"
	officialconverter "go.temporal.io/sdk/converter"
	officialworker "go.temporal.io/sdk/worker"
	officialworkflow "go.temporal.io/sdk/workflow"
	"google.golang.org/protobuf/proto"

	historypb "go.temporal.io/api/history/v1"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/contrib/localstorage"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

// External storage across the two SDKs: a payload one stores (its
// reference in the history, the payload in a directory) is retrieved by
// the other. go.temporal.io/sdk has no local-directory driver, so its side
// has officialDirDriver, which writes and reads the files and claims of
// contrib/localstorage; the reference payloads around the claims are each
// SDK's own.

// officialDirDriver is contrib/localstorage's format, for go.temporal.io/sdk:
// a payload's protobuf encoding in a file named by its SHA-256 digest,
// the claim {"file": name}.
type officialDirDriver struct{ dir string }

func (officialDirDriver) Name() string { return "local" }
func (officialDirDriver) Type() string { return localstorage.DriverType }

func (d officialDirDriver) Store(_ officialconverter.StorageDriverStoreContext, payloads []*commonpb.Payload) ([]officialconverter.StorageDriverClaim, error) {
	claims := make([]officialconverter.StorageDriverClaim, len(payloads))
	for i, p := range payloads {
		data, err := proto.MarshalOptions{Deterministic: true}.Marshal(p)
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(data)
		name := "sha256-" + hex.EncodeToString(sum[:])
		if err := os.WriteFile(filepath.Join(d.dir, name), data, 0o644); err != nil {
			return nil, err
		}
		claims[i] = officialconverter.StorageDriverClaim{ClaimData: map[string]string{localstorage.ClaimKeyFile: name}}
	}
	return claims, nil
}

func (d officialDirDriver) Retrieve(_ officialconverter.StorageDriverRetrieveContext, claims []officialconverter.StorageDriverClaim) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(claims))
	for i, c := range claims {
		data, err := os.ReadFile(filepath.Join(d.dir, filepath.Base(c.ClaimData[localstorage.ClaimKeyFile])))
		if err != nil {
			return nil, err
		}
		out[i] = &commonpb.Payload{}
		if err := proto.Unmarshal(data, out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

const storedPayloadThreshold = 2048

func bigText(tag string) string { return tag + ":" + strings.Repeat("abcdefghij", 500) }

// StoredEchoOurs and StoredEchoOfficial answer a large input with a large
// result.
func StoredEchoOurs(_ workflow.Context, in string) (string, error) {
	return bigText("echo " + in[:5]), nil
}

func StoredEchoOfficial(_ officialworkflow.Context, in string) (string, error) {
	return bigText("echo " + in[:5]), nil
}

// dialStoring dials a client of each SDK, both storing in dir.
func dialStoring(t *testing.T, dir string) (client.Client, officialclient.Client) {
	t.Helper()
	driver, err := localstorage.NewDriver(localstorage.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	hp := testharness.HostPort(t)
	c, err := client.Dial(client.Options{HostPort: hp, ExternalStorage: converter.ExternalStorage{
		Drivers: []converter.StorageDriver{driver}, PayloadSizeThreshold: storedPayloadThreshold}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	oc, err := officialclient.Dial(officialclient.Options{HostPort: hp, Logger: quiet{}, ExternalStorage: officialconverter.ExternalStorage{
		Drivers: []officialconverter.StorageDriver{officialDirDriver{dir}}, PayloadSizeThreshold: storedPayloadThreshold}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(oc.Close)
	return c, oc
}

// storedReferences counts the reference payloads in a run's history, as
// the server keeps it, and fails on any large payload held inline.
func storedReferences(t *testing.T, c client.Client, id string) int {
	t.Helper()
	resp, err := c.WorkflowService().GetWorkflowExecutionHistory(context.Background(), &workflowservice.GetWorkflowExecutionHistoryRequest{
		Namespace: "default", Execution: &commonpb.WorkflowExecution{WorkflowId: id}})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range resp.GetHistory().GetEvents() {
		for _, p := range append(e.GetWorkflowExecutionStartedEventAttributes().GetInput().GetPayloads(),
			e.GetWorkflowExecutionCompletedEventAttributes().GetResult().GetPayloads()...) {
			if strings.Contains(string(p.GetData()), "abcdefghij") {
				t.Errorf("event %d holds a large payload inline", e.GetEventId())
			}
			if string(p.GetMetadata()["messageType"]) == "temporal.api.sdk.v1.ExternalStorageReference" {
				n++
			}
		}
	}
	return n
}

// rawHistory is a run's history as the server keeps it, references
// and all.
func rawHistory(t *testing.T, c client.Client, id string) *historypb.History {
	t.Helper()
	resp, err := c.WorkflowService().GetWorkflowExecutionHistory(context.Background(), &workflowservice.GetWorkflowExecutionHistoryRequest{
		Namespace: "default", Execution: &commonpb.WorkflowExecution{WorkflowId: id}})
	if err != nil {
		t.Fatal(err)
	}
	return resp.GetHistory()
}

// replayStoredAcrossSDKs replays a history one SDK's worker wrote, with its
// references, on the other SDK's replayer configured with a driver of the
// same directory: the replay must retrieve the input to run the workflow.
func replayStoredAcrossSDKs(t *testing.T, dir string, history *historypb.History, writtenByOurs bool) {
	t.Helper()
	if writtenByOurs {
		r, err := officialworker.NewWorkflowReplayerWithOptions(officialworker.WorkflowReplayerOptions{ExternalStorage: officialconverter.ExternalStorage{
			Drivers: []officialconverter.StorageDriver{officialDirDriver{dir}}, PayloadSizeThreshold: storedPayloadThreshold}})
		if err != nil {
			t.Fatal(err)
		}
		r.RegisterWorkflowWithOptions(StoredEchoOfficial, officialworkflow.RegisterOptions{Name: "StoredEcho"})
		if err := r.ReplayWorkflowHistory(quiet{}, history); err != nil {
			t.Errorf("the official replayer fails on this SDK's history with stored payloads: %v", err)
		}
		return
	}
	driver, err := localstorage.NewDriver(localstorage.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	r, err := worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{ExternalStorage: converter.ExternalStorage{
		Drivers: []converter.StorageDriver{driver}, PayloadSizeThreshold: storedPayloadThreshold}})
	if err != nil {
		t.Fatal(err)
	}
	r.RegisterWorkflowWithOptions(StoredEchoOurs, workflow.RegisterOptions{Name: "StoredEcho"})
	if err := r.ReplayWorkflowHistory(nil, history); err != nil {
		t.Errorf("this SDK's replayer fails on the official SDK's history with stored payloads: %v", err)
	}
}

// The official client stores a workflow's input, our worker retrieves it
// and stores the result, the official client retrieves that; and the
// other way round. Each history, its references kept, replays on the
// other SDK's replayer.
func TestExternalStorageAcrossSDKs(t *testing.T) {
	dir := t.TempDir()
	c, oc := dialStoring(t, dir)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	oursQueue := fmt.Sprintf("extstore-ours-%d", time.Now().UnixNano())
	w := worker.New(c, oursQueue, worker.Options{})
	w.RegisterWorkflowWithOptions(StoredEchoOurs, workflow.RegisterOptions{Name: "StoredEcho"})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	officialQueue := fmt.Sprintf("extstore-official-%d", time.Now().UnixNano())
	ow := officialworker.New(oc, officialQueue, officialworker.Options{})
	ow.RegisterWorkflowWithOptions(StoredEchoOfficial, officialworkflow.RegisterOptions{Name: "StoredEcho"})
	if err := ow.Start(); err != nil {
		t.Fatal(err)
	}
	defer ow.Stop()

	t.Run("official client, our worker", func(t *testing.T) {
		run, err := oc.ExecuteWorkflow(ctx, officialclient.StartWorkflowOptions{ID: fmt.Sprintf("extstore-o2u-%d", time.Now().UnixNano()), TaskQueue: oursQueue},
			"StoredEcho", bigText("first"))
		if err != nil {
			t.Fatal(err)
		}
		var got string
		if err := run.Get(ctx, &got); err != nil || got != bigText("echo first") {
			t.Fatalf("result %.30q, %v", got, err)
		}
		if n := storedReferences(t, c, run.GetID()); n != 2 {
			t.Errorf("%d references in the history, want 2 (input, result)", n)
		}
		replayStoredAcrossSDKs(t, dir, rawHistory(t, c, run.GetID()), true)
	})
	t.Run("our client, official worker", func(t *testing.T) {
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: fmt.Sprintf("extstore-u2o-%d", time.Now().UnixNano()), TaskQueue: officialQueue},
			"StoredEcho", bigText("other"))
		if err != nil {
			t.Fatal(err)
		}
		var got string
		if err := run.Get(ctx, &got); err != nil || got != bigText("echo other") {
			t.Fatalf("result %.30q, %v", got, err)
		}
		if n := storedReferences(t, c, run.GetID()); n != 2 {
			t.Errorf("%d references in the history, want 2 (input, result)", n)
		}
		replayStoredAcrossSDKs(t, dir, rawHistory(t, c, run.GetID()), false)
	})
}
