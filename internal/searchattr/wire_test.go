package searchattr

import (
	"reflect"
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/converter"
)

func TestEncodeWritesJSONWithTypeMetadata(t *testing.T) {
	encoded, err := Encode(fullAttributes())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct{ data, typ string }{
		"Text":    {`"some text"`, "Text"},
		"Keyword": {`"kw"`, "Keyword"},
		"Bool":    {`true`, "Bool"},
		"Int":     {`-42`, "Int"},
		"Float":   {`2.5`, "Double"},
		"Time":    {`"2024-01-02T03:04:05.000000006Z"`, "Datetime"},
		"List":    {`["a","b"]`, "KeywordList"},
	}
	if len(encoded.IndexedFields) != len(want) {
		t.Fatalf("fields = %v", encoded.IndexedFields)
	}
	for name, w := range want {
		p := encoded.IndexedFields[name]
		if string(p.Data) != w.data || string(p.Metadata["type"]) != w.typ ||
			string(p.Metadata[converter.MetadataEncoding]) != converter.MetadataEncodingJSON || len(p.Metadata) != 2 {
			t.Errorf("%s = %s %v", name, p.Data, p.Metadata)
		}
	}
}

func TestEncodeUnsetAndEmpty(t *testing.T) {
	encoded, err := Encode(NewSearchAttributes(intKey.ValueUnset()))
	if err != nil {
		t.Fatal(err)
	}
	p := encoded.IndexedFields["Int"]
	if p.Data != nil || len(p.Metadata) != 1 || string(p.Metadata[converter.MetadataEncoding]) != converter.MetadataEncodingNil {
		t.Errorf("unset = %v", p)
	}
	if empty, err := Encode(NewSearchAttributes()); empty != nil || err != nil {
		t.Errorf("empty = %v, %v", empty, err)
	}
}

func TestDecodeRoundTrip(t *testing.T) {
	encoded, _ := Encode(fullAttributes())
	// Untyped, removed and unknown-type attributes are skipped.
	encoded.IndexedFields["Untyped"] = &commonpb.Payload{
		Metadata: map[string][]byte{converter.MetadataEncoding: []byte(converter.MetadataEncodingJSON)}, Data: []byte(`"u"`),
	}
	encoded.IndexedFields["Removed"] = &commonpb.Payload{Metadata: map[string][]byte{
		converter.MetadataEncoding: []byte(converter.MetadataEncodingNil), "type": []byte("Int"),
	}}
	encoded.IndexedFields["Future"] = &commonpb.Payload{Metadata: map[string][]byte{"type": []byte("Vector")}, Data: []byte("[]")}
	decoded, err := Decode(encoded)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(decoded.GetUntypedValues(), fullAttributes().GetUntypedValues()) {
		t.Errorf("decoded = %v", decoded.GetUntypedValues())
	}
}

func TestDecodeAcceptsLongTypeNamesAndChangeVersion(t *testing.T) {
	json := []byte(converter.MetadataEncodingJSON)
	attrs := &commonpb.SearchAttributes{IndexedFields: map[string]*commonpb.Payload{
		"Long":                {Metadata: map[string][]byte{converter.MetadataEncoding: json, "type": []byte("INDEXED_VALUE_TYPE_INT")}, Data: []byte("7")},
		TemporalChangeVersion: {Metadata: map[string][]byte{converter.MetadataEncoding: json}, Data: []byte(`["change-1"]`)},
	}}
	decoded, err := Decode(attrs)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := decoded.GetInt64(NewSearchAttributeKeyInt64("Long")); !ok || v != 7 {
		t.Errorf("Long = %v %v", v, ok)
	}
	if v, ok := decoded.GetKeywordList(NewSearchAttributeKeyKeywordList(TemporalChangeVersion)); !ok || v[0] != "change-1" {
		t.Errorf("change version = %v %v", v, ok)
	}
	if empty, err := Decode(nil); err != nil || empty.Size() != 0 {
		t.Errorf("Decode(nil) = %v, %v", empty, err)
	}
}

func TestDecodeReportsBadValues(t *testing.T) {
	attrs := &commonpb.SearchAttributes{IndexedFields: map[string]*commonpb.Payload{
		"Bad": {Metadata: map[string][]byte{converter.MetadataEncoding: []byte(converter.MetadataEncodingJSON), "type": []byte("Int")}, Data: []byte(`"text"`)},
	}}
	_, err := Decode(attrs)
	if err == nil || !strings.Contains(err.Error(), `"Bad"`) || !strings.Contains(err.Error(), "into int64") {
		t.Errorf("error = %v", err)
	}
}

func TestEncodeUntypedAndForStart(t *testing.T) {
	passthrough := &commonpb.Payload{Data: []byte("as is")}
	untyped, err := EncodeUntyped(map[string]any{"A": 1, "B": passthrough, "C": nil})
	if err != nil {
		t.Fatal(err)
	}
	if untyped.IndexedFields["B"] != passthrough || string(untyped.IndexedFields["A"].Data) != "1" ||
		untyped.IndexedFields["A"].Metadata["type"] != nil {
		t.Errorf("untyped = %v", untyped)
	}
	if none, _ := EncodeUntyped(nil); none != nil {
		t.Error("nil map encoded")
	}

	start, err := EncodeForStart(map[string]any{"A": 1, "C": nil}, SearchAttributes{})
	if err != nil || len(start.IndexedFields) != 1 {
		t.Errorf("untyped start = %v, %v", start, err)
	}
	start, err = EncodeForStart(nil, NewSearchAttributes(intKey.ValueSet(1), boolKey.ValueUnset()))
	if err != nil || len(start.IndexedFields) != 1 || string(start.IndexedFields["Int"].Metadata["type"]) != "Int" {
		t.Errorf("typed start = %v, %v", start, err)
	}
	if only, err := EncodeForStart(nil, NewSearchAttributes(boolKey.ValueUnset())); only != nil || err != nil {
		t.Errorf("only unset = %v, %v", only, err)
	}
	if _, err := EncodeForStart(map[string]any{"A": 1}, fullAttributes()); err == nil {
		t.Error("both forms accepted")
	}
	if _, err := Encode(NewSearchAttributes(func(sa *SearchAttributes) { sa.put(intKey, make(chan int)) })); err == nil {
		t.Error("unencodable value accepted")
	}
}
