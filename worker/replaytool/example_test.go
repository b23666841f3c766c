package replaytool_test

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/worker/replaytool"
)

// The main package of a module's replay command: go run ./cmd/replay
// testdata/histories.
func ExampleMain() {
	replaytool.Main(replaytool.Config{Register: func(r worker.Registry) {
		r.RegisterWorkflow(SequentialActivitiesWorkflow)
	}})
}

func ExampleRun() {
	code := replaytool.Run(context.Background(), replaytool.Config{Register: register},
		[]string{"../../testdata/histories/sequential3.json"}, os.Stdout, io.Discard)
	fmt.Println("exit status", code)
	// Output:
	// ok    ../../testdata/histories/sequential3.json
	// exit status 0
}
