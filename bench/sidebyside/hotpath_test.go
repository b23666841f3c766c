package main

// Go benchmarks of this SDK's hot paths that need no server, through its
// public packages only (the lead adds engine-internal ones separately):
//
//	cd bench/sidebyside && go test -run '^$' -bench . -benchmem
//
// Payload conversion of single small and 64 KiB values is benchmarked in
// converter/bench_test.go and, beside go.temporal.io/sdk, in compat; these
// cover what those do not: argument lists, nil and bytes, a codec chain,
// failure conversion, and workflow tasks replayed from recorded histories.

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/temporal"
	oursworker "github.com/durable-go/sdk/worker"
	oursworkflow "github.com/durable-go/sdk/workflow"
)

// activityArgs are typical activity arguments: a name, a count, a struct.
type order struct {
	ID    string
	Items []string
	Total float64
}

func activityArgs() []any {
	return []any{"customer-42", 3, order{ID: "order-1234", Items: []string{"a", "b", "c"}, Total: 99.5}}
}

func BenchmarkPayloadsEncodeArgs(b *testing.B) {
	dc := converter.GetDefaultDataConverter()
	args := activityArgs()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := dc.ToPayloads(args...); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPayloadsDecodeArgs(b *testing.B) {
	dc := converter.GetDefaultDataConverter()
	p, err := dc.ToPayloads(activityArgs()...)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		var name string
		var n int
		var o order
		if err := dc.FromPayloads(p, &name, &n, &o); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPayloadEncodeNilAndBytes covers the two encodings chosen
// before JSON: binary/null and binary/plain.
func BenchmarkPayloadEncodeNilAndBytes(b *testing.B) {
	dc := converter.GetDefaultDataConverter()
	data := make([]byte, 1024)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := dc.ToPayloads(nil, data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPayloadsRoundTripZlib encodes and decodes arguments through a
// codec data converter with zlib compression (1 KiB of compressible text).
func BenchmarkPayloadsRoundTripZlib(b *testing.B) {
	dc := converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), converter.NewZlibCodec(converter.ZlibCodecOptions{AlwaysEncode: true}))
	text := string(make([]byte, 1024))
	b.ReportAllocs()
	for b.Loop() {
		p, err := dc.ToPayloads(text, 7)
		if err != nil {
			b.Fatal(err)
		}
		var s string
		var n int
		if err := dc.FromPayloads(p, &s, &n); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFailureConvertApplicationError converts an application error
// with a cause and details to a failure and back, as a failing activity
// and the workflow that awaits it do.
func BenchmarkFailureConvertApplicationError(b *testing.B) {
	fc := temporal.GetDefaultFailureConverter()
	err := temporal.NewApplicationErrorWithCause("payment declined", "PaymentError", errors.New("card expired"), "order-1234", 99.5)
	b.ReportAllocs()
	for b.Loop() {
		f := fc.ErrorToFailure(err)
		if back := fc.FailureToError(f); back == nil {
			b.Fatal("no error back")
		}
	}
}

// BenchmarkReplay replays small recorded histories with a fresh replayer
// run each time: the cost of processing a workflow's tasks from scratch,
// as a worker does for a workflow that is not in its sticky cache. The
// wft metric divides by the history's workflow tasks, so "ns/wft" is the
// cost of one workflow task of that workflow (history application,
// commands, coroutine switches; no network).
func BenchmarkReplay(b *testing.B) {
	for _, c := range []struct {
		name, file, workflowType string
		wf                       any
	}{
		// One workflow task of a workflow of three sequential activities
		// (four workflow tasks, 23 events).
		{"sequential3", "sequential3.json", sequentialName, sequentialOurs},
		// One workflow task in which two coroutines exchange ten values.
		{"pingpong10", "pingpong10.json", pingPongName, pingPongOurs},
		// Three signals, each in its own workflow task.
		{"signals", "signals.json", "SignalsWorkflow", signalsOurs},
	} {
		b.Run(c.name, func(b *testing.B) {
			h := readHistory(b, c.file)
			tasks := 0
			for _, e := range h.GetEvents() {
				if e.GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED {
					tasks++
				}
			}
			r := oursworker.NewWorkflowReplayer()
			r.RegisterWorkflowWithOptions(c.wf, oursworkflow.RegisterOptions{Name: c.workflowType})
			b.ReportAllocs()
			for b.Loop() {
				if err := r.ReplayWorkflowHistory(silent{}, h); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*tasks), "ns/wft")
		})
	}
}

// signalsOurs is the recorded SignalsWorkflow: it returns three "add"
// signals in arrival order.
func signalsOurs(ctx oursworkflow.Context) ([]string, error) {
	ch := oursworkflow.GetSignalChannel(ctx, "add")
	var got []string
	for len(got) < 3 {
		var s string
		ch.Receive(ctx, &s)
		got = append(got, s)
	}
	return got, nil
}

func readHistory(tb testing.TB, file string) *historypb.History {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "histories", file))
	if err != nil {
		tb.Fatal(err)
	}
	var h historypb.History
	if err := (protojson.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(data, &h); err != nil {
		tb.Fatalf("%s: %v", file, err)
	}
	return &h
}

// TestHotPathFixtures checks that the benchmarks' inputs work, so that
// go test fails rather than a benchmark run.
func TestHotPathFixtures(t *testing.T) {
	for _, c := range []struct {
		file, workflowType string
		wf                 any
	}{
		{"sequential3.json", sequentialName, sequentialOurs},
		{"pingpong10.json", pingPongName, pingPongOurs},
		{"signals.json", "SignalsWorkflow", signalsOurs},
	} {
		r := oursworker.NewWorkflowReplayer()
		r.RegisterWorkflowWithOptions(c.wf, oursworkflow.RegisterOptions{Name: c.workflowType})
		if err := r.ReplayWorkflowHistory(silent{}, readHistory(t, c.file)); err != nil {
			t.Errorf("replaying %s: %v", c.file, err)
		}
	}
	dc := converter.GetDefaultDataConverter()
	p, err := dc.ToPayloads(activityArgs()...)
	if err != nil {
		t.Fatal(err)
	}
	var name string
	var n int
	var o order
	if err := dc.FromPayloads(p, &name, &n, &o); err != nil || name != "customer-42" || n != 3 || o.Total != 99.5 {
		t.Errorf("arguments round trip: %q %d %+v, %v", name, n, o, err)
	}
}
