package testsuite_test

import (
	"context"
	"fmt"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/converter"
)

func Greet(ctx context.Context, name string) (string, error) { return "Hello, " + name + "!", nil }

func toString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case error:
		return x.Error()
	case nil:
		return "<nil>"
	}
	return fmt.Sprint(v)
}

// workflowPayload decodes one payload with the default converter.
func workflowPayload(p *commonpb.Payload, valuePtr any) error {
	return converter.GetDefaultDataConverter().FromPayload(p, valuePtr)
}
