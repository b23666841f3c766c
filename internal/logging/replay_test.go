package logging

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"reflect"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/durable-go/sdk/log"
)

type jsonEntry struct {
	Level  string `json:"level"`
	Msg    string `json:"msg"`
	Source struct {
		Function string `json:"function"`
		Line     int    `json:"line"`
	} `json:"source"`
	WorkflowID string `json:"WorkflowID"`
}

func jsonLogger(buf *bytes.Buffer) log.Logger {
	h := slog.NewJSONHandler(buf, &slog.HandlerOptions{AddSource: true, Level: slog.LevelDebug})
	return log.NewStructuredLogger(slog.New(h))
}

func entries(t *testing.T, buf *bytes.Buffer) []jsonEntry {
	t.Helper()
	var out []jsonEntry
	dec := json.NewDecoder(buf)
	for dec.More() {
		var e jsonEntry
		if err := dec.Decode(&e); err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	return out
}

func line() int {
	_, _, l, _ := runtime.Caller(1)
	return l
}

func TestReplayAwareLoggerDropsWhileReplaying(t *testing.T) {
	var buf bytes.Buffer
	var replaying atomic.Bool
	l := NewReplayAwareLogger(jsonLogger(&buf), replaying.Load)

	replaying.Store(true)
	l.Debug("replayed debug")
	l.Info("replayed info")
	l.Warn("replayed warn")
	l.Error("replayed error")
	replaying.Store(false)
	l.Debug("live debug")
	l.Info("live info")
	l.Warn("live warn")
	l.Error("live error")

	var msgs []string
	for _, e := range entries(t, &buf) {
		msgs = append(msgs, e.Msg)
	}
	if want := []string{"live debug", "live info", "live warn", "live error"}; !reflect.DeepEqual(msgs, want) {
		t.Errorf("logged %q, want %q", msgs, want)
	}
}

func TestReplayAwareLoggerReportsCallerAndKeepsCheckOnChildren(t *testing.T) {
	var buf bytes.Buffer
	var replaying atomic.Bool
	l := NewReplayAwareLogger(jsonLogger(&buf), replaying.Load)
	child := log.With(l, "WorkflowID", "wf-7")

	child.Info("from child")
	want := line() - 1
	replaying.Store(true)
	child.Info("suppressed child")

	got := entries(t, &buf)
	if len(got) != 1 {
		t.Fatalf("want 1 entry, got %+v", got)
	}
	if got[0].WorkflowID != "wf-7" {
		t.Errorf("WorkflowID %q, want wf-7", got[0].WorkflowID)
	}
	if got[0].Source.Line != want {
		t.Errorf("logged from line %d (%s), want %d", got[0].Source.Line, got[0].Source.Function, want)
	}
}

// plainLogger supports neither With nor caller skipping.
type plainLogger struct{ msgs *[]string }

func (p plainLogger) Debug(msg string, _ ...any) { *p.msgs = append(*p.msgs, msg) }
func (p plainLogger) Info(msg string, _ ...any)  { *p.msgs = append(*p.msgs, msg) }
func (p plainLogger) Warn(msg string, _ ...any)  { *p.msgs = append(*p.msgs, msg) }
func (p plainLogger) Error(msg string, _ ...any) { *p.msgs = append(*p.msgs, msg) }

func TestReplayAwareLoggerWrapsPlainLoggers(t *testing.T) {
	var msgs []string
	replaying := true
	l := NewReplayAwareLogger(plainLogger{&msgs}, func() bool { return replaying })
	skipped := log.Skip(log.With(l, "k", "v"), 1)

	skipped.Info("dropped")
	replaying = false
	skipped.Info("kept")

	if want := []string{"kept"}; !reflect.DeepEqual(msgs, want) {
		t.Errorf("logged %q, want %q", msgs, want)
	}
}
