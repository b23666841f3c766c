package compat

import (
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	official "go.temporal.io/sdk/converter"
	"google.golang.org/protobuf/proto"

	ours "github.com/durable-go/sdk/converter"
)

type address struct {
	Street string `json:"street"`
	Zip    *int   `json:"zip,omitempty"`
}

type customer struct {
	Name      string            `json:"name"`
	Age       int               `json:"age"`
	Addresses []address         `json:"addresses"`
	Labels    map[string]string `json:"labels,omitempty"`
	Joined    time.Time         `json:"joined"`
	private   int               // never encoded by either SDK
}

func zip(n int) *int { return &n }

// sampleValues covers every kind of value the default converters handle.
func sampleValues() map[string]any {
	when := time.Date(2025, 3, 4, 5, 6, 7, 890, time.FixedZone("CET", 3600))
	return map[string]any{
		"nil":                nil,
		"nil struct pointer": (*customer)(nil),
		"nil proto":          (*commonpb.WorkflowType)(nil),
		"bytes":              []byte{0, 1, 2, 0xff},
		"empty bytes":        []byte{},
		"string":             "plain",
		"unicode and html":   "héllo <b>&</b> \u2028 \x00",
		"empty string":       "",
		"int":                42,
		"negative int64":     int64(-1 << 60),
		"uint8":              uint8(200),
		"float64":            3.141592653589793,
		"float32":            float32(0.1),
		"large float":        1e21,
		"bool":               true,
		"struct":             customer{Name: "Ann", Age: 31, Addresses: []address{{Street: "Main", Zip: zip(1234)}}, Joined: when, private: 9},
		"struct pointer":     &customer{Name: "Bob", Labels: map[string]string{"z": "1", "a": "2"}},
		"map":                map[string]int{"b": 2, "a": 1, "c": 3},
		"nested map":         map[string]any{"list": []any{1.0, "two", nil}, "obj": map[string]any{"k": true}},
		"slice":              []string{"x", "y"},
		"empty slice":        []int{},
		"nil slice":          []int(nil),
		"time":               when,
		"utc time":           time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC),
		"proto":              &commonpb.WorkflowExecution{WorkflowId: "wf-1", RunId: "run-1"},
		"nested proto":       &failurepb.Failure{Message: "m", Cause: &failurepb.Failure{Message: "c"}, FailureInfo: &failurepb.Failure_TimeoutFailureInfo{TimeoutFailureInfo: &failurepb.TimeoutFailureInfo{TimeoutType: enumspb.TIMEOUT_TYPE_HEARTBEAT}}},
		"proto with map":     &commonpb.Memo{Fields: map[string]*commonpb.Payload{"only": {Data: []byte("x")}}},
	}
}

func TestDefaultConvertersWriteIdenticalPayloads(t *testing.T) {
	for name, value := range sampleValues() {
		t.Run(name, func(t *testing.T) {
			mine, err := ours.GetDefaultDataConverter().ToPayload(value)
			if err != nil {
				t.Fatalf("ours: %v", err)
			}
			theirs, err := official.GetDefaultDataConverter().ToPayload(value)
			if err != nil {
				t.Fatalf("official: %v", err)
			}
			if !proto.Equal(mine, theirs) {
				t.Errorf("payloads differ:\n ours     %v\n official %v", mine, theirs)
			}
			if a, b := ours.GetDefaultDataConverter().ToString(mine), official.GetDefaultDataConverter().ToString(theirs); a != b {
				t.Errorf("ToString differs: %q vs %q", a, b)
			}
		})
	}
}

func TestDefaultConvertersReadEachOther(t *testing.T) {
	for name, value := range sampleValues() {
		if value == nil {
			continue // no type to decode into; covered by the typed nils
		}
		t.Run(name, func(t *testing.T) {
			typ := reflect.TypeOf(value)
			fromOfficial, _ := official.GetDefaultDataConverter().ToPayload(value)
			fromOurs, _ := ours.GetDefaultDataConverter().ToPayload(value)

			byOurs := reflect.New(typ)
			if err := ours.GetDefaultDataConverter().FromPayload(fromOfficial, byOurs.Interface()); err != nil {
				t.Fatalf("ours reading official: %v", err)
			}
			byOfficial := reflect.New(typ)
			if err := official.GetDefaultDataConverter().FromPayload(fromOurs, byOfficial.Interface()); err != nil {
				t.Fatalf("official reading ours: %v", err)
			}
			if !sameValue(byOurs.Elem().Interface(), byOfficial.Elem().Interface()) {
				t.Errorf("decoded values differ:\n ours     %#v\n official %#v", byOurs.Elem().Interface(), byOfficial.Elem().Interface())
			}
		})
	}
}

func sameValue(a, b any) bool {
	if ta, ok := a.(time.Time); ok {
		return ta.Equal(b.(time.Time))
	}
	if ma, ok := a.(proto.Message); ok {
		return proto.Equal(ma, b.(proto.Message))
	}
	return reflect.DeepEqual(a, b)
}

func TestBinaryProtoPayloads(t *testing.T) {
	msg := &failurepb.Failure{Message: "m", Source: "s", Cause: &failurepb.Failure{StackTrace: "st"}}
	mine, err := ours.NewProtoPayloadConverter().ToPayload(msg)
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := official.NewProtoPayloadConverter().ToPayload(msg)
	if err != nil {
		t.Fatal(err)
	}
	if !proto.Equal(mine, theirs) {
		t.Errorf("binary/protobuf differs:\n ours     %v\n official %v", mine, theirs)
	}
	var a, b *failurepb.Failure
	if err := ours.GetDefaultDataConverter().FromPayload(theirs, &a); err != nil || !proto.Equal(a, msg) {
		t.Errorf("ours reading official binary: %v, %v", a, err)
	}
	if err := official.GetDefaultDataConverter().FromPayload(mine, &b); err != nil || !proto.Equal(b, msg) {
		t.Errorf("official reading our binary: %v, %v", b, err)
	}
	// The options that change the encoding agree too.
	for _, opts := range []struct {
		o ours.ProtoJSONPayloadConverterOptions
		t official.ProtoJSONPayloadConverterOptions
	}{
		{ours.ProtoJSONPayloadConverterOptions{ExcludeProtobufMessageTypes: true}, official.ProtoJSONPayloadConverterOptions{ExcludeProtobufMessageTypes: true}},
		{ours.ProtoJSONPayloadConverterOptions{UseProtoNames: true, UseEnumNumbers: true, EmitUnpopulated: true}, official.ProtoJSONPayloadConverterOptions{UseProtoNames: true, UseEnumNumbers: true, EmitUnpopulated: true}},
	} {
		x, _ := ours.NewProtoJSONPayloadConverterWithOptions(opts.o).ToPayload(msg)
		y, _ := official.NewProtoJSONPayloadConverterWithOptions(opts.t).ToPayload(msg)
		if !proto.Equal(x, y) {
			t.Errorf("json/protobuf with %+v differs:\n ours     %v\n official %v", opts.o, x, y)
		}
	}
}

func TestPayloadLists(t *testing.T) {
	args := []any{"a", 1, []byte("b"), &commonpb.WorkflowType{Name: "t"}, nil}
	mine, err := ours.GetDefaultDataConverter().ToPayloads(args...)
	if err != nil {
		t.Fatal(err)
	}
	theirs, _ := official.GetDefaultDataConverter().ToPayloads(args...)
	if !proto.Equal(mine, theirs) {
		t.Errorf("payload lists differ")
	}
	if got, want := ours.GetDefaultDataConverter().ToStrings(mine), official.GetDefaultDataConverter().ToStrings(theirs); !reflect.DeepEqual(got, want) {
		t.Errorf("ToStrings: %q vs %q", got, want)
	}
}

func TestZlibCodecsAgree(t *testing.T) {
	payload, _ := ours.GetDefaultDataConverter().ToPayload(strings.Repeat("compress me ", 100))
	in := []*commonpb.Payload{payload}
	for _, always := range []bool{false, true} {
		mine, err := ours.NewZlibCodec(ours.ZlibCodecOptions{AlwaysEncode: always}).Encode(in)
		if err != nil {
			t.Fatal(err)
		}
		theirs, _ := official.NewZlibCodec(official.ZlibCodecOptions{AlwaysEncode: always}).Encode(in)
		if !proto.Equal(mine[0], theirs[0]) {
			t.Errorf("zlib (always=%v) differs", always)
		}
		back, err := official.NewZlibCodec(official.ZlibCodecOptions{}).Decode(mine)
		if err != nil || !proto.Equal(back[0], payload) {
			t.Errorf("official zlib reading ours: %v", err)
		}
	}
}

// TestCodecServersInteroperate runs each SDK's remote codec against the
// other's codec HTTP handler.
func TestCodecServersInteroperate(t *testing.T) {
	ourServer := httptest.NewServer(ours.NewPayloadCodecHTTPHandler(ours.NewZlibCodec(ours.ZlibCodecOptions{AlwaysEncode: true})))
	defer ourServer.Close()
	theirServer := httptest.NewServer(official.NewPayloadCodecHTTPHandler(official.NewZlibCodec(official.ZlibCodecOptions{AlwaysEncode: true})))
	defer theirServer.Close()

	payload, _ := ours.GetDefaultDataConverter().ToPayload(customer{Name: "remote"})
	in := []*commonpb.Payload{payload, {Metadata: map[string][]byte{"encoding": []byte("binary/null")}}}
	clients := map[string]interface {
		Encode([]*commonpb.Payload) ([]*commonpb.Payload, error)
		Decode([]*commonpb.Payload) ([]*commonpb.Payload, error)
	}{
		"official client, our server": official.NewRemotePayloadCodec(official.RemotePayloadCodecOptions{Endpoint: ourServer.URL}),
		"our client, official server": ours.NewRemotePayloadCodec(ours.RemotePayloadCodecOptions{Endpoint: theirServer.URL}),
	}
	for name, client := range clients {
		t.Run(name, func(t *testing.T) {
			encoded, err := client.Encode(in)
			if err != nil {
				t.Fatal(err)
			}
			if string(encoded[0].Metadata["encoding"]) != "binary/zlib" {
				t.Errorf("not encoded: %v", encoded[0].Metadata)
			}
			decoded, err := client.Decode(encoded)
			if err != nil || !proto.Equal(decoded[0], in[0]) || !proto.Equal(decoded[1], in[1]) {
				t.Errorf("decoded = %v, %v", decoded, err)
			}
		})
	}
}

func TestEncodedFailureAttributesAgree(t *testing.T) {
	a := &failurepb.Failure{Message: "secret <msg>", StackTrace: "at x"}
	b := proto.Clone(a).(*failurepb.Failure)
	if err := ours.EncodeCommonFailureAttributes(ours.GetDefaultDataConverter(), a); err != nil {
		t.Fatal(err)
	}
	if err := official.EncodeCommonFailureAttributes(official.GetDefaultDataConverter(), b); err != nil {
		t.Fatal(err)
	}
	if !proto.Equal(a, b) {
		t.Errorf("encoded attributes differ:\n ours     %v\n official %v", a, b)
	}
	official.DecodeCommonFailureAttributes(official.GetDefaultDataConverter(), a)
	if a.Message != "secret <msg>" || a.StackTrace != "at x" {
		t.Errorf("official decoding ours: %v", a)
	}
}
