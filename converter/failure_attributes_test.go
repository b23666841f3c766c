package converter

import (
	"errors"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	failurepb "go.temporal.io/api/failure/v1"
)

func TestCommonFailureAttributesRoundTrip(t *testing.T) {
	dc := GetDefaultDataConverter()
	f := &failurepb.Failure{Message: "boom", StackTrace: "at main()", Source: "GoSDK"}
	if err := EncodeCommonFailureAttributes(dc, f); err != nil {
		t.Fatal(err)
	}
	if f.Message != "Encoded failure" || f.StackTrace != "" {
		t.Errorf("clear attributes left: %q %q", f.Message, f.StackTrace)
	}
	if got := string(f.EncodedAttributes.GetData()); got != `{"message":"boom","stack_trace":"at main()"}` {
		t.Errorf("encoded attributes = %s", got)
	}
	DecodeCommonFailureAttributes(dc, f)
	if f.Message != "boom" || f.StackTrace != "at main()" {
		t.Errorf("decoded = %q %q", f.Message, f.StackTrace)
	}
}

func TestDecodeCommonFailureAttributesLeavesUnreadableAlone(t *testing.T) {
	f := &failurepb.Failure{Message: "m", EncodedAttributes: newPayload([]byte("{"), MetadataEncodingJSON)}
	DecodeCommonFailureAttributes(GetDefaultDataConverter(), f)
	if f.Message != "m" {
		t.Errorf("message = %q", f.Message)
	}
	plain := &failurepb.Failure{Message: "m"}
	DecodeCommonFailureAttributes(GetDefaultDataConverter(), plain)
	if plain.Message != "m" {
		t.Errorf("message = %q", plain.Message)
	}
}

type refusingConverter struct{ DataConverter }

func (refusingConverter) ToPayload(any) (*commonpb.Payload, error) { return nil, errCodec }

func TestEncodeCommonFailureAttributesError(t *testing.T) {
	f := &failurepb.Failure{Message: "m", StackTrace: "s"}
	if err := EncodeCommonFailureAttributes(refusingConverter{}, f); !errors.Is(err, errCodec) {
		t.Errorf("error = %v", err)
	}
	if f.Message != "m" || f.StackTrace != "s" || f.EncodedAttributes != nil {
		t.Errorf("failure changed on error: %v", f)
	}
}

type awareFailureConverter struct {
	FailureConverter
	ctx SerializationContext
}

func (a awareFailureConverter) WithSerializationContext(ctx SerializationContext) FailureConverter {
	return awareFailureConverter{ctx: ctx}
}

func TestWithFailureConverterSerializationContext(t *testing.T) {
	ctx := ActivitySerializationContext{ActivityType: "A"}
	got := WithFailureConverterSerializationContext(awareFailureConverter{}, ctx)
	if got.(awareFailureConverter).ctx != ctx {
		t.Errorf("context not passed: %v", got)
	}
	var plain FailureConverter = struct{ FailureConverter }{}
	if WithFailureConverterSerializationContext(plain, ctx) != plain {
		t.Error("non-aware converter replaced")
	}
	var _ SerializationContext = NexusSerializationContext{}
}
