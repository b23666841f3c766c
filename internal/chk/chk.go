// Package chk holds the checks the tests of the SDK's internal packages
// use where testify is not wanted (the root, clientimpl, workerimpl,
// simpleplugin): one copy of each. Each reports the caller's line;
// failing checks of errors, lengths and non-nil values stop the test, the
// others let it go on.
package chk

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// NoErr stops the test when err is not nil.
func NoErr(t testing.TB, err error, msg ...any) {
	t.Helper()
	if err != nil {
		t.Fatalf("unexpected error: %v %s", err, fmt.Sprint(msg...))
	}
}

// Err stops the test when err is nil.
func Err(t testing.TB, err error, msg ...any) {
	t.Helper()
	if err == nil {
		t.Fatalf("expected an error %s", fmt.Sprint(msg...))
	}
}

// ErrContains stops the test unless err says substr.
func ErrContains(t testing.TB, err error, substr string, msg ...any) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), substr) {
		t.Fatalf("expected an error containing %q, got %v %s", substr, err, fmt.Sprint(msg...))
	}
}

// ErrAs stops the test unless errors.As(err, target).
func ErrAs(t testing.TB, err error, target any) {
	t.Helper()
	if !errors.As(err, target) {
		t.Fatalf("expected an error of type %T, got %T: %v", target, err, err)
	}
}

// ErrIs stops the test unless errors.Is(err, target).
func ErrIs(t testing.TB, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("expected an error wrapping %v, got %v", target, err)
	}
}

// Equal fails the test unless want and got are deeply equal.
func Equal(t testing.TB, want, got any, msg ...any) {
	t.Helper()
	if !reflect.DeepEqual(want, got) {
		t.Errorf("want %#v, got %#v %s", want, got, fmt.Sprint(msg...))
	}
}

// NotEqual fails the test when notWant and got are deeply equal.
func NotEqual(t testing.TB, notWant, got any, msg ...any) {
	t.Helper()
	if reflect.DeepEqual(notWant, got) {
		t.Errorf("did not want %#v %s", got, fmt.Sprint(msg...))
	}
}

// Same fails the test unless want == got (the same pointer).
func Same(t testing.TB, want, got any, msg ...any) {
	t.Helper()
	if want != got {
		t.Errorf("want the same pointer %p, got %p %s", want, got, fmt.Sprint(msg...))
	}
}

// True fails the test unless cond.
func True(t testing.TB, cond bool, msg ...any) {
	t.Helper()
	if !cond {
		t.Errorf("expected true %s", fmt.Sprint(msg...))
	}
}

// False fails the test when cond.
func False(t testing.TB, cond bool, msg ...any) {
	t.Helper()
	if cond {
		t.Errorf("expected false %s", fmt.Sprint(msg...))
	}
}

// Len fails the test at once: later lines usually index the value.
func Len(t testing.TB, value any, n int, msg ...any) {
	t.Helper()
	if l := reflect.ValueOf(value).Len(); l != n {
		t.Fatalf("want length %d, got %d (%#v) %s", n, l, value, fmt.Sprint(msg...))
	}
}

// isNil: value is nil, or a nil pointer, map, slice, func, interface or channel.
func isNil(value any) bool {
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

// Nil fails the test unless value is nil (or a nil pointer, map, slice, func, interface or channel).
func Nil(t testing.TB, value any, msg ...any) {
	t.Helper()
	if !isNil(value) {
		t.Errorf("want nil, got %#v %s", value, fmt.Sprint(msg...))
	}
}

// NotNil fails the test at once: later lines usually use the value.
func NotNil(t testing.TB, value any, msg ...any) {
	t.Helper()
	if isNil(value) {
		t.Fatalf("want a value, got nil %s", fmt.Sprint(msg...))
	}
}

// Empty fails the test unless value is nil or of length 0.
func Empty(t testing.TB, value any, msg ...any) {
	t.Helper()
	if !isNil(value) && reflect.ValueOf(value).Len() != 0 {
		t.Errorf("want empty, got %#v %s", value, fmt.Sprint(msg...))
	}
}

// NotEmpty fails the test when value is nil or of length 0.
func NotEmpty(t testing.TB, value any, msg ...any) {
	t.Helper()
	if isNil(value) || reflect.ValueOf(value).Len() == 0 {
		t.Errorf("want a non-empty value, got %#v %s", value, fmt.Sprint(msg...))
	}
}

// Zero fails the test unless value is its type's zero value.
func Zero(t testing.TB, value any, msg ...any) {
	t.Helper()
	if !reflect.ValueOf(value).IsZero() {
		t.Errorf("want the zero value, got %#v %s", value, fmt.Sprint(msg...))
	}
}

// Contains fails the test unless m has key.
func Contains[K comparable, V any](t testing.TB, m map[K]V, key K, msg ...any) {
	t.Helper()
	if _, ok := m[key]; !ok {
		t.Errorf("want key %v in %v %s", key, m, fmt.Sprint(msg...))
	}
}

// Regexp fails the test unless s matches pattern.
func Regexp(t testing.TB, pattern, s string) {
	t.Helper()
	if !regexp.MustCompile(pattern).MatchString(s) {
		t.Errorf("%q does not match %s", s, pattern)
	}
}
