module github.com/temporalio/samples-go

go 1.26.0

replace (
	github.com/durable-go/sdk => ../..
	github.com/durable-go/sdk/contrib/envconfig => ../../contrib/envconfig
	github.com/durable-go/sdk/contrib/opentracing => ../../contrib/opentracing
)

require (
	github.com/durable-go/sdk v0.0.0
	github.com/durable-go/sdk/contrib/envconfig v0.0.0-00010101000000-000000000000
	github.com/durable-go/sdk/contrib/opentracing v0.0.0-00010101000000-000000000000
	github.com/google/uuid v1.6.0
	github.com/nexus-rpc/sdk-go v0.7.0
	github.com/opentracing/opentracing-go v1.2.0
	github.com/pborman/uuid v1.2.1
	github.com/stretchr/testify v1.12.1
	github.com/uber/jaeger-client-go v2.30.0+incompatible
	go.temporal.io/api v1.64.3
	google.golang.org/grpc v1.83.2
	google.golang.org/protobuf v1.36.11
)

require (
	github.com/HdrHistogram/hdrhistogram-go v1.4.0 // indirect
	github.com/grpc-ecosystem/grpc-gateway/v2 v2.22.0 // indirect
	github.com/nexus-rpc/nexus-proto-annotations v0.1.0 // indirect
	github.com/pelletier/go-toml/v2 v2.4.3 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	github.com/stretchr/objx v0.5.3 // indirect
	github.com/uber/jaeger-lib v2.4.1+incompatible // indirect
	go.uber.org/atomic v1.12.0 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/net v0.58.0 // indirect
	golang.org/x/sys v0.47.0 // indirect
	golang.org/x/text v0.41.0 // indirect
	google.golang.org/genproto/googleapis/api v0.0.0-20260526163538-3dc84a4a5aaa // indirect
	google.golang.org/genproto/googleapis/rpc v0.0.0-20260526163538-3dc84a4a5aaa // indirect
)
