package temporal

import "github.com/durable-go/sdk/internal/rpc"

// SDKVersion is the version of go.temporal.io/sdk whose API and protocol
// this SDK implements. Clients send it to the server in the
// "client-version" header, with "temporal-go" as "client-name", because
// the server checks those headers and enables features by them.
const SDKVersion = rpc.DefaultClientVersion
