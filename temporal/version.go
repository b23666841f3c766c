package temporal

// SDKVersion is the version of go.temporal.io/sdk whose API this SDK
// implements: code written for that version ports by rewriting the import
// prefix. This SDK's own name and version, which its clients send the
// server in their "client-name" and "client-version" headers, are
// "durable-go" and the version of its module (see CHANGELOG.md).
const SDKVersion = "1.50.0"
