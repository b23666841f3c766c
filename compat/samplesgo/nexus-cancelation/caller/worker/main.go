package main

import (
	"log"
	"os"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/worker"

	"github.com/temporalio/samples-go/nexus-cancelation/caller"
	"github.com/temporalio/samples-go/nexus/options"
)

func main() {
	// The client and worker are heavyweight objects that should be created once per process.
	clientOptions, err := options.ParseClientOptionFlags(os.Args[1:])
	if err != nil {
		log.Fatalf("Invalid arguments: %v", err)
	}
	c, err := client.Dial(clientOptions)
	if err != nil {
		log.Fatalln("Unable to create client", err)
	}
	defer c.Close()

	w := worker.New(c, caller.TaskQueue, worker.Options{})
	w.RegisterWorkflow(caller.HelloCallerWorkflow)
	err = w.Run(worker.InterruptCh())
	if err != nil {
		log.Fatalln("Unable to start worker", err)
	}
}
