package codecfail

import (
	"errors"
	"fmt"
	"testing"
)

// lookalike has the marked type's methods but is not of its type.
type lookalike struct{ err error }

func (l *lookalike) Error() string { return l.err.Error() }
func (l *lookalike) Unwrap() error { return l.err }

func TestOnlyMarkedErrorsFailTheTask(t *testing.T) {
	cause := errors.New("key service unavailable")
	marked := fmt.Errorf("encoding the input: %w", Mark(cause))
	if !Has(marked) || !errors.Is(marked, cause) || marked.Error() != "encoding the input: key service unavailable" {
		t.Errorf("a wrapped mark: Has %v, Is %v, message %q", Has(marked), errors.Is(marked, cause), marked)
	}
	for _, err := range []error{nil, cause, &lookalike{cause}} {
		if Has(err) {
			t.Errorf("%v is taken for a marked error", err)
		}
		FailTask(err) // must not panic
	}
	defer func() {
		if p := recover(); p != marked {
			t.Errorf("FailTask panicked with %v, want the marked error", p)
		}
	}()
	FailTask(marked)
	t.Error("FailTask did not panic for a marked error")
}
