package simpleplugin

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// The checks below are those of package internal's tests, which stand in
// for testify. Each reports the caller's line; failing checks of errors
// stop the test, the others let it go on.

func chkNoErr(t testing.TB, err error, msg ...any) {
	t.Helper()
	if err != nil {
		t.Fatalf("unexpected error: %v %s", err, fmt.Sprint(msg...))
	}
}

func chkErrContains(t testing.TB, err error, substr string, msg ...any) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), substr) {
		t.Fatalf("expected an error containing %q, got %v %s", substr, err, fmt.Sprint(msg...))
	}
}

func chkErrIs(t testing.TB, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("expected an error wrapping %v, got %v", target, err)
	}
}

func chkEqual(t testing.TB, want, got any, msg ...any) {
	t.Helper()
	if !reflect.DeepEqual(want, got) {
		t.Errorf("want %#v, got %#v %s", want, got, fmt.Sprint(msg...))
	}
}

func chkSame(t testing.TB, want, got any, msg ...any) {
	t.Helper()
	if want != got {
		t.Errorf("want the same pointer %p, got %p %s", want, got, fmt.Sprint(msg...))
	}
}

func chkFalse(t testing.TB, cond bool, msg ...any) {
	t.Helper()
	if cond {
		t.Errorf("expected false %s", fmt.Sprint(msg...))
	}
}

func chkNil(t testing.TB, value any, msg ...any) {
	t.Helper()
	if value == nil {
		return
	}
	v := reflect.ValueOf(value)
	switch v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Interface, reflect.Chan:
		if v.IsNil() {
			return
		}
	}
	t.Errorf("want nil, got %#v %s", value, fmt.Sprint(msg...))
}

// hookLog records the calls a test's hooks make, in order.
type hookLog struct {
	mu    sync.Mutex
	calls []string
}

func (l *hookLog) add(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls = append(l.calls, fmt.Sprintf(format, args...))
}

func (l *hookLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	calls := l.calls
	l.calls = nil
	return calls
}
