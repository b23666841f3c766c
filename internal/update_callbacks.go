package internal

// UpdateCallbacks hear what becomes of an update sent with the test
// environment's UpdateWorkflow: Accept and then Complete, or Reject.
// testsuite.TestUpdateCallback is a ready-made one. It is declared
// here, with the API types, rather than beside the test environment
// (internal/testenv), because go.temporal.io/sdk's signatures name it
// internal.UpdateCallbacks.
type UpdateCallbacks interface {
	// Accept: the validator passed; the handler runs.
	Accept()
	// Reject: the validator (or the lack of a handler) refused the update.
	Reject(err error)
	// Complete: the handler returned success, or err.
	Complete(success any, err error)
}
