package sdkmetrics

import (
	"testing"

	"google.golang.org/grpc/codes"
)

func TestStatusCodeNamesAreTheSpecsUpperSnakeCase(t *testing.T) {
	cases := map[codes.Code]string{
		codes.OK:                "OK",
		codes.Canceled:          "CANCELLED",
		codes.DeadlineExceeded:  "DEADLINE_EXCEEDED",
		codes.ResourceExhausted: "RESOURCE_EXHAUSTED",
		codes.Unauthenticated:   "UNAUTHENTICATED",
		codes.Code(42):          "CODE(42)",
	}
	for code, want := range cases {
		if got := StatusCodeName(code); got != want {
			t.Errorf("StatusCodeName(%d) = %q, want %q", code, got, want)
		}
	}
}

func TestRootTagsNameTheNamespaceAndClient(t *testing.T) {
	tags := RootTags("ns")
	if tags[TagNamespace] != "ns" || tags[TagClientName] != "temporal_go" {
		t.Fatalf("root tags %v", tags)
	}
	for _, k := range []string{TagWorkerType, TagWorkflowType, TagActivityType, TagTaskQueue} {
		if tags[k] != ValueNone {
			t.Errorf("root tag %s = %q, want %q until a metric narrows it", k, tags[k], ValueNone)
		}
	}
}
