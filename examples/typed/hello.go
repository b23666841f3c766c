package main

import (
	"context"
	"time"

	"github.com/durable-go/sdk/typed"
	"github.com/durable-go/sdk/workflow"
)

// Greet is the hello world's activity.
func Greet(ctx context.Context, name string) (string, error) {
	return "Hello, " + name + "!", nil
}

// Greeting is the hello world's workflow. typed.ExecuteActivity checks
// name against Greet's parameter and returns a string, Greet's result:
// typed.ExecuteActivity(ctx, Greet, 42) does not compile.
func Greeting(ctx workflow.Context, name string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	return typed.ExecuteActivity(ctx, Greet, name).Get(ctx)
}
