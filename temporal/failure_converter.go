package temporal

import (
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/failure"
)

// DefaultFailureConverter converts Go errors to Temporal failures and
// back, in the shape that all Temporal SDKs share, so that an error
// raised in one language is read in another: ErrorToFailure encodes an
// error and its chain of causes (this package's error types keep their
// kind; any other error becomes an application failure named after its Go
// type), and FailureToError decodes a failure into this package's error
// types.
type DefaultFailureConverter = failure.DefaultFailureConverter

// DefaultFailureConverterOptions configure NewDefaultFailureConverter.
//
//   - DataConverter: encodes the errors' details. Default (nil): the
//     default data converter.
//   - EncodeCommonAttributes: move each failure's message and stack trace
//     into an encoded payload, so that payload codecs (encryption) cover
//     them too; the message left in clear is "Encoded failure". Default:
//     false.
type DefaultFailureConverterOptions = failure.DefaultFailureConverterOptions

// NewDefaultFailureConverter returns a DefaultFailureConverter with
// options, to set in client.Options.FailureConverter, for instance to
// encrypt error messages:
//
//	FailureConverter: temporal.NewDefaultFailureConverter(temporal.DefaultFailureConverterOptions{
//		DataConverter:          dataConverter,
//		EncodeCommonAttributes: true,
//	}),
func NewDefaultFailureConverter(options DefaultFailureConverterOptions) *DefaultFailureConverter {
	return failure.NewDefaultFailureConverter(options)
}

// GetDefaultFailureConverter returns the failure converter that clients
// use unless client.Options.FailureConverter sets another.
func GetDefaultFailureConverter() converter.FailureConverter {
	return failure.GetDefaultFailureConverter()
}
