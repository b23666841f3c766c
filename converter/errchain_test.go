package converter_test

import (
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/converter"
)

// loopingError's Unwrap returns itself.
type loopingError struct{}

func (e *loopingError) Error() string { return "looping" }
func (e *loopingError) Unwrap() error { return e }

// loopingConverter decodes nothing, failing with a looping error.
type loopingConverter struct{ converter.PayloadConverter }

func (loopingConverter) FromPayload(*commonpb.Payload, any) error { return &loopingError{} }

// A payload converter of the user's that fails with an error whose chain
// never ends gets its decode error back: the composite converter looks
// for its own error a few links down, where errors.As spun for ever.
func TestAConverterErrorWithACyclicChainIsWrappedNotWalked(t *testing.T) {
	dc := converter.NewCompositeDataConverter(loopingConverter{converter.NewJSONPayloadConverter()})
	p, err := converter.GetDefaultDataConverter().ToPayload("x")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		var s string
		done <- dc.FromPayload(p, &s)
	}()
	select {
	case err := <-done:
		// Not errors.Is: the error wraps the looping one.
		if err == nil || !strings.HasPrefix(err.Error(), "unable to decode") || !strings.Contains(err.Error(), "looping") {
			t.Errorf("got %v, want a decode error that names the converter's", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("FromPayload did not return")
	}
}
