package main

import (
	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/contrib/envconfig"
	"github.com/durable-go/sdk/worker"
	"github.com/temporalio/samples-go/standalone-activity/helloworld"
	"log"
)

func main() {
	// The client and worker are heavyweight objects that should be created once per process.
	c, err := client.Dial(envconfig.MustLoadDefaultClientOptions())
	if err != nil {
		log.Fatalln("Unable to create client", err)
	}
	defer c.Close()

	w := worker.New(c, "standalone-activity-helloworld", worker.Options{})

	w.RegisterActivity(helloworld.Activity)

	err = w.Run(worker.InterruptCh())
	if err != nil {
		log.Fatalln("Unable to start worker", err)
	}
}
