package testsuite_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	"google.golang.org/protobuf/proto"

	"github.com/stretchr/testify/require"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/workflow"
)

// keyedCodec keys each payload with the serialization context it is told,
// so that a payload decoded with another context fails, and notes the
// contexts it is told. It is comparable, as CodecDataConverter needs its
// codecs to be (go.temporal.io/sdk's too).
type keyedCodec struct {
	key   string
	notes *keyedNotes
}

type keyedNotes struct {
	mu   sync.Mutex
	seen map[string]bool
}

func newKeyedCodec() keyedCodec { return keyedCodec{notes: &keyedNotes{seen: map[string]bool{}}} }

func (c keyedCodec) WithSerializationContext(sc converter.SerializationContext) converter.PayloadCodec {
	c.key = fmt.Sprintf("%T%+v", sc, sc)
	return c
}

func (c keyedCodec) note(what string) {
	c.notes.mu.Lock()
	defer c.notes.mu.Unlock()
	c.notes.seen[what+" "+c.key] = true
}

func (c keyedCodec) seen() []string {
	c.notes.mu.Lock()
	defer c.notes.mu.Unlock()
	var out []string
	for s := range c.notes.seen {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

func (c keyedCodec) mac(data []byte) []byte {
	sum := sha256.Sum256(append([]byte(c.key+"|"), data...))
	return sum[:8]
}

func (c keyedCodec) Encode(ps []*commonpb.Payload) ([]*commonpb.Payload, error) {
	c.note("encode")
	out := make([]*commonpb.Payload, len(ps))
	for i, p := range ps {
		b, err := proto.Marshal(p)
		if err != nil {
			return nil, err
		}
		out[i] = &commonpb.Payload{Metadata: map[string][]byte{"encoding": []byte("binary/keyed")}, Data: append(c.mac(b), b...)}
	}
	return out, nil
}

func (c keyedCodec) Decode(ps []*commonpb.Payload) ([]*commonpb.Payload, error) {
	c.note("decode")
	out := make([]*commonpb.Payload, len(ps))
	for i, p := range ps {
		if len(p.Data) < 8 || !bytes.Equal(p.Data[:8], c.mac(p.Data[8:])) {
			return nil, fmt.Errorf("a payload decoded with context %q was encoded with another", c.key)
		}
		out[i] = &commonpb.Payload{}
		if err := proto.Unmarshal(p.Data[8:], out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func keyedEcho(ctx context.Context, s string) (string, error) {
	var hb string
	if activity.HasHeartbeatDetails(ctx) {
		if err := activity.GetHeartbeatDetails(ctx, &hb); err != nil {
			return "", err
		}
	}
	activity.RecordHeartbeat(ctx, "progress")
	return "echo:" + s + ":" + hb, nil
}

// TestActivityEnvironmentConvertsWithTheActivitysContext: the test
// activity environment converts an activity's input, heartbeat details
// and result with the serialization context its worker gives it.
func TestActivityEnvironmentConvertsWithTheActivitysContext(t *testing.T) {
	codec := newKeyedCodec()
	var s testsuite.WorkflowTestSuite
	env := s.NewTestActivityEnvironment()
	env.SetDataConverter(converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), codec))
	env.RegisterActivityWithOptions(keyedEcho, activity.RegisterOptions{Name: "KeyedEcho"})
	env.SetHeartbeatDetails("earlier")
	v, err := env.ExecuteActivity("KeyedEcho", "in")
	require.NoError(t, err)
	var out string
	require.NoError(t, v.Get(&out))
	require.Equal(t, "echo:in:earlier", out)
	const activityContext = "converter.ActivitySerializationContext{Namespace:default-test-namespace WorkflowID: WorkflowType: ActivityType:KeyedEcho TaskQueue:default-test-taskqueue IsLocal:false}"
	require.Contains(t, codec.seen(), "encode "+activityContext)
	require.Contains(t, codec.seen(), "decode "+activityContext)

	v, err = env.ExecuteLocalActivity("KeyedEcho", "local")
	require.NoError(t, err)
	require.NoError(t, v.Get(&out))
	require.Equal(t, "echo:local:earlier", out)
}

// keyedCaller runs KeyedEcho with a converter of its own that stops the
// deadlock clock: the converter still hears the activity's context.
func keyedCaller(ctx workflow.Context, dc converter.DataConverter) (string, error) {
	ctx = workflow.WithDataConverter(ctx, workflow.DataConverterWithoutDeadlockDetection(dc))
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	var out string
	err := workflow.ExecuteActivity(ctx, "KeyedEcho", "in").Get(ctx, &out)
	return out, err
}

func TestDataConverterWithoutDeadlockDetectionPassesTheContextOn(t *testing.T) {
	dc := converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), newKeyedCodec())
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.SetDataConverter(dc)
	env.RegisterActivityWithOptions(keyedEcho, activity.RegisterOptions{Name: "KeyedEcho"})
	env.RegisterWorkflowWithOptions(func(ctx workflow.Context) (string, error) { return keyedCaller(ctx, dc) }, workflow.RegisterOptions{Name: "KeyedCaller"})
	env.ExecuteWorkflow("KeyedCaller")
	require.NoError(t, env.GetWorkflowError())
	var out string
	require.NoError(t, env.GetWorkflowResult(&out))
	require.Equal(t, "echo:in:", out)
}
