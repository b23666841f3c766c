package rpc

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"

	"go.temporal.io/api/proxy"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"

	"github.com/durable-go/sdk/log"
)

// headersInterceptor adds, per attempt, the metadata the server expects.
// A key already present in the call's outgoing context is never replaced,
// so callers can override any of them.
func headersInterceptor(o Options) grpc.UnaryClientInterceptor {
	static := [][2]string{
		{HeaderClientName, o.ClientName},
		{HeaderClientVersion, o.ClientVersion},
		{HeaderSupportedServerVersions, SupportedServerVersions},
	}
	panics := &panicReporter{logger: o.Logger}
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		md, _ := metadata.FromOutgoingContext(ctx)
		md = md.Copy()
		add := func(key, value string) {
			if len(md.Get(key)) == 0 {
				md.Set(key, value)
			}
		}
		for _, kv := range static {
			add(kv[0], kv[1])
		}
		// The request's own namespace (and routing headers derived from the
		// request) come first; the configured namespace is the fallback.
		if msg, ok := req.(proto.Message); ok {
			pairs, err := proxy.ExtractTemporalRequestHeaders(ctx, proxy.ExtractHeadersOptions{Request: msg, ExistingMetadata: md})
			if err != nil {
				return err
			}
			for i := 0; i+1 < len(pairs); i += 2 {
				add(pairs[i], pairs[i+1])
			}
		}
		add(HeaderNamespace, o.Namespace)
		if o.HeadersProvider != nil {
			headers, err := userHeaders(ctx, o.HeadersProvider)
			if err != nil {
				return panics.report(err, &panics.headers)
			}
			for k, v := range headers {
				add(k, v)
			}
		}
		if o.APIKey != nil && len(md.Get(HeaderAuthorization)) == 0 {
			key, err := userAPIKey(ctx, o.APIKey)
			if err != nil {
				return panics.report(err, &panics.apiKey)
			}
			if key != "" {
				md.Set(HeaderAuthorization, "Bearer "+key)
			}
		}
		return invoker(metadata.NewOutgoingContext(ctx, md), method, req, reply, cc, opts...)
	}
}

// callbackPanicError is the error of a call whose HeadersProvider or API
// key callback panicked: the call fails with it, unsent, and is not
// retried; the process goes on (go.temporal.io/sdk lets the panic end
// it). A worker's polls that fail so are logged and tried again after a
// backoff, as any failed poll.
type callbackPanicError struct {
	callback string // what panicked, in the words of the client's options
	value    any    // what it panicked with
	stack    string // where
}

func (e *callbackPanicError) Error() string {
	return fmt.Sprintf("%s panicked: %v; the call was not sent", e.callback, e.value)
}

// userHeaders asks the HeadersProvider for its headers, turning a panic
// into an error.
func userHeaders(ctx context.Context, p HeadersProvider) (headers map[string]string, err error) {
	defer recoverCallback("the client's HeadersProvider (client.Options.HeadersProvider)", &err)
	return p.GetHeaders(ctx)
}

// userAPIKey asks the API key callback for the key, turning a panic into
// an error.
func userAPIKey(ctx context.Context, apiKey func(context.Context) (string, error)) (key string, err error) {
	defer recoverCallback("the client's API key callback (client.NewAPIKeyDynamicCredentials)", &err)
	return apiKey(ctx)
}

// recoverCallback, deferred around a call of the user's callback, sets
// *err to a callbackPanicError if the callback panicked.
func recoverCallback(callback string, err *error) {
	if p := recover(); p != nil {
		*err = &callbackPanicError{callback: callback, value: p, stack: string(debug.Stack())}
	}
}

// panicReporter logs the first panic of each callback of a connection,
// with its stack; the calls' errors say the rest each time.
type panicReporter struct {
	logger  log.Logger
	headers sync.Once
	apiKey  sync.Once
}

func (r *panicReporter) report(err error, once *sync.Once) error {
	var p *callbackPanicError
	if r.logger != nil && errors.As(err, &p) {
		once.Do(func() {
			r.logger.Error(p.callback+" panicked; the calls it was asked for fail, unsent, while it does (this is logged once)",
				"PanicError", fmt.Sprint(p.value), "PanicStack", p.stack)
		})
	}
	return err
}
