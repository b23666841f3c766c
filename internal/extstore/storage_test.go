package extstore_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	commandpb "go.temporal.io/api/command/v1"
	commonpb "go.temporal.io/api/common/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/proto"

	"github.com/durable-go/sdk/internal/extstore"
)

// memDriver keeps payloads in memory, counting its calls.
type memDriver struct {
	name      string
	mu        sync.Mutex
	stored    map[string]*commonpb.Payload
	targets   []extstore.StorageDriverTargetInfo
	storeErr  error
	running   atomic.Int32
	slow      bool // each operation yields the processor, so that others may overlap it
	maxInside atomic.Int32
}

func newMem(name string) *memDriver {
	return &memDriver{name: name, stored: map[string]*commonpb.Payload{}}
}

func (d *memDriver) Name() string { return d.name }
func (d *memDriver) Type() string { return "test.memory" }

func (d *memDriver) inside(fn func() error) func() error {
	return func() error {
		n := d.running.Add(1)
		defer d.running.Add(-1)
		if d.slow {
			time.Sleep(time.Millisecond)
		}
		for m := d.maxInside.Load(); n > m && !d.maxInside.CompareAndSwap(m, n); m = d.maxInside.Load() {
		}
		return fn()
	}
}

func (d *memDriver) Store(ctx extstore.StorageDriverStoreContext, payloads []*commonpb.Payload) ([]extstore.StorageDriverClaim, error) {
	if d.storeErr != nil {
		return nil, d.storeErr
	}
	d.mu.Lock()
	d.targets = append(d.targets, ctx.Target)
	d.mu.Unlock()
	claims := make([]extstore.StorageDriverClaim, len(payloads))
	for i, p := range payloads {
		err := ctx.GetLimiter().Permit(ctx.Context, p, d.inside(func() error {
			d.mu.Lock()
			defer d.mu.Unlock()
			key := fmt.Sprintf("k%d", len(d.stored))
			d.stored[key] = proto.Clone(p).(*commonpb.Payload)
			claims[i] = extstore.StorageDriverClaim{ClaimData: map[string]string{"key": key}}
			return nil
		}))
		if err != nil {
			return nil, err
		}
	}
	return claims, nil
}

func (d *memDriver) Retrieve(ctx extstore.StorageDriverRetrieveContext, claims []extstore.StorageDriverClaim) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(claims))
	for i, c := range claims {
		err := ctx.GetLimiter().Permit(ctx.Context, c, d.inside(func() error {
			d.mu.Lock()
			defer d.mu.Unlock()
			p, ok := d.stored[c.ClaimData["key"]]
			if !ok {
				return fmt.Errorf("no payload under %q", c.ClaimData["key"])
			}
			out[i] = p
			return nil
		}))
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

func payloadOf(size int) *commonpb.Payload {
	return &commonpb.Payload{Metadata: map[string][]byte{"encoding": []byte("binary/plain")}, Data: []byte(strings.Repeat("x", size))}
}

func startRequest(args ...*commonpb.Payload) *workflowservice.StartWorkflowExecutionRequest {
	return &workflowservice.StartWorkflowExecutionRequest{Namespace: "ns", WorkflowId: "wf-1",
		WorkflowType: &commonpb.WorkflowType{Name: "Flow"}, Input: &commonpb.Payloads{Payloads: args}}
}

func mustNew(t *testing.T, opts extstore.ExternalStorage) *extstore.Storage {
	t.Helper()
	s, err := extstore.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestPayloadsFromTheThresholdAreStoredAndRetrieved(t *testing.T) {
	d := newMem("mem")
	s := mustNew(t, extstore.ExternalStorage{Drivers: []extstore.StorageDriver{d}, PayloadSizeThreshold: 100})
	small, large := payloadOf(10), payloadOf(200)
	req := startRequest(small, large)
	if err := s.Store(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	got := req.GetInput().GetPayloads()
	if !proto.Equal(got[0], small) {
		t.Errorf("the payload below the threshold changed: %v", got[0])
	}
	if !extstore.IsReference(got[1]) {
		t.Fatalf("the payload above the threshold is not a reference: %v", got[1])
	}
	if string(got[1].Metadata["encoding"]) != "json/protobuf" || string(got[1].Metadata["messageType"]) != "temporal.api.sdk.v1.ExternalStorageReference" {
		t.Errorf("reference metadata: %q", got[1].Metadata)
	}
	var body map[string]any
	if err := json.Unmarshal(got[1].Data, &body); err != nil || fmt.Sprint(body) != "map[claimData:map[key:k0] driverName:mem]" {
		t.Errorf("reference data: %s (%v)", got[1].Data, err)
	}
	if n := got[1].GetExternalPayloads(); len(n) != 1 || n[0].GetSizeBytes() != int64(proto.Size(large)) {
		t.Errorf("external payload details: %v, want the stored payload's size %d", n, proto.Size(large))
	}
	if want := (extstore.StorageDriverWorkflowInfo{Namespace: "ns", WorkflowType: "Flow", WorkflowID: "wf-1"}); len(d.targets) != 1 || d.targets[0] != want {
		t.Errorf("targets %v, want [%v]", d.targets, want)
	}

	// As the history holds it: the reference in a started event.
	hist := &historypb.History{Events: []*historypb.HistoryEvent{{Attributes: &historypb.HistoryEvent_WorkflowExecutionStartedEventAttributes{
		WorkflowExecutionStartedEventAttributes: &historypb.WorkflowExecutionStartedEventAttributes{Input: req.Input}}}}}
	if err := s.Retrieve(context.Background(), hist); err != nil {
		t.Fatal(err)
	}
	back := hist.Events[0].GetWorkflowExecutionStartedEventAttributes().GetInput().GetPayloads()
	if !proto.Equal(back[0], small) || !proto.Equal(back[1], large) {
		t.Errorf("retrieved %v", back)
	}
}

func TestThresholdDefaultsTo256KiB(t *testing.T) {
	s := mustNew(t, extstore.ExternalStorage{Drivers: []extstore.StorageDriver{newMem("mem")}})
	if s.Threshold() != 256*1024 {
		t.Fatalf("threshold %d", s.Threshold())
	}
	under := payloadOf(256*1024 - 100)
	req := startRequest(under)
	if err := s.Store(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if extstore.IsReference(req.Input.Payloads[0]) {
		t.Error("a payload under 256 KiB was stored")
	}
	req = startRequest(payloadOf(256 * 1024))
	if err := s.Store(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if !extstore.IsReference(req.Input.Payloads[0]) {
		t.Error("a payload of 256 KiB was not stored")
	}
}

type selectorFunc func(extstore.StorageDriverSelectContext, *commonpb.Payload) (extstore.StorageDriver, error)

func (f selectorFunc) SelectDriver(ctx extstore.StorageDriverSelectContext, p *commonpb.Payload) (extstore.StorageDriver, error) {
	return f(ctx, p)
}

func TestTheSelectorRoutesEachPayload(t *testing.T) {
	a, b := newMem("a"), newMem("b")
	s := mustNew(t, extstore.ExternalStorage{Drivers: []extstore.StorageDriver{a, b}, PayloadSizeThreshold: 10,
		DriverSelector: selectorFunc(func(_ extstore.StorageDriverSelectContext, p *commonpb.Payload) (extstore.StorageDriver, error) {
			switch len(p.Data) {
			case 20:
				return a, nil
			case 30:
				return b, nil
			}
			return nil, nil // kept inline
		})})
	req := startRequest(payloadOf(20), payloadOf(30), payloadOf(40))
	if err := s.Store(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	got := req.Input.Payloads
	if !strings.Contains(string(got[0].Data), `"a"`) || !strings.Contains(string(got[1].Data), `"b"`) {
		t.Errorf("references: %s, %s", got[0].Data, got[1].Data)
	}
	if extstore.IsReference(got[2]) {
		t.Error("the payload the selector kept inline was stored")
	}
	if err := s.Retrieve(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	for i, n := range []int{20, 30, 40} {
		if len(req.Input.Payloads[i].Data) != n {
			t.Errorf("payload %d has %d bytes after the round trip, want %d", i, len(req.Input.Payloads[i].Data), n)
		}
	}
}

func TestASelectorsUnknownDriverIsAnError(t *testing.T) {
	a := newMem("a")
	s := mustNew(t, extstore.ExternalStorage{Drivers: []extstore.StorageDriver{a}, PayloadSizeThreshold: 10,
		DriverSelector: selectorFunc(func(extstore.StorageDriverSelectContext, *commonpb.Payload) (extstore.StorageDriver, error) {
			return newMem("stranger"), nil
		})})
	err := s.Store(context.Background(), startRequest(payloadOf(20)))
	if err == nil || !strings.Contains(err.Error(), `"stranger"`) || !strings.Contains(err.Error(), "not one of ExternalStorage.Drivers") {
		t.Fatalf("error %v", err)
	}
}

func TestADriversFailureNamesTheDriver(t *testing.T) {
	d := newMem("broken")
	d.storeErr = errors.New("disk full")
	s := mustNew(t, extstore.ExternalStorage{Drivers: []extstore.StorageDriver{d}, PayloadSizeThreshold: 10})
	err := s.Store(context.Background(), startRequest(payloadOf(20)))
	if err == nil || !strings.Contains(err.Error(), `driver "broken"`) || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("error %v", err)
	}
}

func TestAReferenceToAnUnconfiguredDriverSaysWhichIsNeeded(t *testing.T) {
	writer := mustNew(t, extstore.ExternalStorage{Drivers: []extstore.StorageDriver{newMem("s3-prod")}, PayloadSizeThreshold: 10})
	req := startRequest(payloadOf(20))
	if err := writer.Store(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	reader := mustNew(t, extstore.ExternalStorage{Drivers: []extstore.StorageDriver{newMem("local")}})
	err := reader.Retrieve(context.Background(), req)
	var missing *extstore.MissingDriverError
	if !errors.As(err, &missing) || missing.Driver != "s3-prod" {
		t.Fatalf("error %v", err)
	}
	if !strings.Contains(err.Error(), `add a driver named "s3-prod"`) {
		t.Errorf("the error does not say what to do: %v", err)
	}
	err = extstore.MissingStorage(req.Input.Payloads[0])
	if !strings.Contains(err.Error(), "no storage driver is configured") || !strings.Contains(err.Error(), "client.Options.ExternalStorage") {
		t.Errorf("the error without storage does not say what to configure: %v", err)
	}
}

func TestTheEarlierReferenceFormatIsRead(t *testing.T) {
	d := newMem("mem")
	d.stored["old"] = payloadOf(5)
	s := mustNew(t, extstore.ExternalStorage{Drivers: []extstore.StorageDriver{d}})
	legacy := &commonpb.Payload{Metadata: map[string][]byte{"encoding": []byte("json/external-storage-reference")},
		Data: []byte(`{"driver_name":"mem","driver_claim":{"claim_data":{"key":"old"}}}`)}
	req := startRequest(legacy)
	if err := s.Retrieve(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if !proto.Equal(req.Input.Payloads[0], payloadOf(5)) {
		t.Errorf("retrieved %v", req.Input.Payloads[0])
	}
}

func TestOptionsAreChecked(t *testing.T) {
	a, b := newMem("a"), newMem("a")
	for _, tc := range []struct {
		opts extstore.ExternalStorage
		want string
	}{
		{extstore.ExternalStorage{Drivers: []extstore.StorageDriver{newMem("a")}, PayloadSizeThreshold: -1}, "must not be negative"},
		{extstore.ExternalStorage{Drivers: []extstore.StorageDriver{a, b}}, `two drivers are named "a"`},
		{extstore.ExternalStorage{Drivers: []extstore.StorageDriver{newMem("a"), newMem("b")}}, "DriverSelector must say"},
		{extstore.ExternalStorage{Drivers: []extstore.StorageDriver{newMem("a")}, Concurrency: extstore.ExternalStorageConcurrency{MaxDriverOperations: -1}}, "must not be negative"},
	} {
		if _, err := extstore.New(tc.opts); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%+v): error %v, want one saying %q", tc.opts, err, tc.want)
		}
	}
	if s, err := extstore.New(extstore.ExternalStorage{}); s != nil || err != nil {
		t.Errorf("no drivers: %v, %v; want no storage", s, err)
	}
}

func TestTargets(t *testing.T) {
	d := newMem("mem")
	s := mustNew(t, extstore.ExternalStorage{Drivers: []extstore.StorageDriver{d}, PayloadSizeThreshold: 10})
	parent := extstore.StorageDriverWorkflowInfo{Namespace: "ns", WorkflowType: "Parent", WorkflowID: "p", RunID: "r"}
	completion := &workflowservice.RespondWorkflowTaskCompletedRequest{Commands: []*commandpb.Command{
		{Attributes: &commandpb.Command_ScheduleActivityTaskCommandAttributes{ScheduleActivityTaskCommandAttributes: &commandpb.ScheduleActivityTaskCommandAttributes{
			Input: &commonpb.Payloads{Payloads: []*commonpb.Payload{payloadOf(20)}}}}},
		{Attributes: &commandpb.Command_StartChildWorkflowExecutionCommandAttributes{StartChildWorkflowExecutionCommandAttributes: &commandpb.StartChildWorkflowExecutionCommandAttributes{
			WorkflowId: "child", WorkflowType: &commonpb.WorkflowType{Name: "Child"}, Input: &commonpb.Payloads{Payloads: []*commonpb.Payload{payloadOf(21)}}}}},
	}}
	if err := s.Store(extstore.WithTarget(context.Background(), parent), completion); err != nil {
		t.Fatal(err)
	}
	want := []extstore.StorageDriverTargetInfo{parent, extstore.StorageDriverWorkflowInfo{Namespace: "ns", WorkflowType: "Child", WorkflowID: "child"}}
	// The commands are visited concurrently: in either order.
	if len(d.targets) != 2 || !(d.targets[0] == want[0] && d.targets[1] == want[1] || d.targets[0] == want[1] && d.targets[1] == want[0]) {
		t.Errorf("targets %v, want %v", d.targets, want)
	}
}

func TestOperationsAreLimited(t *testing.T) {
	t.Run("per message", func(t *testing.T) {
		testOperationsLimit(t, extstore.ExternalStorageConcurrency{MaxOperationsPerMessage: 1})
	})
	// The visit runs 8 groups at once (the default per message), the
	// driver's operations one at a time.
	t.Run("per client", func(t *testing.T) {
		testOperationsLimit(t, extstore.ExternalStorageConcurrency{MaxDriverOperations: 1})
	})
}

func testOperationsLimit(t *testing.T, limits extstore.ExternalStorageConcurrency) {
	d := newMem("mem")
	d.slow = true
	s := mustNew(t, extstore.ExternalStorage{Drivers: []extstore.StorageDriver{d}, PayloadSizeThreshold: 10, Concurrency: limits})
	var commands []*commandpb.Command
	for range 20 {
		commands = append(commands, &commandpb.Command{Attributes: &commandpb.Command_ScheduleActivityTaskCommandAttributes{ScheduleActivityTaskCommandAttributes: &commandpb.ScheduleActivityTaskCommandAttributes{
			Input: &commonpb.Payloads{Payloads: []*commonpb.Payload{payloadOf(20), payloadOf(30)}}}}})
	}
	completion := &workflowservice.RespondWorkflowTaskCompletedRequest{Commands: commands}
	if err := s.Store(context.Background(), completion); err != nil {
		t.Fatal(err)
	}
	if err := s.Retrieve(context.Background(), completion); err != nil {
		t.Fatal(err)
	}
	if m := d.maxInside.Load(); m != 1 {
		t.Errorf("%d operations ran at once, limit 1", m)
	}
	if len(d.stored) != 40 {
		t.Errorf("%d payloads stored, want 40", len(d.stored))
	}
}

func TestANilStorageDoesNothing(t *testing.T) {
	var s *extstore.Storage
	req := startRequest(payloadOf(1 << 20))
	if err := s.Store(context.Background(), req); err != nil || extstore.IsReference(req.Input.Payloads[0]) {
		t.Fatal(err)
	}
	if err := s.Retrieve(context.Background(), req); err != nil {
		t.Fatal(err)
	}
}
