package failure

import "strings"

// describeChain is the Error() of the SDK's errors that have a cause: each
// error's own part, then ": " and its cause's, down the chain. It walks the
// chain once and writes the message once, so a long chain costs its
// length: each level calling its cause's Error() would copy every message
// below it once per level.
func describeChain(err error) string {
	// The parts, on the stack for chains of ordinary depth.
	var stack [8]string
	parts := stack[:0]
	size := 0
	for err != nil {
		head, cause, ok := chainLink(err)
		if !ok {
			// Not one of ours (or its Error may differ): it renders itself
			// and its own causes.
			head, cause = err.Error(), nil
		}
		parts = append(parts, head)
		size += len(head) + len(": ")
		err = cause
	}
	var b strings.Builder
	b.Grow(size - len(": "))
	for i, part := range parts {
		if i > 0 {
			b.WriteString(": ")
		}
		b.WriteString(part)
	}
	return b.String()
}

// chainLink returns the message of err without its cause, and its cause,
// for the SDK's own error types that render their cause after their own
// message; ok is false for every other error. Concrete types only: a
// user's type that embeds one of these may have an Error of its own.
func chainLink(err error) (head string, cause error, ok bool) {
	switch e := err.(type) {
	case *ApplicationError:
		return e.head(), e.cause, true
	case *TimeoutError:
		return e.head(), e.cause, true
	case *ServerError:
		return e.msg, e.cause, true
	case *ActivityError:
		return e.head(), e.cause, true
	case *ChildWorkflowExecutionError:
		return e.head(), e.cause, true
	case *WorkflowExecutionError:
		return e.head(), e.cause, true
	}
	return "", nil, false
}
