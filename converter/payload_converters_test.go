package converter

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	"google.golang.org/protobuf/proto"
)

type testStruct struct {
	Name  string
	Count int
	Tags  []string `json:"tags,omitempty"`
}

// encodingOf returns the encoding metadata of p.
func encodingOf(p *commonpb.Payload) string { return string(p.GetMetadata()[MetadataEncoding]) }

func TestDefaultConverterEncodesEachKindWithItsEncoding(t *testing.T) {
	when := time.Date(2024, 5, 6, 7, 8, 9, 123456789, time.UTC)
	tests := []struct {
		name        string
		value       any
		encoding    string
		data        string
		messageType string
	}{
		{"nil", nil, MetadataEncodingNil, "", ""},
		{"nil pointer", (*testStruct)(nil), MetadataEncodingNil, "", ""},
		{"nil proto", (*commonpb.WorkflowType)(nil), MetadataEncodingNil, "", ""},
		{"bytes", []byte("raw\x00bytes"), MetadataEncodingBinary, "raw\x00bytes", ""},
		{"empty bytes", []byte{}, MetadataEncodingBinary, "", ""},
		{"string", "hello", MetadataEncodingJSON, `"hello"`, ""},
		{"html is escaped like json.Marshal", "<a&b>", MetadataEncodingJSON, `"\u003ca\u0026b\u003e"`, ""},
		{"int", 42, MetadataEncodingJSON, `42`, ""},
		{"negative int64", int64(-7), MetadataEncodingJSON, `-7`, ""},
		{"float", 1.5, MetadataEncodingJSON, `1.5`, ""},
		{"bool", true, MetadataEncodingJSON, `true`, ""},
		{"struct", testStruct{Name: "a", Count: 2}, MetadataEncodingJSON, `{"Name":"a","Count":2}`, ""},
		{"struct pointer", &testStruct{Name: "a", Tags: []string{"x"}}, MetadataEncodingJSON, `{"Name":"a","Count":0,"tags":["x"]}`, ""},
		{"map sorted keys", map[string]int{"b": 2, "a": 1}, MetadataEncodingJSON, `{"a":1,"b":2}`, ""},
		{"slice", []int{1, 2, 3}, MetadataEncodingJSON, `[1,2,3]`, ""},
		{"time", when, MetadataEncodingJSON, `"2024-05-06T07:08:09.123456789Z"`, ""},
		{"proto message", &commonpb.WorkflowType{Name: "wf"}, MetadataEncodingProtoJSON, `{"name":"wf"}`, "temporal.api.common.v1.WorkflowType"},
	}
	dc := GetDefaultDataConverter()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := dc.ToPayload(tt.value)
			if err != nil {
				t.Fatalf("ToPayload: %v", err)
			}
			if got := encodingOf(p); got != tt.encoding {
				t.Errorf("encoding = %q, want %q", got, tt.encoding)
			}
			data := p.GetData()
			if tt.encoding == MetadataEncodingProtoJSON {
				data = compactJSON(t, data) // protojson may vary its spacing
			}
			if string(data) != tt.data {
				t.Errorf("data = %q, want %q", data, tt.data)
			}
			if got := string(p.GetMetadata()[MetadataMessageType]); got != tt.messageType {
				t.Errorf("messageType = %q, want %q", got, tt.messageType)
			}
			wantKeys := 1
			if tt.messageType != "" {
				wantKeys = 2
			}
			if len(p.GetMetadata()) != wantKeys {
				t.Errorf("metadata = %v, want %d keys", p.GetMetadata(), wantKeys)
			}
		})
	}
}

func TestDefaultConverterRoundTrips(t *testing.T) {
	when := time.Date(2024, 5, 6, 7, 8, 9, 123456789, time.FixedZone("X", 3600))
	tests := []struct {
		name  string
		value any
	}{
		{"bytes", []byte{0, 1, 2, 255}},
		{"string", "héllo\n"},
		{"int", 42},
		{"uint64 max", uint64(1<<64 - 1)},
		{"float", -3.25},
		{"bool", false},
		{"struct", testStruct{Name: "n", Count: 9, Tags: []string{"a", "b"}}},
		{"map", map[string][]int{"x": {1}, "y": nil}},
		{"slice of structs", []testStruct{{Name: "a"}, {Name: "b"}}},
		{"time", when},
		{"pointer to struct", &testStruct{Name: "p"}},
		{"proto", &commonpb.WorkflowExecution{WorkflowId: "id", RunId: "run"}},
	}
	dc := GetDefaultDataConverter()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := dc.ToPayload(tt.value)
			if err != nil {
				t.Fatalf("ToPayload: %v", err)
			}
			target := reflect.New(reflect.TypeOf(tt.value))
			if err := dc.FromPayload(p, target.Interface()); err != nil {
				t.Fatalf("FromPayload: %v", err)
			}
			got := target.Elem().Interface()
			if !valuesEqual(got, tt.value) {
				t.Errorf("round trip = %#v, want %#v", got, tt.value)
			}
		})
	}
}

func valuesEqual(a, b any) bool {
	if ta, ok := a.(time.Time); ok {
		return ta.Equal(b.(time.Time))
	}
	if ma, ok := a.(proto.Message); ok {
		return proto.Equal(ma, b.(proto.Message))
	}
	return reflect.DeepEqual(a, b)
}

func compactJSON(t *testing.T, data []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	// protojson output has no insignificant spaces inside strings, so
	// dropping spaces outside them is enough for these tests.
	inString := false
	for i, c := range data {
		if c == '"' && (i == 0 || data[i-1] != '\\') {
			inString = !inString
		}
		if !inString && (c == ' ' || c == '\n') {
			continue
		}
		out.WriteByte(c)
	}
	return out.Bytes()
}

func TestNilConverter(t *testing.T) {
	c := NewNilPayloadConverter()
	if p, err := c.ToPayload(3); p != nil || err != nil {
		t.Errorf("ToPayload(3) = %v, %v; want nil, nil", p, err)
	}
	p, err := c.ToPayload(nil)
	if err != nil || p.GetData() != nil || encodingOf(p) != MetadataEncodingNil {
		t.Fatalf("ToPayload(nil) = %v, %v", p, err)
	}
	s := &testStruct{Name: "x"}
	if err := c.FromPayload(p, &s); err != nil || s != nil {
		t.Errorf("FromPayload into **struct: %v, %v", s, err)
	}
	n := 5
	if err := c.FromPayload(p, &n); err != nil || n != 0 {
		t.Errorf("FromPayload into *int: %v, %v", n, err)
	}
	if err := c.FromPayload(p, n); !errors.Is(err, ErrValuePtrIsNotPointer) {
		t.Errorf("FromPayload into int: %v, want ErrValuePtrIsNotPointer", err)
	}
	if got := c.ToString(p); got != "nil" {
		t.Errorf("ToString = %q", got)
	}
}

func TestByteSliceConverter(t *testing.T) {
	type myBytes []byte
	c := NewByteSlicePayloadConverter()
	if p, err := c.ToPayload("text"); p != nil || err != nil {
		t.Errorf("ToPayload(string) = %v, %v; want nil, nil", p, err)
	}
	p, _ := c.ToPayload([]byte("abc"))
	var b []byte
	if err := c.FromPayload(p, &b); err != nil || string(b) != "abc" {
		t.Errorf("into *[]byte: %q, %v", b, err)
	}
	var mb myBytes
	if err := c.FromPayload(p, &mb); err != nil || string(mb) != "abc" {
		t.Errorf("into *myBytes: %q, %v", mb, err)
	}
	var anything any
	if err := c.FromPayload(p, &anything); err != nil || string(anything.([]byte)) != "abc" {
		t.Errorf("into *any: %v, %v", anything, err)
	}
	var notBytes error
	err := c.FromPayload(p, &notBytes)
	if !errors.Is(err, ErrTypeIsNotByteSlice) || !strings.Contains(err.Error(), `unable to decode payload with encoding "binary/plain" into error`) {
		t.Errorf("into *error: %v", err)
	}
	var s string
	if err := c.FromPayload(p, &s); !errors.Is(err, ErrTypeIsNotByteSlice) {
		t.Errorf("into *string: %v", err)
	}
	if got := c.ToString(p); got != "YWJj" {
		t.Errorf("ToString = %q, want unpadded base64", got)
	}
}

func TestJSONConverter(t *testing.T) {
	c := NewJSONPayloadConverter()
	p, err := c.ToPayload(testStruct{Name: "x", Count: 1})
	if err != nil {
		t.Fatal(err)
	}
	if c.ToString(p) != `{"Name":"x","Count":1}` {
		t.Errorf("ToString = %q", c.ToString(p))
	}
	var m map[string]any
	if err := c.FromPayload(p, &m); err != nil || m["Name"] != "x" || m["Count"] != float64(1) {
		t.Errorf("into map: %v, %v", m, err)
	}
	_, err = c.ToPayload(make(chan int))
	if !errors.Is(err, ErrUnableToEncode) || !strings.Contains(err.Error(), "chan int") {
		t.Errorf("ToPayload(chan) error = %v", err)
	}
	var n int
	err = c.FromPayload(p, &n)
	if !errors.Is(err, ErrUnableToDecode) {
		t.Errorf("want ErrUnableToDecode, got %v", err)
	}
	want := `unable to decode payload with encoding "json/plain" into int: json: cannot unmarshal`
	if err == nil || !strings.HasPrefix(err.Error(), want) || strings.Count(err.Error(), "decode") != 1 {
		t.Errorf("error = %v\nwant prefix %q, and decode said once", err, want)
	}
	var typeErr *json.UnmarshalTypeError
	if !errors.As(err, &typeErr) {
		t.Errorf("error = %v: json's error is not there for errors.As", err)
	}
}

func TestProtoJSONConverter(t *testing.T) {
	c := NewProtoJSONPayloadConverter()
	if p, err := c.ToPayload(testStruct{}); p != nil || err != nil {
		t.Errorf("non-proto: %v, %v", p, err)
	}
	msg := &commonpb.WorkflowExecution{WorkflowId: "w", RunId: "r"}
	p, err := c.ToPayload(msg)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(p.Metadata[MetadataMessageType]); got != "temporal.api.common.v1.WorkflowExecution" {
		t.Errorf("messageType = %q", got)
	}
	if got := string(compactJSON(t, p.Data)); got != `{"workflowId":"w","runId":"r"}` {
		t.Errorf("data = %s", got)
	}
	// Both target shapes: *Msg and **Msg (nil, so allocated).
	var value commonpb.WorkflowExecution
	if err := c.FromPayload(p, &value); err != nil || !proto.Equal(&value, msg) {
		t.Errorf("into *Msg: %v, %v", &value, err)
	}
	var ptr *commonpb.WorkflowExecution
	if err := c.FromPayload(p, &ptr); err != nil || !proto.Equal(ptr, msg) {
		t.Errorf("into **Msg: %v, %v", ptr, err)
	}
	var iface proto.Message
	if err := c.FromPayload(p, &iface); !errors.Is(err, ErrValuePtrMustConcreteType) {
		t.Errorf("into *proto.Message: %v", err)
	}
	var notProto testStruct
	if err := c.FromPayload(p, &notProto); !errors.Is(err, ErrTypeNotImplementProtoMessage) {
		t.Errorf("into *struct: %v", err)
	}
	var notProtoPtr *int
	if err := c.FromPayload(p, &notProtoPtr); !errors.Is(err, ErrTypeNotImplementProtoMessage) {
		t.Errorf("into **int: %v", err)
	}
	// JSON null, written by this converter for nil when used on its own.
	null, _ := c.ToPayload(nil)
	if string(null.Data) != "null" || encodingOf(null) != MetadataEncodingProtoJSON {
		t.Errorf("nil payload = %v", null)
	}
	ptr = msg
	if err := c.FromPayload(null, &ptr); err != nil || ptr != nil {
		t.Errorf("null into **Msg: %v, %v", ptr, err)
	}
	// Unknown fields.
	unknown := newPayload([]byte(`{"workflowId":"w","extra":1}`), MetadataEncodingProtoJSON)
	if err := c.FromPayload(unknown, &ptr); !errors.Is(err, ErrUnableToDecode) {
		t.Errorf("unknown field accepted by default: %v", err)
	}
	lenient := NewProtoJSONPayloadConverterWithOptions(ProtoJSONPayloadConverterOptions{AllowUnknownFields: true})
	if err := lenient.FromPayload(unknown, &ptr); err != nil || ptr.GetWorkflowId() != "w" {
		t.Errorf("AllowUnknownFields: %v, %v", ptr, err)
	}
}

func TestProtoJSONConverterOptions(t *testing.T) {
	msg := &commonpb.WorkflowExecution{WorkflowId: "w"}
	c := NewProtoJSONPayloadConverterWithOptions(ProtoJSONPayloadConverterOptions{
		ExcludeProtobufMessageTypes: true, UseProtoNames: true, EmitUnpopulated: true,
	})
	if !c.ExcludeProtobufMessageTypes() {
		t.Error("ExcludeProtobufMessageTypes() = false")
	}
	p, err := c.ToPayload(msg)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.Metadata[MetadataMessageType]; ok {
		t.Error("messageType present despite ExcludeProtobufMessageTypes")
	}
	if got := string(compactJSON(t, p.Data)); got != `{"workflow_id":"w","run_id":""}` {
		t.Errorf("data = %s", got)
	}
}

func TestProtoBinaryConverter(t *testing.T) {
	c := NewProtoPayloadConverter()
	msg := &commonpb.WorkflowType{Name: "wf"}
	p, err := c.ToPayload(msg)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := proto.Marshal(msg)
	if !bytes.Equal(p.Data, want) || encodingOf(p) != MetadataEncodingProto ||
		string(p.Metadata[MetadataMessageType]) != "temporal.api.common.v1.WorkflowType" {
		t.Errorf("payload = %v", p)
	}
	var got *commonpb.WorkflowType
	if err := c.FromPayload(p, &got); err != nil || got.GetName() != "wf" {
		t.Errorf("round trip: %v, %v", got, err)
	}
	// A message passed by value is accepted, as other Go SDKs do.
	byValue, err := c.ToPayload(commonpb.WorkflowType{Name: "wf"})
	if err != nil || !bytes.Equal(byValue.GetData(), want) {
		t.Errorf("by value: %v, %v", byValue, err)
	}
	garbage := newPayload([]byte{0xff, 0xff, 0xff}, MetadataEncodingProto)
	err = c.FromPayload(garbage, &got)
	if !errors.Is(err, ErrUnableToDecode) || !strings.Contains(err.Error(), `"binary/protobuf" into *common.WorkflowType`) {
		t.Errorf("garbage: %v", err)
	}
	if c.ToString(p) == "" {
		t.Error("empty ToString")
	}
	excl := NewProtoPayloadConverterWithOptions(ProtoPayloadConverterOptions{ExcludeProtobufMessageTypes: true})
	if p, _ := excl.ToPayload(msg); len(p.Metadata) != 1 {
		t.Errorf("metadata = %v", p.Metadata)
	}
}

func TestCompositeDecodesByEncoding(t *testing.T) {
	dc := GetDefaultDataConverter()
	msg := &commonpb.WorkflowType{Name: "wf"}
	binary, _ := NewProtoPayloadConverter().ToPayload(msg)
	var got *commonpb.WorkflowType
	if err := dc.FromPayload(binary, &got); err != nil || got.GetName() != "wf" {
		t.Errorf("binary/protobuf via default: %v, %v", got, err)
	}

	var n int
	err := dc.FromPayload(newPayload([]byte("1"), "text/unknown"), &n)
	if !errors.Is(err, ErrEncodingIsNotSupported) || err.Error() != `unable to decode payload with encoding "text/unknown" into int: payload encoding is not supported` {
		t.Errorf("unknown encoding: %v", err)
	}
	err = dc.FromPayload(&commonpb.Payload{Data: []byte("1")}, &n)
	if !errors.Is(err, ErrMetadataIsNotSet) || !strings.Contains(err.Error(), "into int") {
		t.Errorf("no metadata: %v", err)
	}
	err = dc.FromPayload(&commonpb.Payload{Metadata: map[string][]byte{"x": nil}}, &n)
	if !errors.Is(err, ErrEncodingIsNotSet) {
		t.Errorf("no encoding: %v", err)
	}
	if err := dc.FromPayload(nil, &n); err != nil {
		t.Errorf("nil payload: %v", err)
	}
}

func TestCompositeRawValue(t *testing.T) {
	dc := GetDefaultDataConverter()
	raw := newPayload([]byte("anything"), "custom/enc")
	p, err := dc.ToPayload(NewRawValue(raw))
	if err != nil || p != raw {
		t.Errorf("ToPayload(RawValue) = %v, %v", p, err)
	}
	ps, err := dc.ToPayloads(NewRawValue(raw), 1)
	if err != nil || ps.Payloads[0] != raw || encodingOf(ps.Payloads[1]) != MetadataEncodingJSON {
		t.Errorf("ToPayloads = %v, %v", ps, err)
	}
	var rv RawValue
	if err := dc.FromPayload(raw, &rv); err != nil || rv.Payload() != raw {
		t.Errorf("FromPayload(*RawValue) = %v, %v", rv, err)
	}
	var n int
	rv = RawValue{}
	if err := dc.FromPayloads(ps, &rv, &n); err != nil || rv.Payload() != raw || n != 1 {
		t.Errorf("FromPayloads = %v %v, %v", rv, n, err)
	}
	if _, err := (RawValue{}).MarshalJSON(); err == nil {
		t.Error("RawValue marshals to JSON")
	}
	if err := rv.UnmarshalJSON([]byte("1")); err == nil {
		t.Error("RawValue unmarshals from JSON")
	}
}

func TestCompositeLists(t *testing.T) {
	dc := GetDefaultDataConverter()
	if ps, err := dc.ToPayloads(); ps != nil || err != nil {
		t.Errorf("ToPayloads() = %v, %v", ps, err)
	}
	ps, err := dc.ToPayloads("a", 2, []byte("c"))
	if err != nil || len(ps.Payloads) != 3 {
		t.Fatalf("ToPayloads = %v, %v", ps, err)
	}
	var s string
	var n int
	if err := dc.FromPayloads(ps, &s, &n); err != nil || s != "a" || n != 2 {
		t.Errorf("fewer pointers: %q %d %v", s, n, err)
	}
	var extra string
	two, _ := dc.ToPayloads("x")
	if err := dc.FromPayloads(two, &s, &extra); err != nil || s != "x" || extra != "" {
		t.Errorf("more pointers: %q %q %v", s, extra, err)
	}
	if err := dc.FromPayloads(ps, &s, &s); err == nil || !strings.HasPrefix(err.Error(), "payload item 1: ") {
		t.Errorf("bad item error = %v", err)
	}
	if _, err := dc.ToPayloads(1, make(chan int)); err == nil || !strings.HasPrefix(err.Error(), "values[1]: ") {
		t.Errorf("bad value error = %v", err)
	}
	if got := dc.ToStrings(ps); !reflect.DeepEqual(got, []string{`"a"`, "2", "Yw"}) {
		t.Errorf("ToStrings = %q", got)
	}
	if dc.ToStrings(nil) != nil || dc.ToString(nil) != "" {
		t.Error("nil ToString(s) not empty")
	}
	if got := dc.ToString(newPayload(nil, "x/y")); !strings.Contains(got, "not supported") {
		t.Errorf("ToString unknown = %q", got)
	}
}

func TestCompositeWithoutCatchAll(t *testing.T) {
	dc := NewCompositeDataConverter(NewNilPayloadConverter())
	if _, err := dc.ToPayload(1); !errors.Is(err, ErrUnableToFindConverter) {
		t.Errorf("error = %v", err)
	}
}

func TestGetPayloads(t *testing.T) {
	ps := &commonpb.Payloads{}
	if GetPayloads(valuesWithPayloads{ps}) != ps {
		t.Error("payloads not returned")
	}
	if GetPayloads(42) != nil {
		t.Error("payloads from a non-ValuesPayloads")
	}
}

type valuesWithPayloads struct{ p *commonpb.Payloads }

func (v valuesWithPayloads) Payloads() *commonpb.Payloads { return v.p }
