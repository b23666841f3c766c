package rpc

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// recordingLogger keeps the messages logged, with their key-values.
type recordingLogger struct {
	mu    sync.Mutex
	lines []string
}

func (l *recordingLogger) log(level, msg string, keyvals []any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprint(level, " ", msg, keyvals))
}

func (l *recordingLogger) Debug(msg string, keyvals ...any) { l.log("DEBUG", msg, keyvals) }
func (l *recordingLogger) Info(msg string, keyvals ...any)  { l.log("INFO", msg, keyvals) }
func (l *recordingLogger) Warn(msg string, keyvals ...any)  { l.log("WARN", msg, keyvals) }
func (l *recordingLogger) Error(msg string, keyvals ...any) { l.log("ERROR", msg, keyvals) }

func (l *recordingLogger) count(s string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, line := range l.lines {
		if strings.Contains(line, s) {
			n++
		}
	}
	return n
}

// A HeadersProvider or API key callback that panics fails the call it was
// asked for, unsent and not retried, with an error naming it; the first
// panic is logged with its stack; once the callback stops panicking,
// calls go through again.
func TestPanickingCallbacksFailTheCallNotTheProcess(t *testing.T) {
	for _, c := range []struct {
		name string
		opts func(panicking *atomic.Bool) Options
		want string
	}{
		{"HeadersProvider", func(panicking *atomic.Bool) Options {
			return Options{HeadersProvider: headersFunc(func(context.Context) (map[string]string, error) {
				if panicking.Load() {
					panic("no headers today")
				}
				return map[string]string{"x-tenant": "acme"}, nil
			})}
		}, "the client's HeadersProvider (client.Options.HeadersProvider) panicked: no headers today; the call was not sent"},
		{"API key", func(panicking *atomic.Bool) Options {
			return Options{APIKey: func(context.Context) (string, error) {
				var vault func() string // a real bug: never set
				if panicking.Load() {
					return vault(), nil
				}
				return "secret", nil
			}}
		}, "the client's API key callback (client.NewAPIKeyDynamicCredentials) panicked: runtime error: invalid memory address or nil pointer dereference; the call was not sent"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := startFakeServer(t)
			logs := &recordingLogger{}
			var panicking atomic.Bool
			panicking.Store(true)
			opts := c.opts(&panicking)
			opts.Logger = logs
			opts.Retry = fastRetries
			conn := dialFake(t, f, opts)

			for range 3 {
				err := startWorkflow(conn, context.Background())
				if err == nil || err.Error() != c.want {
					t.Fatalf("a call whose %s panics: %v, want %q", c.name, err, c.want)
				}
			}
			wantCalls(t, f, "StartWorkflowExecution", 0)
			if n := logs.count("panicked; the calls it was asked for fail"); n != 1 {
				t.Errorf("the panics were logged %d times, want once", n)
			}
			if logs.count("PanicStack") != 1 || logs.count("callback_panic_test.go") != 1 {
				t.Errorf("the log lacks the panic's stack: %q", logs.lines)
			}

			panicking.Store(false)
			must(t, startWorkflow(conn, context.Background()))
			wantCalls(t, f, "StartWorkflowExecution", 1)
		})
	}
}
