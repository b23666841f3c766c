package clientimpl

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/durable-go/sdk/internal"
)

type panickingTrafficController struct{}

func (panickingTrafficController) CheckCallAllowed(context.Context, string, any, any) error {
	panic("the rate table is gone")
}

// A TrafficController that panics fails the call it was asked about,
// unsent; the process goes on.
func TestPanickingTrafficControllerFailsTheCall(t *testing.T) {
	c, err := NewLazyClient(internal.ClientOptions{HostPort: "127.0.0.1:1", TrafficController: panickingTrafficController{}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err = c.DescribeWorkflowExecution(ctx, "wf", "")
	want := "the client's TrafficController (client.Options.TrafficController) panicked: the rate table is gone; the call was not sent"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("a call whose TrafficController panics: %v, want %q", err, want)
	}
}
