package log_test

import (
	"bytes"
	"log/slog"
	"reflect"
	"testing"

	"github.com/durable-go/sdk/log"
)

// call is one message received by recorder.
type call struct {
	level   string
	msg     string
	keyvals []any
}

// recorder implements only Logger, so With must wrap it.
type recorder struct{ calls *[]call }

func newRecorder() (recorder, *[]call) {
	calls := &[]call{}
	return recorder{calls: calls}, calls
}

func (r recorder) add(level, msg string, kv []any) {
	*r.calls = append(*r.calls, call{level, msg, kv})
}
func (r recorder) Debug(msg string, kv ...any) { r.add("debug", msg, kv) }
func (r recorder) Info(msg string, kv ...any)  { r.add("info", msg, kv) }
func (r recorder) Warn(msg string, kv ...any)  { r.add("warn", msg, kv) }
func (r recorder) Error(msg string, kv ...any) { r.add("error", msg, kv) }

func wantKeyvals(t *testing.T, got []call, want ...[]any) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d calls, want %d: %v", len(got), len(want), got)
	}
	for i := range want {
		if !reflect.DeepEqual(got[i].keyvals, want[i]) {
			t.Errorf("call %d (%q): keyvals %v, want %v", i, got[i].msg, got[i].keyvals, want[i])
		}
	}
}

func TestWithPrependsKeyvalsForPlainLogger(t *testing.T) {
	rec, calls := newRecorder()
	l := log.With(rec, "a", 1)

	l.Debug("m1", "b", 2)
	l.Info("m2")
	l.Warn("m3", "c", 3)
	l.Error("m4")

	want := []call{
		{"debug", "m1", []any{"a", 1, "b", 2}},
		{"info", "m2", []any{"a", 1}},
		{"warn", "m3", []any{"a", 1, "c", 3}},
		{"error", "m4", []any{"a", 1}},
	}
	if !reflect.DeepEqual(*calls, want) {
		t.Errorf("got %v\nwant %v", *calls, want)
	}
}

func TestWithChildrenDoNotShareKeyvals(t *testing.T) {
	rec, calls := newRecorder()
	parent := log.With(rec, "p", 0)
	left := log.With(parent, "side", "left")
	right := log.With(parent, "side", "right")

	left.Info("l")
	right.Info("r")
	parent.Info("p")

	wantKeyvals(t, *calls,
		[]any{"p", 0, "side", "left"},
		[]any{"p", 0, "side", "right"},
		[]any{"p", 0})
}

func TestWithDoesNotKeepCallersSlice(t *testing.T) {
	rec, calls := newRecorder()
	kv := []any{"k", "before"}
	l := log.With(rec, kv...)
	kv[1] = "after"

	l.Info("m")

	wantKeyvals(t, *calls, []any{"k", "before"})
}

func TestSkipWithoutSupportReturnsSameLogger(t *testing.T) {
	rec, _ := newRecorder()
	if got := log.Skip(rec, 3); got != log.Logger(rec) {
		t.Errorf("Skip returned %#v, want the logger itself", got)
	}
}

// forwarder wraps a Logger without supporting With, but supports caller
// skipping, the way a third-party decorator would.
type forwarder struct{ next log.Logger }

func newForwarder(l log.Logger) forwarder { return forwarder{next: log.Skip(l, 1)} }

func (f forwarder) Debug(msg string, kv ...any) { f.next.Debug(msg, kv...) }
func (f forwarder) Info(msg string, kv ...any)  { f.next.Info(msg, kv...) }
func (f forwarder) Warn(msg string, kv ...any)  { f.next.Warn(msg, kv...) }
func (f forwarder) Error(msg string, kv ...any) { f.next.Error(msg, kv...) }
func (f forwarder) WithCallerSkip(n int) log.Logger {
	return forwarder{next: log.Skip(f.next, n)}
}

func TestWithWrapperKeepsCallSiteThroughDecorators(t *testing.T) {
	var buf bytes.Buffer
	l := log.With(newForwarder(newJSONLogger(&buf, slog.LevelDebug)), "k", "v")

	l.Info("wrapped twice")
	_, line := here()
	log.With(l, "k2", "v2").Error("wrapped thrice")
	_, line2 := here()

	got := decode(t, &buf, 2)
	wantLine(t, got[0], line-1)
	wantLine(t, got[1], line2-1)
	if got[0].Attrs["k"] != "v" || got[1].Attrs["k"] != "v" || got[1].Attrs["k2"] != "v2" {
		t.Errorf("attrs lost: %v, %v", got[0].Attrs, got[1].Attrs)
	}
	if want := "github.com/durable-go/sdk/log_test.TestWithWrapperKeepsCallSiteThroughDecorators"; got[1].Source.Function != want {
		t.Errorf("function %s, want %s", got[1].Source.Function, want)
	}
}

func TestSkipOnWithWrapper(t *testing.T) {
	var buf bytes.Buffer
	l := log.With(newForwarder(newJSONLogger(&buf, slog.LevelDebug)), "k", "v")

	logVia(log.Skip(l, 1))
	_, line := here()

	got := decode(t, &buf, 1)
	wantLine(t, got[0], line-1)
	if got[0].Attrs["k"] != "v" {
		t.Errorf("attrs %v lack k", got[0].Attrs)
	}
}
