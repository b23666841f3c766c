package log_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"reflect"
	"runtime"
	"testing"

	"github.com/durable-go/sdk/log"
)

// entry is one JSON line written by slog's JSON handler.
type entry struct {
	Level  string `json:"level"`
	Msg    string `json:"msg"`
	Source struct {
		Function string `json:"function"`
		File     string `json:"file"`
		Line     int    `json:"line"`
	} `json:"source"`
	Attrs map[string]any `json:"-"`
}

func newJSONLogger(buf *bytes.Buffer, level slog.Level) log.Logger {
	h := slog.NewJSONHandler(buf, &slog.HandlerOptions{AddSource: true, Level: level})
	return log.NewStructuredLogger(slog.New(h))
}

// decode parses buf's lines, failing t unless there are exactly want.
func decode(t *testing.T, buf *bytes.Buffer, want int) []entry {
	t.Helper()
	var out []entry
	for _, line := range bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var e entry
		if err := json.Unmarshal(line, &e); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(line, &e.Attrs); err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	if len(out) != want {
		t.Fatalf("got %d entries, want %d:\n%s", len(out), want, buf.String())
	}
	return out
}

// here returns the file and line of its caller.
func here() (string, int) {
	_, file, line, _ := runtime.Caller(1)
	return file, line
}

func wantLine(t *testing.T, e entry, line int) {
	t.Helper()
	if e.Source.Line != line {
		t.Errorf("%q logged from line %d (%s), want line %d", e.Msg, e.Source.Line, e.Source.Function, line)
	}
}

func TestStructuredLoggerLevelsAndKeyvals(t *testing.T) {
	var buf bytes.Buffer
	l := newJSONLogger(&buf, slog.LevelDebug)

	l.Debug("d", "k", 1)
	l.Info("i", "k", "v")
	l.Warn("w")
	l.Error("e", "err", "boom")

	got := decode(t, &buf, 4)
	levels := []string{got[0].Level, got[1].Level, got[2].Level, got[3].Level}
	if want := []string{"DEBUG", "INFO", "WARN", "ERROR"}; !reflect.DeepEqual(levels, want) {
		t.Errorf("levels %v, want %v", levels, want)
	}
	if got[0].Attrs["k"] != float64(1) || got[1].Attrs["k"] != "v" || got[3].Attrs["err"] != "boom" {
		t.Errorf("keyvals lost: %v %v %v", got[0].Attrs, got[1].Attrs, got[3].Attrs)
	}
}

func TestStructuredLoggerRespectsHandlerLevel(t *testing.T) {
	var buf bytes.Buffer
	l := newJSONLogger(&buf, slog.LevelWarn)

	l.Debug("dropped")
	l.Info("dropped")
	l.Warn("kept")

	if got := decode(t, &buf, 1); got[0].Msg != "kept" {
		t.Errorf("logged %q", got[0].Msg)
	}
}

func TestStructuredLoggerReportsCallSite(t *testing.T) {
	var buf bytes.Buffer
	l := newJSONLogger(&buf, slog.LevelDebug)

	l.Info("direct")
	file, line := here()

	got := decode(t, &buf, 1)
	wantLine(t, got[0], line-1)
	if got[0].Source.File != file {
		t.Errorf("file %s, want %s", got[0].Source.File, file)
	}
	if want := "github.com/durable-go/sdk/log_test.TestStructuredLoggerReportsCallSite"; got[0].Source.Function != want {
		t.Errorf("function %s, want %s", got[0].Source.Function, want)
	}
}

func TestStructuredLoggerWithKeepsCallSiteAndAddsAttrs(t *testing.T) {
	var buf bytes.Buffer
	l := log.With(newJSONLogger(&buf, slog.LevelDebug), "WorkflowID", "wf-1")

	l.Warn("with")
	_, line := here()

	got := decode(t, &buf, 1)
	wantLine(t, got[0], line-1)
	if got[0].Attrs["WorkflowID"] != "wf-1" {
		t.Errorf("attrs %v lack WorkflowID", got[0].Attrs)
	}
}

// logVia logs through one extra frame; Skip(l, 1) should attribute the
// entry to logVia's caller.
func logVia(l log.Logger) { l.Info("via helper") }

func TestStructuredLoggerSkip(t *testing.T) {
	var buf bytes.Buffer
	l := newJSONLogger(&buf, slog.LevelDebug)

	logVia(l)
	logVia(log.Skip(l, 1))
	_, line := here()

	got := decode(t, &buf, 2)
	if want := "github.com/durable-go/sdk/log_test.logVia"; got[0].Source.Function != want {
		t.Errorf("without skip: function %s, want %s", got[0].Source.Function, want)
	}
	if want := "github.com/durable-go/sdk/log_test.TestStructuredLoggerSkip"; got[1].Source.Function != want {
		t.Errorf("with skip: function %s, want %s", got[1].Source.Function, want)
	}
	wantLine(t, got[1], line-1)
}

func TestNewStructuredLoggerNilUsesDefault(t *testing.T) {
	var buf bytes.Buffer
	prev := slog.Default()
	t.Cleanup(func() { slog.SetDefault(prev) })
	slog.SetDefault(slog.New(slog.NewJSONHandler(&buf, nil)))

	log.NewStructuredLogger(nil).Info("to default")

	if got := decode(t, &buf, 1); got[0].Msg != "to default" {
		t.Errorf("logged %q", got[0].Msg)
	}
}
