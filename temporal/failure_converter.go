package temporal

import (
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/failure"
)

type (
	// DefaultFailureConverter converts errors to failure protos and back in
	// the shape all Temporal SDKs share.
	DefaultFailureConverter = failure.DefaultFailureConverter

	// DefaultFailureConverterOptions configures NewDefaultFailureConverter:
	// the data converter for details, and whether to encode messages and
	// stack traces (so that payload codecs cover them).
	DefaultFailureConverterOptions = failure.DefaultFailureConverterOptions
)

// NewDefaultFailureConverter returns a DefaultFailureConverter.
func NewDefaultFailureConverter(options DefaultFailureConverterOptions) *DefaultFailureConverter {
	return failure.NewDefaultFailureConverter(options)
}

// GetDefaultFailureConverter returns the failure converter used unless the
// client options set another.
func GetDefaultFailureConverter() converter.FailureConverter {
	return failure.GetDefaultFailureConverter()
}
