package memo

import (
	"errors"
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/converter"
)

// refusingConverter refuses every value, as a converter for some other
// kind of value does.
type refusingConverter struct{ converter.DataConverter }

func (refusingConverter) ToPayload(any) (*commonpb.Payload, error) {
	return nil, errors.New("refused")
}

// A value the memo's converter refuses is encoded by the default one, as
// go.temporal.io/sdk encodes it.
func TestAValueTheConverterRefusesFallsBackToTheDefaultConverter(t *testing.T) {
	encoded, err := Encode(refusingConverter{converter.GetDefaultDataConverter()}, map[string]any{"k": "v"})
	if err != nil {
		t.Fatal(err)
	}
	var got string
	if err := converter.GetDefaultDataConverter().FromPayload(encoded.GetFields()["k"], &got); err != nil || got != "v" {
		t.Fatalf("decoded %q, %v; want \"v\"", got, err)
	}
}

// A value neither converter takes is refused with its key.
func TestAValueNoConverterTakesIsRefusedWithItsKey(t *testing.T) {
	_, err := Encode(converter.GetDefaultDataConverter(), map[string]any{"m": func() {}})
	if err == nil || !containsAll(err.Error(), `memo "m"`, "func()") {
		t.Fatalf("got %v, want an error naming memo \"m\" and its type", err)
	}
}

func TestNoMemoIsNil(t *testing.T) {
	if encoded, err := Encode(converter.GetDefaultDataConverter(), nil); encoded != nil || err != nil {
		t.Fatalf("got %v, %v; want nil, nil", encoded, err)
	}
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}
