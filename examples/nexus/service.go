package main

// The contract between the caller (caller.go) and the handler
// (handler.go): the service's name, its operations' names, and their input
// and output types. Each side uses these and nothing of the other's, as
// two teams sharing only an API would (in a real project, this file would
// be a package both import).

// ServiceName is the Nexus service's name.
const ServiceName = "hello"

// The service's operations.
const (
	// EchoOperationName is synchronous: the handler answers within the
	// request.
	EchoOperationName = "echo"
	// HelloOperationName is asynchronous: the handler starts a workflow,
	// and the operation completes when the workflow does.
	HelloOperationName = "hello"
)

// EchoInput is the input of EchoOperation.
type EchoInput struct {
	Message string
}

// EchoOutput is the output of EchoOperation.
type EchoOutput struct {
	Message string
}

// Language is a language HelloOperation greets in.
type Language string

// The languages HelloOperation knows.
const (
	English Language = "en"
	French  Language = "fr"
	German  Language = "de"
	Spanish Language = "es"
	Turkish Language = "tr"
)

// HelloInput is the input of HelloOperation.
type HelloInput struct {
	Name     string
	Language Language
}

// HelloOutput is the output of HelloOperation.
type HelloOutput struct {
	Message string
}
