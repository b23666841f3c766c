package failure

import "strings"

// describeChain is the Error() of the SDK's errors that have a cause: each
// error's own part, then ": " and its cause's, down the chain. It walks the
// chain in one pass, so a long chain costs its length: each level calling
// its cause's Error() would copy every message below it once per level.
func describeChain(err error) string {
	var b strings.Builder
	for {
		head, cause, ok := chainLink(err)
		if !ok {
			// Not one of ours (or its Error may differ): it renders itself
			// and its own causes.
			b.WriteString(err.Error())
			return b.String()
		}
		b.WriteString(head)
		if cause == nil {
			return b.String()
		}
		b.WriteString(": ")
		err = cause
	}
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
