package testserver

import (
	"fmt"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
)

func jsonPayload(data string) *commonpb.Payload {
	return &commonpb.Payload{Metadata: map[string][]byte{"encoding": []byte("json/plain")}, Data: []byte(data)}
}

func TestDecodeSearchAttributeTakesWhatAServerTakes(t *testing.T) {
	due := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, c := range []struct {
		t    enumspb.IndexedValueType
		data string
		want string // the value decoded, %T:%v, or "error"
	}{
		{enumspb.INDEXED_VALUE_TYPE_KEYWORD, `"red"`, "string:red"},
		{enumspb.INDEXED_VALUE_TYPE_KEYWORD, `["red"]`, "string:red"}, // a list of one stands for its value
		{enumspb.INDEXED_VALUE_TYPE_KEYWORD, `["a","b"]`, "error"},
		{enumspb.INDEXED_VALUE_TYPE_KEYWORD, `3`, "error"},
		{enumspb.INDEXED_VALUE_TYPE_KEYWORD, `null`, "<nil>:<nil>"},
		{enumspb.INDEXED_VALUE_TYPE_KEYWORD, `[]`, "<nil>:<nil>"},
		{enumspb.INDEXED_VALUE_TYPE_TEXT, `"some text"`, "string:some text"},
		{enumspb.INDEXED_VALUE_TYPE_KEYWORD_LIST, `["a","b"]`, "[]string:[a b]"},
		{enumspb.INDEXED_VALUE_TYPE_KEYWORD_LIST, `"a"`, "error"},
		{enumspb.INDEXED_VALUE_TYPE_INT, `7`, "int64:7"},
		{enumspb.INDEXED_VALUE_TYPE_INT, `1.5`, "error"},
		{enumspb.INDEXED_VALUE_TYPE_INT, `"7"`, "error"},
		{enumspb.INDEXED_VALUE_TYPE_DOUBLE, `2`, "float64:2"},
		{enumspb.INDEXED_VALUE_TYPE_BOOL, `true`, "bool:true"},
		{enumspb.INDEXED_VALUE_TYPE_BOOL, `"true"`, "error"},
		{enumspb.INDEXED_VALUE_TYPE_DATETIME, `"2030-01-02T03:04:05Z"`, fmt.Sprintf("time.Time:%v", due)},
		{enumspb.INDEXED_VALUE_TYPE_DATETIME, `"tomorrow"`, "error"},
	} {
		v, err := DecodeSearchAttribute(jsonPayload(c.data), c.t)
		got := fmt.Sprintf("%T:%v", v, v)
		if err != nil {
			got = "error"
		}
		if got != c.want {
			t.Errorf("%v %s: %s; want %s", c.t, c.data, got, c.want)
		}
	}
	plain := &commonpb.Payload{Metadata: map[string][]byte{"encoding": []byte("binary/plain")}, Data: []byte("red")}
	if _, err := DecodeSearchAttribute(plain, enumspb.INDEXED_VALUE_TYPE_KEYWORD); err == nil {
		t.Error("a binary/plain value was taken for a Keyword; a server takes JSON only")
	}
}

func TestCheckSearchAttributesRefusesAsAServer(t *testing.T) {
	srv := New(Options{Namespace: "orders", Clock: NewWallClock(), CheckSearchAttributes: true})
	if err := srv.AddSearchAttributes(map[string]enumspb.IndexedValueType{"Color": enumspb.INDEXED_VALUE_TYPE_KEYWORD}); err != nil {
		t.Fatal(err)
	}
	big := `"` + strings.Repeat("x", maxSearchAttributeValueSize) + `"`
	for attrs, want := range map[string]string{
		"Color=" + `"red"`:                   "",
		"Color=null":                         "",
		"TemporalChangeVersion=" + `["v-1"]`: "",
		"Colour=" + `"red"`:                  "Namespace orders has no mapping defined for search attribute Colour",
		"Color=" + `3`:                       "invalid value for search attribute Color of type Keyword: 3",
		"RunId=" + `"x"`:                     "RunId attribute can't be set in SearchAttributes",
		"TemporalWorkerDeployment=" + `"x"`:  "TemporalWorkerDeployment attribute can't be set in SearchAttributes",
		"Color=" + big:                       "search attribute Color value size 2050 exceeds size limit 2048",
	} {
		name, data, _ := strings.Cut(attrs, "=")
		err := srv.CheckSearchAttributes(&commonpb.SearchAttributes{IndexedFields: map[string]*commonpb.Payload{name: jsonPayload(data)}})
		if got := fmt.Sprint(err); (want == "" && err != nil) || (want != "" && got != want) {
			t.Errorf("%.40s: %v; want %q", attrs, err, want)
		}
	}
	unchecked := New(Options{Clock: NewWallClock()})
	if err := unchecked.CheckSearchAttributes(&commonpb.SearchAttributes{IndexedFields: map[string]*commonpb.Payload{"Anything": jsonPayload("1")}}); err != nil {
		t.Errorf("without Options.CheckSearchAttributes: %v", err)
	}
}
