package converter

import (
	"fmt"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	"google.golang.org/protobuf/proto"
)

// fuzzTargets are the Go types the decoding fuzzer asks for. Each returns a
// fresh pointer and the type name errors must mention.
var fuzzTargets = []func() (any, string){
	func() (any, string) { return new(int), "int" },
	func() (any, string) { return new(string), "string" },
	func() (any, string) { return new([]byte), "[]uint8" },
	func() (any, string) { return new(bool), "bool" },
	func() (any, string) { return new(float64), "float64" },
	func() (any, string) { return new(time.Time), "time.Time" },
	func() (any, string) { return new(testStruct), "converter.testStruct" },
	func() (any, string) { return new(*testStruct), "*converter.testStruct" },
	func() (any, string) { return new(map[string]any), "map[string]interface {}" },
	func() (any, string) { return new([]int), "[]int" },
	func() (any, string) { return new(any), "interface {}" },
	func() (any, string) { return new(error), "error" },
	func() (any, string) { return new(proto.Message), "protoreflect.ProtoMessage" },
	func() (any, string) { return new(commonpb.WorkflowType), "common.WorkflowType" },
	func() (any, string) { return new(*commonpb.WorkflowExecution), "*common.WorkflowExecution" },
	func() (any, string) { return 0, "int (not a pointer)" },
	func() (any, string) { return (*int)(nil), "int" },
	func() (any, string) { return nil, "<nil>" },
}

// FuzzFromPayload feeds arbitrary payloads (any encoding, any bytes, with or
// without metadata) to the default converter and to each payload converter,
// asking for each kind of target. Decoding may fail but must not panic, and
// a failure must name the encoding and the target type.
func FuzzFromPayload(f *testing.F) {
	for _, enc := range []string{
		MetadataEncodingNil, MetadataEncodingBinary, MetadataEncodingJSON,
		MetadataEncodingProtoJSON, MetadataEncodingProto, "binary/zlib", "", "weird\x00\"enc",
	} {
		for _, data := range []string{"", "null", "42", `"s"`, `{"name":"x"}`, "[1,2]", "\n\x03abc", "\xff\xfe", `{"Name":1}`} {
			f.Add(enc, []byte(data), uint8(len(data)), true)
		}
	}
	f.Add("json/plain", []byte("1"), uint8(0), false)
	dc := GetDefaultDataConverter()
	direct := []PayloadConverter{
		NewNilPayloadConverter(), NewByteSlicePayloadConverter(), NewJSONPayloadConverter(),
		NewProtoJSONPayloadConverter(), NewProtoPayloadConverter(),
	}
	f.Fuzz(func(t *testing.T, encoding string, data []byte, target uint8, withMetadata bool) {
		payload := &commonpb.Payload{Data: data}
		if withMetadata {
			payload.Metadata = map[string][]byte{MetadataEncoding: []byte(encoding)}
		} else {
			encoding = ""
		}
		ptr, typeName := fuzzTargets[int(target)%len(fuzzTargets)]()
		checkDecodeError(t, dc.FromPayload(payload, ptr), encoding, typeName)
		_ = dc.ToString(payload)
		for _, pc := range direct {
			ptr, typeName := fuzzTargets[int(target)%len(fuzzTargets)]()
			checkDecodeError(t, pc.FromPayload(payload, ptr), pc.Encoding(), typeName)
			_ = pc.ToString(payload)
		}
	})
}

func checkDecodeError(t *testing.T, err error, encoding, typeName string) {
	t.Helper()
	if err == nil {
		return
	}
	want := fmt.Sprintf("unable to decode payload with encoding %q into %s: ", encoding, typeName)
	if !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("error %q\ndoes not start with %q", err, want)
	}
}
