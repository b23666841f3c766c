// Package worker runs workflow and activity code: a Worker polls a task
// queue of a Temporal server for tasks and executes the functions
// registered with it; a WorkflowReplayer replays recorded histories against
// workflow code to catch changes that would break running workflows.
//
// A worker process typically dials a client, makes one worker per task
// queue, registers its workflows and activities, and runs until
// interrupted:
//
//	c, err := client.Dial(client.Options{})
//	if err != nil {
//		log.Fatalln("Unable to create client", err)
//	}
//	defer c.Close()
//
//	w := worker.New(c, "orders", worker.Options{})
//	w.RegisterWorkflow(OrderWorkflow)
//	w.RegisterActivity(&Activities{DB: db})
//	if err := w.Run(worker.InterruptCh()); err != nil {
//		log.Fatalln("Worker stopped", err)
//	}
//
// Scale out by running more such processes: the server spreads the task
// queue's tasks over all workers that poll it.
package worker
