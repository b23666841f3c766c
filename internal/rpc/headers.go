package rpc

import (
	"context"

	"go.temporal.io/api/proxy"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"
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
			headers, err := o.HeadersProvider.GetHeaders(ctx)
			if err != nil {
				return err
			}
			for k, v := range headers {
				add(k, v)
			}
		}
		if o.APIKey != nil && len(md.Get(HeaderAuthorization)) == 0 {
			key, err := o.APIKey(ctx)
			if err != nil {
				return err
			}
			if key != "" {
				md.Set(HeaderAuthorization, "Bearer "+key)
			}
		}
		return invoker(metadata.NewOutgoingContext(ctx, md), method, req, reply, cc, opts...)
	}
}
