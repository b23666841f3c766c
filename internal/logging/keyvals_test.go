package logging

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"runtime"
	"slices"
	"testing"

	"github.com/durable-go/sdk/log"
)

// A keyvals logger adds its keyvals ahead of each message's own, reports
// its caller's line, and passes both on to loggers made from it.
func TestKeyvalsLogger(t *testing.T) {
	var buf bytes.Buffer
	l := WithKeyvals(log.NewStructuredLogger(slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{AddSource: true}))), "ActivityID", "7", "Attempt", int32(2))
	l.Info("direct", "k", 1)
	_, _, line, _ := runtime.Caller(0)
	log.With(l, "child", true).Warn("from a child")
	log.Skip(l, 0).Error("skipped none")
	want := []struct {
		msg  string
		keys []string
	}{
		{"direct", []string{"ActivityID", "Attempt", "k"}},
		{"from a child", []string{"ActivityID", "Attempt", "child"}},
		{"skipped none", []string{"ActivityID", "Attempt"}},
	}
	dec := json.NewDecoder(&buf)
	for i, w := range want {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		var e map[string]any
		if err := json.Unmarshal(raw, &e); err != nil {
			t.Fatal(err)
		}
		if e["msg"] != w.msg || !slices.Equal(keyOrder(t, raw)[4:], w.keys) || e["ActivityID"] != "7" || e["Attempt"] != float64(2) {
			t.Errorf("message %d: %s, want %q with keys %v", i, raw, w.msg, w.keys)
		}
		if i == 0 && e["source"].(map[string]any)["line"] != float64(line-1) {
			t.Errorf("logged from line %v, want %d", e["source"].(map[string]any)["line"], line-1)
		}
	}
}

// keyOrder lists the keys of a JSON object in order.
func keyOrder(t *testing.T, raw json.RawMessage) []string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil { // {
		t.Fatal(err)
	}
	var keys []string
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, key.(string))
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}
