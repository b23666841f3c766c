package internal

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// The checks below stand in for testify, whose dependencies go.sum does
// not list yet; internal/clientimpl's tests have the same. Each reports
// the caller's line; failing checks of errors stop the test, the others
// let it go on.

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

func chkNotEqual(t testing.TB, notWant, got any, msg ...any) {
	t.Helper()
	if reflect.DeepEqual(notWant, got) {
		t.Errorf("did not want %#v %s", got, fmt.Sprint(msg...))
	}
}

func chkTrue(t testing.TB, cond bool, msg ...any) {
	t.Helper()
	if !cond {
		t.Errorf("expected true %s", fmt.Sprint(msg...))
	}
}

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
