package frontend

import "github.com/durable-go/sdk/internal/testserver"

// serverOf is the in-memory server of a request's namespace, or the
// namespace's NotFound error. The calls of searchattributes.go,
// visibility.go, taskqueue.go, history_reverse.go and cancel's reach
// their namespace's state through it alone; a frontend of several
// namespaces replaces it with its own lookup of the same signature.
func (f *Frontend) serverOf(namespace string) (*testserver.Server, error) {
	if err := f.checkNamespace(namespace); err != nil {
		return nil, err
	}
	return f.server, nil
}
