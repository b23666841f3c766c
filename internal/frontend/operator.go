package frontend

import "go.temporal.io/api/operatorservice/v1"

// Operator is the OperatorService of a Frontend: the Nexus endpoints
// (nexusendpoints.go) and search attributes (searchattributes.go). Its
// other calls answer Unimplemented, saying to use a dev server
// (unimplemented.go).
type Operator struct {
	operatorservice.UnimplementedOperatorServiceServer

	f *Frontend
}
