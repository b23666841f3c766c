package clientimpl

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// The checks below are those of package internal's tests, which stand in
// for testify. Each reports the caller's line; failing checks of errors
// stop the test, the others let it go on.

var errClientTest = errors.New("client test error")

func chkNoErr(t testing.TB, err error, msg ...any) {
	t.Helper()
	if err != nil {
		t.Fatalf("unexpected error: %v %s", err, fmt.Sprint(msg...))
	}
}

func chkErr(t testing.TB, err error, msg ...any) {
	t.Helper()
	if err == nil {
		t.Fatalf("expected an error %s", fmt.Sprint(msg...))
	}
}

func chkErrContains(t testing.TB, err error, substr string, msg ...any) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), substr) {
		t.Fatalf("expected an error containing %q, got %v %s", substr, err, fmt.Sprint(msg...))
	}
}

func chkErrAs(t testing.TB, err error, target any) {
	t.Helper()
	if !errors.As(err, target) {
		t.Fatalf("expected an error of type %T, got %T: %v", target, err, err)
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

func chkNotEqual(t testing.TB, notWant, got any, msg ...any) {
	t.Helper()
	if reflect.DeepEqual(notWant, got) {
		t.Errorf("did not want %#v %s", got, fmt.Sprint(msg...))
	}
}

func chkSame(t testing.TB, want, got any, msg ...any) {
	t.Helper()
	if want != got {
		t.Errorf("want the same pointer %p, got %p %s", want, got, fmt.Sprint(msg...))
	}
}

func chkTrue(t testing.TB, cond bool, msg ...any) {
	t.Helper()
	if !cond {
		t.Errorf("expected true %s", fmt.Sprint(msg...))
	}
}

func chkFalse(t testing.TB, cond bool, msg ...any) {
	t.Helper()
	if cond {
		t.Errorf("expected false %s", fmt.Sprint(msg...))
	}
}

// chkLen fails the test at once: later lines usually index the value.
func chkLen(t testing.TB, value any, n int, msg ...any) {
	t.Helper()
	if l := reflect.ValueOf(value).Len(); l != n {
		t.Fatalf("want length %d, got %d (%#v) %s", n, l, value, fmt.Sprint(msg...))
	}
}

func chkIsNil(value any) bool {
	if value == nil {
		return true
	}
	v := reflect.ValueOf(value)
	switch v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Interface, reflect.Chan:
		return v.IsNil()
	}
	return false
}

func chkNil(t testing.TB, value any, msg ...any) {
	t.Helper()
	if !chkIsNil(value) {
		t.Errorf("want nil, got %#v %s", value, fmt.Sprint(msg...))
	}
}

// chkNotNil fails the test at once: later lines usually use the value.
func chkNotNil(t testing.TB, value any, msg ...any) {
	t.Helper()
	if chkIsNil(value) {
		t.Fatalf("want a value, got nil %s", fmt.Sprint(msg...))
	}
}

func chkEmpty(t testing.TB, value any, msg ...any) {
	t.Helper()
	if !chkIsNil(value) && reflect.ValueOf(value).Len() != 0 {
		t.Errorf("want empty, got %#v %s", value, fmt.Sprint(msg...))
	}
}

func chkNotEmpty(t testing.TB, value any, msg ...any) {
	t.Helper()
	if chkIsNil(value) || reflect.ValueOf(value).Len() == 0 {
		t.Errorf("want a non-empty value, got %#v %s", value, fmt.Sprint(msg...))
	}
}

func chkZero(t testing.TB, value any, msg ...any) {
	t.Helper()
	if !reflect.ValueOf(value).IsZero() {
		t.Errorf("want the zero value, got %#v %s", value, fmt.Sprint(msg...))
	}
}

func chkContains[K comparable, V any](t testing.TB, m map[K]V, key K, msg ...any) {
	t.Helper()
	if _, ok := m[key]; !ok {
		t.Errorf("want key %v in %v %s", key, m, fmt.Sprint(msg...))
	}
}

func chkRegexp(t testing.TB, pattern, s string) {
	t.Helper()
	if !regexp.MustCompile(pattern).MatchString(s) {
		t.Errorf("%q does not match %s", s, pattern)
	}
}
