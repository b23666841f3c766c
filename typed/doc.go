// Package typed is a typed API over the workflow and client packages: the
// compiler checks the arguments and results of activities, child
// workflows, workflows started from a client, signals, queries and
// updates, which the untyped calls take as interface{} and can only check
// when they run, in the worker, often in production.
//
//	package main
//
//	import (
//		"context"
//		"fmt"
//		"log"
//		"time"
//
//		"github.com/durable-go/sdk/client"
//		"github.com/durable-go/sdk/typed"
//		"github.com/durable-go/sdk/worker"
//		"github.com/durable-go/sdk/workflow"
//	)
//
//	func Greet(ctx context.Context, name string) (string, error) {
//		return "Hello, " + name + "!", nil
//	}
//
//	func Greeting(ctx workflow.Context, name string) (string, error) {
//		ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
//		return typed.ExecuteActivity(ctx, Greet, name).Get(ctx) // with 42 for name, it would not compile
//	}
//
//	func main() {
//		c, err := client.Dial(client.Options{})
//		if err != nil {
//			log.Fatal(err)
//		}
//		defer c.Close()
//		w := worker.New(c, "hello", worker.Options{})
//		w.RegisterWorkflow(Greeting)
//		w.RegisterActivity(Greet)
//		if err := w.Start(); err != nil {
//			log.Fatal(err)
//		}
//		defer w.Stop()
//
//		ctx := context.Background()
//		run, err := typed.ExecuteWorkflow(ctx, c, client.StartWorkflowOptions{TaskQueue: "hello"}, Greeting, "Temporal")
//		if err != nil {
//			log.Fatal(err)
//		}
//		greeting, err := run.Get(ctx) // a string, as Greeting returns
//		if err != nil {
//			log.Fatal(err)
//		}
//		fmt.Println(greeting)
//	}
//
// Every call here is a thin layer over the untyped call of the same name
// (typed.ExecuteActivity over workflow.ExecuteActivity, typed.SignalWorkflow
// over client.Client.SignalWorkflow, ...): the same commands, the same
// payloads, the same history, the same interceptors, tracing, data
// converter and codecs. A workflow can mix typed and untyped calls, and a
// workflow moved from one to the other replays its old histories; see
// docs/migration.md for adopting it one call at a time.
//
// # Functions of every shape
//
// Go cannot say "a function of any number of parameters" in a type, so a
// call that takes a function comes in one form per shape of function, all
// named alike:
//
//   - no suffix: a function of one parameter after its context, the
//     common case (and the single-struct-input convention):
//     ExecuteActivity(ctx, Charge, order);
//   - 0, 2, 3: a function of that many: ExecuteActivity0(ctx, Ping),
//     ExecuteActivity2(ctx, Add, 1, 2);
//   - NoResult: a function that returns only an error:
//     ExecuteActivityNoResult(ctx, SendReceipt, order).
//
// The calls of this form are ExecuteActivity, ExecuteLocalActivity,
// ExecuteChildWorkflow, NewContinueAsNewError and
// NewContinueAsNewErrorWithOptions in workflows; ExecuteWorkflow,
// SignalWithStartWorkflow and NewWithStartWorkflowOperation in clients;
// typedtest.ExecuteWorkflow, typedtest.OnActivity and typedtest.OnWorkflow
// in tests. A function of more than three parameters takes a struct
// instead, or keeps the untyped call.
//
// # Results
//
// A Future[R] (ChildWorkflowFuture[R] for a child, WorkflowRun[R] and
// UpdateHandle[R] in clients) wraps the untyped future and returns an R
// from Get. A function that returns only an error gives a Future[None]:
// None is the type of a missing value, for which nothing is encoded or
// decoded. A Future works where an untyped one does: Untyped returns it
// for workflow.Selector (or use AddFuture), IsReady serves workflow.Await.
//
// # Signals, queries and updates
//
// A Signal, Query, Query0 (no argument) or Update is a definition: a
// message's name and types, declared once and used on both sides, so that
// the workflow and its callers cannot disagree on either.
//
//	var (
//		OrderPaid   = typed.NewSignal[Payment]("order-paid")
//		OrderStatus = typed.NewQuery0[Status]("status")
//		AddItem     = typed.NewUpdate[Item, int]("add-item")
//	)
//
// The workflow side: GetSignalChannel returns a ReceiveChannel[T];
// SetQueryHandler, SetQueryHandler0 and SetUpdateHandler take a handler
// whose signature the compiler checks against the definition;
// SignalExternalWorkflow and SignalChildWorkflow send. The client side:
// SignalWorkflow, QueryWorkflow, QueryWorkflow0, UpdateWorkflow,
// UpdateWithStartWorkflow and SignalWithStartWorkflow. Each takes the
// definition where the untyped call takes the name.
//
// # Continue-as-new
//
// NewContinueAsNewError returns the error that continues the workflow as a
// new run, as workflow.NewContinueAsNewError does, with the new run's
// arguments checked against its workflow function's parameters:
//
//	return Tally{}, typed.NewContinueAsNewError(ctx, Accumulate, tally) // with a Tally for tally only
//
// # Coroutines, channels and side effects
//
// Go runs a function in a workflow coroutine and returns a Future of its
// result; NewFuture returns a Future[R] and the Settable[R] that sets it;
// Channel[T] (NewChannel, NewBufferedChannel, ...) is a workflow channel
// of T; SideEffect and MutableSideEffect return a T.
//
// # Tests
//
// Package typed/typedtest has the test environment's typed calls:
// ExecuteWorkflow returns the workflow's result as its function's type,
// OnActivity mocks an activity and OnWorkflow a child workflow with
// results of their own types, and SignalWorkflow, QueryWorkflow and
// UpdateWorkflow take definitions.
// typedtest.CompareHistories checks that a workflow moved to this package
// writes the history it wrote before.
//
// # Design
//
// Other durable-execution SDKs for Go type their calls with generics too.
// go-workflows types the result (workflow.ExecuteActivity[R](ctx, options,
// fn, args...)) but leaves the arguments unchecked; DBOS, Restate and the
// official SDK's Nexus operations (nexus.NewSyncOperation[I, O]) take one
// input and one output, which fits new code but not the existing
// activities and workflows of several parameters that this SDK runs
// unchanged. This package checks every argument and the result of the
// functions as they are, with one call per shape of function, and keeps
// the names of the untyped calls so that moving a call is a change of
// package: workflow.ExecuteActivity becomes typed.ExecuteActivity, a
// message's name becomes its definition. There is no code to generate and
// nothing to register beyond what the untyped API registers. The typed
// layer costs no more than the untyped calls: the benchmarks in this
// package replay and run the same workload both ways.
package typed
