package main

import (
	"context"
	"sync/atomic"
	"time"

	ours "github.com/durable-go/sdk/workflow"
	official "go.temporal.io/sdk/workflow"
)

// The same workflows written against each SDK, registered under the same
// names on each side's own task queue. SequentialActivitiesWorkflow and
// PingPongWorkflow are the code that recorded the replayed histories
// (tools/recordhistories/workflows.go); the load workloads reuse
// SequentialActivitiesWorkflow with n = activities per workflow, and
// LocalActivitiesWorkflow runs n local activities instead.

const (
	sequentialName = "SequentialActivitiesWorkflow"
	pingPongName   = "PingPongWorkflow"
	waitSignalName = "WaitSignalWorkflow"
	// localActivitiesName runs n local activities one after the other.
	localActivitiesName = "LocalActivitiesWorkflow"
	// releaseSignal completes a WaitSignalWorkflow.
	releaseSignal = "release"
)

// entered counts the WaitSignalWorkflow runs that have started executing
// in this (worker) process; the memory workload polls it.
var entered atomic.Int64

// Increment is the activity: it returns i+1.
func Increment(ctx context.Context, i int) (int, error) { return i + 1, nil }

var activityTimeout = 10 * time.Second

func sequentialOurs(ctx ours.Context, n int) (int, error) {
	ctx = ours.WithActivityOptions(ctx, ours.ActivityOptions{StartToCloseTimeout: activityTimeout})
	v := 0
	for i := 0; i < n; i++ {
		if err := ours.ExecuteActivity(ctx, Increment, v).Get(ctx, &v); err != nil {
			return 0, err
		}
	}
	return v, nil
}

func sequentialOfficial(ctx official.Context, n int) (int, error) {
	ctx = official.WithActivityOptions(ctx, official.ActivityOptions{StartToCloseTimeout: activityTimeout})
	v := 0
	for i := 0; i < n; i++ {
		if err := official.ExecuteActivity(ctx, Increment, v).Get(ctx, &v); err != nil {
			return 0, err
		}
	}
	return v, nil
}

// localActivitiesOurs runs Increment n times as a local activity, one
// after the other.
func localActivitiesOurs(ctx ours.Context, n int) (int, error) {
	ctx = ours.WithLocalActivityOptions(ctx, ours.LocalActivityOptions{StartToCloseTimeout: activityTimeout})
	v := 0
	for i := 0; i < n; i++ {
		if err := ours.ExecuteLocalActivity(ctx, Increment, v).Get(ctx, &v); err != nil {
			return 0, err
		}
	}
	return v, nil
}

func localActivitiesOfficial(ctx official.Context, n int) (int, error) {
	ctx = official.WithLocalActivityOptions(ctx, official.LocalActivityOptions{StartToCloseTimeout: activityTimeout})
	v := 0
	for i := 0; i < n; i++ {
		if err := official.ExecuteLocalActivity(ctx, Increment, v).Get(ctx, &v); err != nil {
			return 0, err
		}
	}
	return v, nil
}

func pingPongOurs(ctx ours.Context, n int) (int, error) {
	ch1, ch2, done := ours.NewChannel(ctx), ours.NewChannel(ctx), ours.NewChannel(ctx)
	ours.Go(ctx, func(ctx ours.Context) {
		v := 0
		for i := 0; i < n; i++ {
			ch1.Send(ctx, v)
			ch2.Receive(ctx, &v)
		}
		done.Send(ctx, v)
	})
	ours.Go(ctx, func(ctx ours.Context) {
		for i := 0; i < n; i++ {
			var v int
			ch1.Receive(ctx, &v)
			ch2.Send(ctx, v+1)
		}
	})
	var result int
	done.Receive(ctx, &result)
	return result, nil
}

func pingPongOfficial(ctx official.Context, n int) (int, error) {
	ch1, ch2, done := official.NewChannel(ctx), official.NewChannel(ctx), official.NewChannel(ctx)
	official.Go(ctx, func(ctx official.Context) {
		v := 0
		for i := 0; i < n; i++ {
			ch1.Send(ctx, v)
			ch2.Receive(ctx, &v)
		}
		done.Send(ctx, v)
	})
	official.Go(ctx, func(ctx official.Context) {
		for i := 0; i < n; i++ {
			var v int
			ch1.Receive(ctx, &v)
			ch2.Send(ctx, v+1)
		}
	})
	var result int
	done.Receive(ctx, &result)
	return result, nil
}

// waitSignalOurs is cached by the worker while it waits for the release
// signal; entered counts it the first time its code runs (and again if
// it is replayed after an eviction, which the memory workload does not
// expect).
func waitSignalOurs(ctx ours.Context) (string, error) {
	entered.Add(1)
	var s string
	ours.GetSignalChannel(ctx, releaseSignal).Receive(ctx, &s)
	return s, nil
}

func waitSignalOfficial(ctx official.Context) (string, error) {
	entered.Add(1)
	var s string
	official.GetSignalChannel(ctx, releaseSignal).Receive(ctx, &s)
	return s, nil
}
