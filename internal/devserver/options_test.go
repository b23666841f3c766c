package devserver

import (
	"slices"
	"testing"
)

func wantArgs(t *testing.T, got []string, err error, want ...string) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Errorf("args\n got %q\nwant %q", got, want)
	}
}

func TestArgsMinimal(t *testing.T) {
	args, err := Options{}.args("127.0.0.1:7777", "")
	wantArgs(t, args, err,
		"server", "start-dev", "--ip", "127.0.0.1", "--port", "7777", "--log-level", "error", "--headless",
		"--dynamic-config-value", "frontend.enableServerVersionCheck=false")
}

func TestArgsEverything(t *testing.T) {
	o := Options{
		Namespace:        "orders",
		DBFilename:       "/tmp/state.db",
		EnableUI:         true,
		LogFormat:        "json",
		LogLevel:         "warn",
		SearchAttributes: map[string]string{"Zeta": "Int", "Alpha": "Keyword"},
		DynamicConfig:    map[string]string{"frontend.enableServerVersionCheck": "true", "limit.x": "5"},
		ExtraArgs:        []string{"--sqlite-pragma", "journal_mode=wal"},
	}
	args, err := o.args("127.0.0.1:7777", "8999")
	wantArgs(t, args, err,
		"server", "start-dev", "--ip", "127.0.0.1", "--port", "7777", "--log-level", "warn",
		"--log-format", "json", "--ui-port", "8999", "--namespace", "orders", "--db-filename", "/tmp/state.db",
		"--search-attribute", "Alpha=Keyword", "--search-attribute", "Zeta=Int",
		"--dynamic-config-value", "frontend.enableServerVersionCheck=true",
		"--dynamic-config-value", "limit.x=5",
		"--sqlite-pragma", "journal_mode=wal")
}

func TestArgsRejectsBadAddress(t *testing.T) {
	if _, err := (Options{}).args("nope", ""); err == nil {
		t.Error("accepted an address without a port")
	}
}

func TestTailBufferKeepsLastBytes(t *testing.T) {
	tb := &tailBuffer{max: 5}
	_, _ = tb.Write([]byte("abc"))
	_, _ = tb.Write([]byte("defg"))
	if got := tb.String(); got != "cdefg" {
		t.Errorf("tail %q, want cdefg", got)
	}
}
