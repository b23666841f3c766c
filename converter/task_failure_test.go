package converter

import (
	"errors"
	"fmt"
	"testing"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/internal/codecfail"
)

// refusingCodec fails Encode and Decode with err.
type refusingCodec struct{ err error }

func (c refusingCodec) Encode([]*commonpb.Payload) ([]*commonpb.Payload, error) { return nil, c.err }
func (c refusingCodec) Decode([]*commonpb.Payload) ([]*commonpb.Payload, error) { return nil, c.err }

func TestWorkflowTaskFailureErrorReadsAsItsCause(t *testing.T) {
	cause := errors.New("key service unavailable")
	err := NewWorkflowTaskFailureError(cause)
	if err.Error() != cause.Error() || !errors.Is(err, cause) {
		t.Errorf("%q does not read as and unwrap to its cause", err)
	}
	if err := NewWorkflowTaskFailureError(nil); err.Error() == "" || errors.Unwrap(err) != nil {
		t.Errorf("without a cause: message %q, unwraps to %v", err, errors.Unwrap(err))
	}
}

// Every way a codec runs marks its request to fail the workflow task, for
// the engine; nothing else is marked: a codec's other errors, or the
// request made outside a codec.
func TestCodecBoundaryMarksTaskFailureRequests(t *testing.T) {
	cause := errors.New("key service unavailable")
	request := NewWorkflowTaskFailureError(cause)
	conversions := map[string]func(dc DataConverter) error{
		"ToPayload":  func(dc DataConverter) error { _, err := dc.ToPayload("v"); return err },
		"ToPayloads": func(dc DataConverter) error { _, err := dc.ToPayloads("v"); return err },
		"FromPayload": func(dc DataConverter) error {
			p, _ := GetDefaultDataConverter().ToPayload("v")
			var s string
			return dc.FromPayload(p, &s)
		},
		"FromPayloads": func(dc DataConverter) error {
			p, _ := GetDefaultDataConverter().ToPayloads("v")
			var s string
			return dc.FromPayloads(p, &s)
		},
		"Codec().Encode": func(dc DataConverter) error {
			_, err := dc.(PayloadCodecProvider).Codec().Encode([]*commonpb.Payload{{Data: []byte("v")}})
			return err
		},
		"Codec().Decode": func(dc DataConverter) error {
			_, err := dc.(PayloadCodecProvider).Codec().Decode([]*commonpb.Payload{{Data: []byte("v")}})
			return err
		},
	}
	for name, convert := range conversions {
		t.Run(name, func(t *testing.T) {
			for _, codecErr := range []error{request, fmt.Errorf("decrypting: %w", request)} {
				err := convert(NewCodecDataConverter(GetDefaultDataConverter(), refusingCodec{codecErr}))
				var got *WorkflowTaskFailureError
				if !codecfail.Has(err) || !errors.As(err, &got) || !errors.Is(err, cause) {
					t.Errorf("codec error %q: %v is not a marked request wrapping the cause", codecErr, err)
				}
			}
			if err := convert(NewCodecDataConverter(GetDefaultDataConverter(), refusingCodec{cause})); err == nil || codecfail.Has(err) {
				t.Errorf("a codec error without the request: %v, marked %v", err, codecfail.Has(err))
			}
		})
	}
	if codecfail.Has(request) {
		t.Error("a request made outside a codec is marked")
	}
}
