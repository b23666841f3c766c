package logging

import (
	"bytes"
	"io"
	"log/slog"
	"os"
	"strings"
	"testing"
)

func TestTextLoggerFormatAndLevel(t *testing.T) {
	var buf bytes.Buffer
	l := NewTextLogger(&buf, slog.LevelInfo)

	l.Debug("hidden")
	l.Info("started worker", "TaskQueue", "orders")
	l.Error("poll failed", "Error", "unavailable")

	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("want 2 lines, got:\n%s", buf.String())
	}
	for i, want := range [][]string{
		{"level=INFO", `msg="started worker"`, "TaskQueue=orders"},
		{"level=ERROR", `msg="poll failed"`, "Error=unavailable"},
	} {
		for _, w := range want {
			if !strings.Contains(lines[i], w) {
				t.Errorf("line %q lacks %q", lines[i], w)
			}
		}
	}
}

func TestDefaultLoggerWritesInfoToStderr(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	realStderr := os.Stderr
	os.Stderr = w
	l := NewDefaultLogger()
	os.Stderr = realStderr

	l.Debug("dropped below info")
	l.Info("default info", "k", "v")
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}

	if strings.Contains(string(out), "dropped below info") {
		t.Errorf("debug message logged:\n%s", out)
	}
	if !strings.Contains(string(out), `level=INFO msg="default info" k=v`) {
		t.Errorf("info message missing:\n%s", out)
	}
}
