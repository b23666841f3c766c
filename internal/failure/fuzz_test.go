package failure

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	"google.golang.org/protobuf/proto"

	"github.com/durable-go/sdk/converter"
)

// FuzzFailureToError decodes arbitrary failure protos. Decoding must not
// panic and must give an error that encodes back to the same proto;
// decoding the details of any error in the chain may fail, but then the
// message names the payload encoding and the Go type asked for.
func FuzzFailureToError(f *testing.F) {
	fc := NewDefaultFailureConverter(DefaultFailureConverterOptions{})
	encoding := NewDefaultFailureConverter(DefaultFailureConverterOptions{EncodeCommonAttributes: true})
	for _, err := range []error{
		NewApplicationError("m", "T", "d", 1),
		NewCanceledError(detail{Reason: "r"}),
		NewTimeoutError("t", enumspb.TIMEOUT_TYPE_HEARTBEAT, errors.New("c"), 3),
		NewPanicError("p", "stack"),
		NewActivityError(1, 2, "i", "A", "a", 0, NewApplicationError("inner", "X", true)),
		NewChildWorkflowExecutionError("n", "w", "r", "C", 1, 2, 0, NewTerminatedError()),
		NewServerError("s", true, nil),
	} {
		for _, c := range []*DefaultFailureConverter{fc, encoding} {
			data, _ := proto.Marshal(c.ErrorToFailure(err))
			f.Add(data)
		}
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		var in failurepb.Failure
		if proto.Unmarshal(data, &in) != nil {
			return
		}
		err := fc.FailureToError(&in)
		if err == nil {
			t.Fatal("nil error for a non-nil failure")
		}
		if again := fc.ErrorToFailure(err); !proto.Equal(again, &in) {
			t.Fatalf("re-encoding is lossy:\n got %v\nwant %v", again, &in)
		}
		for cur := err; cur != nil; cur = errors.Unwrap(cur) {
			_ = cur.Error()
			checkDetails(t, cur)
		}
	})
}

// checkDetails decodes whatever details cur has into a few target types.
func checkDetails(t *testing.T, cur error) {
	targets := []func() (any, string){
		func() (any, string) { return new(string), "string" },
		func() (any, string) { return new(int), "int" },
		func() (any, string) { return new(detail), "failure.detail" },
	}
	var getters []func(...any) error
	switch e := cur.(type) {
	case *ApplicationError:
		getters = append(getters, e.Details)
	case *CanceledError:
		getters = append(getters, e.Details)
	case *TimeoutError:
		getters = append(getters, e.LastHeartbeatDetails)
	}
	for _, get := range getters {
		for _, target := range targets {
			ptr, typeName := target()
			err := get(ptr)
			if err == nil || errors.Is(err, ErrNoData) {
				continue
			}
			if !strings.Contains(err.Error(), "unable to decode payload with encoding ") || !strings.Contains(err.Error(), fmt.Sprintf(" into %s: ", typeName)) {
				t.Fatalf("details error does not name encoding and type: %v", err)
			}
		}
	}
}

var _ converter.FailureConverter = (*DefaultFailureConverter)(nil)
