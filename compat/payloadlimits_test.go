package compat

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/serviceerror"
	officialclient "go.temporal.io/sdk/client"
	"google.golang.org/grpc/status"

	"github.com/durable-go/sdk/client"
)

// A workflow argument over the server's limits fails the start with the
// same kind of error on both SDKs: 3 MB, over the server's limit on the
// payloads of a field, an InvalidArgument; 5 MB, over the server's gRPC
// message limit, an error of code ResourceExhausted that is no
// serviceerror. This SDK's says, for both, what was too big, which limit,
// and what to do (issue 32 item 6: the 5 MB one was gRPC's bare "received
// message larger than max (5243038 vs. 4194304)").

// errorKind is what code can tell of an error without reading its text.
type errorKind struct {
	code, grpcCode                     string
	invalidArgument, resourceExhausted bool
}

func kindOf(err error) errorKind {
	var invalid *serviceerror.InvalidArgument
	var exhausted *serviceerror.ResourceExhausted
	return errorKind{
		code:              serviceerror.ToStatus(err).Code().String(),
		grpcCode:          status.Code(err).String(),
		invalidArgument:   errors.As(err, &invalid),
		resourceExhausted: errors.As(err, &exhausted),
	}
}

func TestAnArgumentOverTheServersLimitsFailsAlikeAndSaysWhatToDo(t *testing.T) {
	ours, theirs := dialBoth(t)
	for _, c := range []struct {
		megabytes int
		code      string
		says      []string // what this SDK's error says
	}{
		{3, "InvalidArgument", []string{"Blob data size exceeds limit", "limit.blobSize.error (2 MiB by default)", "the request carries 3.0 MiB of payloads", "keep large data out of payloads"}},
		{5, "ResourceExhausted", []string{"StartWorkflowExecution request (5.0 MiB, 5.0 MiB of it payloads)", "over the server's limit on a gRPC message of 4.0 MiB", "keep large data out of payloads"}},
	} {
		arg := strings.Repeat("x", c.megabytes<<20)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		id := fmt.Sprintf("large-argument-%d-%d", c.megabytes, time.Now().UnixNano())
		_, ourErr := ours.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id + "-ours", TaskQueue: "nobody-polls-this"}, "TakesLarge", arg)
		_, theirErr := theirs.ExecuteWorkflow(ctx, officialclient.StartWorkflowOptions{ID: id + "-official", TaskQueue: "nobody-polls-this"}, "TakesLarge", arg)
		cancel()
		if ourErr == nil || theirErr == nil {
			t.Fatalf("%d MB: a start succeeded: ours %v, go.temporal.io/sdk %v", c.megabytes, ourErr, theirErr)
		}
		ourKind, theirKind := kindOf(ourErr), kindOf(theirErr)
		if ourKind != theirKind || theirKind.code != c.code {
			t.Errorf("%d MB: this SDK's error is %+v (%T), go.temporal.io/sdk's %+v (%T); want both of code %s",
				c.megabytes, ourKind, ourErr, theirKind, theirErr, c.code)
		}
		for _, part := range c.says {
			if !strings.Contains(ourErr.Error(), part) {
				t.Errorf("%d MB: the error lacks %q: %v", c.megabytes, part, ourErr)
			}
		}
	}
}
