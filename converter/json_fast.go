package converter

import "strconv"

// The JSON converter's shortcuts for the values workflows pass most (an
// int, a plain string), which encoding/json handles through reflection.
// Each produces exactly what encoding/json would, and declines (false)
// everything else, which then goes to encoding/json: an integer that
// overflows, a number with a fraction or exponent, a string with an
// escape, a named type (its own MarshalJSON or UnmarshalJSON may apply),
// null, surrounding space.

// marshalJSONFast returns value's JSON, in one allocation of its size, if
// value is one of the values the shortcut knows.
func marshalJSONFast(value any) ([]byte, bool) {
	var digits [24]byte // any 64-bit integer, or "false"
	var short []byte
	switch v := value.(type) {
	case int:
		short = strconv.AppendInt(digits[:0], int64(v), 10)
	case int64:
		short = strconv.AppendInt(digits[:0], v, 10)
	case int32:
		short = strconv.AppendInt(digits[:0], int64(v), 10)
	case uint64:
		short = strconv.AppendUint(digits[:0], v, 10)
	case uint32:
		short = strconv.AppendUint(digits[:0], uint64(v), 10)
	case bool:
		short = strconv.AppendBool(digits[:0], v)
	case string:
		if !plainJSONString(v) {
			return nil, false
		}
		data := make([]byte, len(v)+2)
		data[0], data[len(data)-1] = '"', '"'
		copy(data[1:], v)
		return data, true
	default:
		return nil, false
	}
	return append([]byte(nil), short...), true
}

// plainJSONString reports whether s is printable ASCII that encoding/json
// writes as it is: no quote or backslash, and none of the characters it
// escapes for HTML (<, >, &).
func plainJSONString[T string | []byte](s T) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c > 0x7e:
			return false
		case c == '"' || c == '\\' || c == '<' || c == '>' || c == '&':
			return false
		}
	}
	return true
}

// unmarshalJSONFast decodes data into valuePtr, if valuePtr is a pointer
// the shortcut knows and data is a JSON integer (-?(0|[1-9][0-9]*)) that
// fits, or a string of printable ASCII without escapes.
func unmarshalJSONFast(data []byte, valuePtr any) bool {
	switch p := valuePtr.(type) {
	case *int:
		n, ok := jsonInt(data, strconv.IntSize)
		if ok {
			*p = int(n)
		}
		return ok
	case *int64:
		n, ok := jsonInt(data, 64)
		if ok {
			*p = n
		}
		return ok
	case *int32:
		n, ok := jsonInt(data, 32)
		if ok {
			*p = int32(n)
		}
		return ok
	case *string:
		if len(data) < 2 || data[0] != '"' || data[len(data)-1] != '"' {
			return false
		}
		body := data[1 : len(data)-1]
		for _, c := range body {
			if c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
				return false
			}
		}
		*p = string(body)
		return true
	}
	return false
}

// jsonInt parses data as a JSON integer of bits bits, if it is one.
func jsonInt(data []byte, bits int) (int64, bool) {
	digits := data
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 19 || (digits[0] == '0' && len(digits) > 1) {
		return 0, false
	}
	var u uint64 // 19 digits cannot overflow it
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		u = u*10 + uint64(c-'0')
	}
	limit := uint64(1) << (bits - 1) // the magnitude of the most negative
	if len(digits) != len(data) {
		if u > limit {
			return 0, false
		}
		return -int64(u), true
	}
	if u >= limit {
		return 0, false
	}
	return int64(u), true
}
