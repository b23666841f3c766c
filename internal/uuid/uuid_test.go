package uuid

import (
	"regexp"
	"testing"
)

var version4 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func TestNewIsARandomVersion4UUID(t *testing.T) {
	id := New()
	if !version4.MatchString(id) {
		t.Fatalf("%q is not a version 4 UUID", id)
	}
	if again := New(); again == id {
		t.Fatalf("two calls gave the same ID %q", id)
	}
}
