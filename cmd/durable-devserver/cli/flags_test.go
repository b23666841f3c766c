package cli

import (
	"io"
	"reflect"
	"strings"
	"testing"

	enumspb "go.temporal.io/api/enums/v1"
)

// The flags internal/devserver passes to "temporal server start-dev" mean
// the same here.
func TestParseTakesTheFlagsOfTheTemporalCLI(t *testing.T) {
	o, err := Parse([]string{"server", "start-dev", "--ip", "127.0.0.2", "--port", "7777", "--log-level", "error",
		"--headless", "--namespace", "orders", "--db-filename", "/tmp/state.db",
		"--search-attribute", "CustomerId=Keyword", "--search-attribute", "Total=double", "--search-attribute", "Tags=KeywordList",
		"--dynamic-config-value", "limit.blobSize.error=1000", "--dynamic-config-value", `system.x="on"`,
		"--sqlite-pragma", "journal_mode=wal"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	want := Options{
		IP: "127.0.0.2", Port: 7777, LogLevel: "error", LogFormat: "text", DBFile: "/tmp/state.db",
		Namespaces: []string{"default", "orders"},
		SearchAttributes: map[string]enumspb.IndexedValueType{
			"CustomerId": enumspb.INDEXED_VALUE_TYPE_KEYWORD, "Total": enumspb.INDEXED_VALUE_TYPE_DOUBLE, "Tags": enumspb.INDEXED_VALUE_TYPE_KEYWORD_LIST},
		DynamicConfig: map[string]any{"limit.blobSize.error": float64(1000), "system.x": "on"},
		SQLitePragmas: map[string]string{"journal_mode": "wal"},
	}
	if !reflect.DeepEqual(o, want) {
		t.Fatalf("got  %+v\nwant %+v", o, want)
	}
	if bare, err := Parse([]string{"--port", "7777"}, io.Discard); err != nil || bare.Port != 7777 || bare.IP != "127.0.0.1" {
		t.Fatalf("without the leading words: %+v, %v", bare, err)
	}
}

func TestParseSaysWhatIsWrong(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--ui-port", "8233"}, "no web UI"},
		{[]string{"--search-attribute", "Total=Money"}, `unknown type "Money"`},
		{[]string{"--search-attribute", "Total"}, "want NAME=VALUE"},
		{[]string{"--dynamic-config-value", "system.x=on"}, "must be JSON"},
		{[]string{"start"}, `unexpected argument "start"`},
		{[]string{"--no-such-flag"}, "no-such-flag"},
	} {
		_, err := Parse(c.args, io.Discard)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v, want an error saying %q", c.args, err, c.want)
		}
	}
}

// Values given on the command line win over the defaults, and the Nexus
// callback template points at the server's own HTTP port.
func TestDynamicConfig(t *testing.T) {
	o := Options{IP: "127.0.0.1", HTTPPort: 7243, DynamicConfig: map[string]any{"system.enableDeployments": false}}
	dc := DynamicConfig(o)
	if dc["system.enableDeployments"] != false {
		t.Error("a value on the command line must win over the default")
	}
	if dc["frontend.workerVersioningWorkflowAPIs"] != true {
		t.Error("worker versioning must be on by default")
	}
	if dc["history.enableSignalWithStartFromWorkflow"] != true {
		t.Error("signal-with-start from workflows (workflow.SignalWithStartWorkflow) must be on by default")
	}
	if got := dc["component.nexusoperations.callback.endpoint.template"]; got != "http://127.0.0.1:7243/namespaces/{{.NamespaceName}}/nexus/callback" {
		t.Errorf("callback template %v", got)
	}
}
