package parity

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/stretchr/testify/mock"
	commonpb "go.temporal.io/api/common/v1"
	"google.golang.org/protobuf/proto"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/workflow"
)

// contextCodec keys each payload with the serialization context it is
// told (a payload decoded with another context than it was encoded with
// fails) and records the contexts it is told.
type contextCodec struct {
	key  string
	seen *contextNotes
}

type contextNotes struct {
	mu    sync.Mutex
	notes map[string]bool
}

func (n *contextNotes) note(s string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.notes == nil {
		n.notes = map[string]bool{}
	}
	n.notes[s] = true
}

func (n *contextNotes) sorted() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []string
	for s := range n.notes {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

func (c contextCodec) WithSerializationContext(sc converter.SerializationContext) converter.PayloadCodec {
	switch x := sc.(type) {
	case converter.WorkflowSerializationContext:
		return contextCodec{key: "workflow " + x.WorkflowID, seen: c.seen}
	case converter.ActivitySerializationContext:
		return contextCodec{key: fmt.Sprintf("activity %s of %s (%s) local=%t", x.ActivityType, x.WorkflowID, x.WorkflowType, x.IsLocal), seen: c.seen}
	}
	return contextCodec{key: fmt.Sprintf("%T", sc), seen: c.seen}
}

func (c contextCodec) mac(data []byte) []byte {
	sum := sha256.Sum256(append([]byte(c.key+"|"), data...))
	return sum[:8]
}

func (c contextCodec) Encode(ps []*commonpb.Payload) ([]*commonpb.Payload, error) {
	if len(ps) > 0 {
		c.seen.note("encode " + c.key)
	}
	out := make([]*commonpb.Payload, len(ps))
	for i, p := range ps {
		b, err := proto.Marshal(p)
		if err != nil {
			return nil, err
		}
		out[i] = &commonpb.Payload{Metadata: map[string][]byte{"encoding": []byte("binary/context-keyed")}, Data: append(c.mac(b), b...)}
	}
	return out, nil
}

func (c contextCodec) Decode(ps []*commonpb.Payload) ([]*commonpb.Payload, error) {
	if len(ps) > 0 {
		c.seen.note("decode " + c.key)
	}
	out := make([]*commonpb.Payload, len(ps))
	for i, p := range ps {
		if string(p.GetMetadata()["encoding"]) != "binary/context-keyed" {
			out[i] = p
			continue
		}
		if len(p.Data) < 8 || !bytes.Equal(p.Data[:8], c.mac(p.Data[8:])) {
			return nil, fmt.Errorf("a payload decoded as %q was encoded with another serialization context", c.key)
		}
		out[i] = &commonpb.Payload{}
		if err := proto.Unmarshal(p.Data[8:], out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func ContextActivity(_ context.Context, s string) (string, error) { return "activity:" + s, nil }

func ContextChild(_ workflow.Context, s string) (string, error) { return "child:" + s, nil }

// ContextParent answers a query and an update, runs an activity, a local
// activity and a child, and returns when signaled "finish".
func ContextParent(ctx workflow.Context, in string) (string, error) {
	var updated string
	if err := workflow.SetQueryHandler(ctx, "q", func(q string) (string, error) { return "query:" + q, nil }); err != nil {
		return "", err
	}
	if err := workflow.SetUpdateHandler(ctx, "u", func(_ workflow.Context, u string) (string, error) {
		updated = u
		return "update:" + u, nil
	}); err != nil {
		return "", err
	}
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	var a, l, c, finish string
	if err := workflow.ExecuteActivity(ctx, "ContextActivity", in).Get(ctx, &a); err != nil {
		return "", err
	}
	lctx := workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{StartToCloseTimeout: time.Minute})
	if err := workflow.ExecuteLocalActivity(lctx, "ContextActivity", in).Get(ctx, &l); err != nil {
		return "", err
	}
	cctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: "context-child"})
	if err := workflow.ExecuteChildWorkflow(cctx, "ContextChild", in).Get(ctx, &c); err != nil {
		return "", err
	}
	workflow.GetSignalChannel(ctx, "finish").Receive(ctx, &finish)
	if err := workflow.Await(ctx, func() bool { return updated != "" }); err != nil {
		return "", err
	}
	return strings.Join([]string{a, l, c, updated, finish}, "|"), nil
}

// TestSerializationContexts: the environment's workflow, its activity,
// local activity and child, and what the test sends it and reads of it
// are converted with the serialization contexts a worker and a client
// use, so a codec keyed by them reads every payload.
func (s *ParitySuite) TestSerializationContexts() {
	notes := &contextNotes{}
	s.env.SetDataConverter(converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), contextCodec{seen: notes}))
	s.env.SetStartWorkflowOptions(client.StartWorkflowOptions{ID: "context-parent"})
	s.env.RegisterWorkflowWithOptions(ContextParent, workflow.RegisterOptions{Name: "ContextParent"})
	s.env.RegisterWorkflowWithOptions(ContextChild, workflow.RegisterOptions{Name: "ContextChild"})
	s.env.RegisterActivityWithOptions(ContextActivity, activity.RegisterOptions{Name: "ContextActivity"})
	var query string
	var queryErr error
	s.env.RegisterDelayedCallback(func() {
		var v converter.EncodedValue
		if v, queryErr = s.env.QueryWorkflow("q", "x"); queryErr == nil {
			queryErr = v.Get(&query)
		}
		s.env.UpdateWorkflow("u", "update-1", &noRejectionCallback{s: s}, "y")
		s.env.SignalWorkflow("finish", "z")
	}, time.Minute)
	s.env.ExecuteWorkflow("ContextParent", "in")
	s.Require().NoError(s.env.GetWorkflowError())
	s.Require().NoError(queryErr)
	s.Equal("query:x", query)
	var result string
	s.Require().NoError(s.env.GetWorkflowResult(&result))
	s.Equal("activity:in|activity:in|child:in|y|z", result)
	s.Equal([]string{
		"decode activity ContextActivity of context-parent (ContextParent) local=false",
		"decode activity ContextActivity of context-parent (ContextParent) local=true",
		"decode workflow context-child",
		"decode workflow context-parent",
		"encode activity ContextActivity of context-parent (ContextParent) local=false",
		"encode activity ContextActivity of context-parent (ContextParent) local=true",
		"encode workflow context-child",
		"encode workflow context-parent",
	}, notes.sorted())
}

// noRejectionCallback fails the test when the update is rejected or
// fails.
type noRejectionCallback struct{ s *ParitySuite }

func (c *noRejectionCallback) Accept()                   {}
func (c *noRejectionCallback) Reject(err error)          { c.s.Fail("the update was rejected", err) }
func (c *noRejectionCallback) Complete(_ any, err error) { c.s.NoError(err) }

// ContextCaller runs the activity and the child ContextParent runs, which
// the test mocks.
func ContextCaller(ctx workflow.Context, in string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	var a, c string
	if err := workflow.ExecuteActivity(ctx, "ContextActivity", in).Get(ctx, &a); err != nil {
		return "", err
	}
	cctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: "context-child"})
	if err := workflow.ExecuteChildWorkflow(cctx, "ContextChild", in).Get(ctx, &c); err != nil {
		return "", err
	}
	return a + "|" + c, nil
}

// TestSerializationContextsOfMocks: a mocked activity and a mocked child
// get their arguments, and give their results, through the codec keyed by
// their serialization contexts.
func (s *ParitySuite) TestSerializationContextsOfMocks() {
	notes := &contextNotes{}
	s.env.SetDataConverter(converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), contextCodec{seen: notes}))
	s.env.SetStartWorkflowOptions(client.StartWorkflowOptions{ID: "context-caller"})
	s.env.RegisterWorkflowWithOptions(ContextCaller, workflow.RegisterOptions{Name: "ContextCaller"})
	s.env.RegisterWorkflowWithOptions(ContextChild, workflow.RegisterOptions{Name: "ContextChild"})
	s.env.RegisterActivityWithOptions(ContextActivity, activity.RegisterOptions{Name: "ContextActivity"})
	s.env.OnActivity("ContextActivity", mock.Anything, "in").Return("mocked activity", nil)
	s.env.OnWorkflow("ContextChild", mock.Anything, "in").Return("mocked child", nil)
	s.env.ExecuteWorkflow("ContextCaller", "in")
	var result string
	s.Require().NoError(s.env.GetWorkflowResult(&result))
	s.Equal("mocked activity|mocked child", result)
	s.Contains(notes.sorted(), "decode activity ContextActivity of context-caller (ContextCaller) local=false")
	s.Contains(notes.sorted(), "decode workflow context-child")
}
