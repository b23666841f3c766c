package converter

import (
	"encoding/json"
	"math"
	"strconv"
	"testing"
)

// The shortcuts must give what encoding/json gives, and decline what
// they cannot give exactly.
func TestJSONShortcutsAgreeWithEncodingJSON(t *testing.T) {
	values := []any{
		0, 1, -1, 1000, math.MaxInt, math.MinInt, int64(math.MaxInt64), int64(math.MinInt64),
		int32(math.MaxInt32), int32(math.MinInt32), uint64(math.MaxUint64), uint32(math.MaxUint32),
		true, false, "", "abc", "a b~c", "<tag>", "a&b", `q"uote`, `back\slash`, "tab\t", "é", "\u2028",
	}
	for _, v := range values {
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := marshalJSONFast(v)
		if ok && string(got) != string(want) {
			t.Errorf("%T %v: shortcut wrote %s, encoding/json %s", v, v, got, want)
		}
		dc := GetDefaultDataConverter()
		p, err := dc.ToPayload(v)
		if err != nil {
			t.Fatal(err)
		}
		if string(p.GetData()) != string(want) {
			t.Errorf("%T %v: payload %s, encoding/json %s", v, v, p.GetData(), want)
		}
	}
	for _, s := range []string{"abc", `"abc"`, `"a\"b"`, `"a\u0041"`, `"é"`, `""`, `"`, "0", "-0", "01", "-", "1e3", "1.5", " 1", "1 ",
		"null", "true", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
		"2147483647", "2147483648", "-2147483648", "-2147483649", "99999999999999999999", `"<&>"`, "\"tab\t\""} {
		checkDecodeAgrees[int](t, s)
		checkDecodeAgrees[int64](t, s)
		checkDecodeAgrees[int32](t, s)
		checkDecodeAgrees[string](t, s)
	}
}

// checkDecodeAgrees decodes data into a T with the shortcut, if it takes
// it, and with encoding/json, starting from the same non-zero value.
func checkDecodeAgrees[T any](t *testing.T, data string) {
	t.Helper()
	var viaShortcut, viaJSON T
	if s, ok := any(&viaShortcut).(*string); ok {
		*s, *any(&viaJSON).(*string) = "before", "before"
	}
	if !unmarshalJSONFast([]byte(data), &viaShortcut) {
		return
	}
	if err := json.Unmarshal([]byte(data), &viaJSON); err != nil {
		t.Errorf("%T from %q: the shortcut decoded %v, encoding/json failed: %v", viaJSON, data, viaShortcut, err)
		return
	}
	if any(viaShortcut) != any(viaJSON) {
		t.Errorf("%T from %q: shortcut %v, encoding/json %v", viaJSON, data, viaShortcut, viaJSON)
	}
}

func FuzzJSONShortcutsAgreeWithEncodingJSON(f *testing.F) {
	for _, s := range []string{"0", "-12", "9223372036854775808", `"abc"`, `"a\nb"`, "01"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		checkDecodeAgrees[int](t, data)
		checkDecodeAgrees[int32](t, data)
		checkDecodeAgrees[string](t, data)
		if n, err := strconv.Atoi(data); err == nil {
			want, _ := json.Marshal(n)
			if got, ok := marshalJSONFast(n); !ok || string(got) != string(want) {
				t.Errorf("%d: shortcut %s (%v), encoding/json %s", n, got, ok, want)
			}
		}
		want, _ := json.Marshal(data)
		if got, ok := marshalJSONFast(data); ok && string(got) != string(want) {
			t.Errorf("%q: shortcut %s, encoding/json %s", data, got, want)
		}
	})
}
