package frontend

import "github.com/durable-go/sdk/internal/testserver"

// namespaceServer is the in-memory server of a request's namespace, or
// the namespace's NotFound error. The calls of searchattributes.go,
// visibility.go, taskqueue.go and history_reverse.go reach their
// namespace's state through it alone.
func (f *Frontend) namespaceServer(namespace string) (*testserver.Server, error) {
	if err := f.checkNamespace(namespace); err != nil {
		return nil, err
	}
	return f.server, nil
}
