// Package workflows is checked on its own: its module registers it
// elsewhere.
package workflows

import (
	"time"

	"github.com/durable-go/sdk/workflow"
)

func Clocked(ctx workflow.Context) (time.Time, error) { // want Clocked:"nondeterministic"
	return time.Now(), nil // want `time.Now called: Clocked; use workflow.Now`
}
