// Command saga books two trips with a saga: the first books its car,
// hotel and flight; the second cannot get a flight, so its hotel and car
// reservations are canceled, in that order (see the worker's log).
//
//	temporal server start-dev &    # or TEMPORAL_ADDRESS=host:port
//	go run ./examples/saga
package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/worker"
)

const taskQueue = "saga-example"

// tripWorkflowID is the ID of the workflow that books a traveller's trip:
// a fixed one, as a business ID would be, so that the example's test can
// read the history it wrote.
func tripWorkflowID(traveller string) string { return "saga-trip-" + traveller }

func main() {
	// An empty address is client.DefaultHostPort, localhost:7233, where
	// `temporal server start-dev` listens.
	if err := run(context.Background(), os.Getenv("TEMPORAL_ADDRESS"), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "saga:", err)
		os.Exit(1)
	}
}

// run runs a worker and the example's client against the server at
// hostPort, and writes what the client sees to out.
func run(ctx context.Context, hostPort string, out io.Writer) error {
	c, err := client.Dial(client.Options{HostPort: hostPort})
	if err != nil {
		return err
	}
	defer c.Close()

	w := worker.New(c, taskQueue, worker.Options{})
	w.RegisterWorkflow(BookTrip)
	for _, a := range []any{ReserveCar, ReserveHotel, ReserveFlight, CancelCar, CancelHotel, CancelFlight} {
		w.RegisterActivity(a)
	}
	if err := w.Start(); err != nil {
		return err
	}
	defer w.Stop()

	for _, trip := range []Trip{{"Ada", "Lisbon"}, {"Grace", "Atlantis"}} {
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: tripWorkflowID(trip.Traveller), TaskQueue: taskQueue}, BookTrip, trip)
		if err != nil {
			return err
		}
		if err := run.Get(ctx, nil); err != nil {
			fmt.Fprintf(out, "%s's trip to %s was not booked, and was undone: %v\n", trip.Traveller, trip.Destination, err)
			continue
		}
		fmt.Fprintf(out, "%s's trip to %s is booked\n", trip.Traveller, trip.Destination)
	}
	return nil
}
