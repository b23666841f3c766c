// Command envconfig connects with client options loaded by
// contrib/envconfig from a TOML profile and TEMPORAL_* environment
// variables, so that the same binary reaches a local dev server, a
// self-hosted cluster over mTLS or Temporal Cloud with an API key without
// a code change. It runs one workflow to show the connection works.
//
//	temporal server start-dev &
//	go run .                                          # the default profile of the user's config file, if any
//	go run . -config temporal.toml -profile default   # a profile of this directory's file
//	TEMPORAL_ADDRESS=127.0.0.1:7299 go run .          # the environment overrides the profile
//	TEMPORAL_API_KEY=... go run . -config temporal.toml -profile apikey
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/contrib/envconfig"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

const taskQueue = "envconfig-example"

func main() {
	configFile := flag.String("config", "", "TOML file of profiles; TEMPORAL_CONFIG_FILE, else temporalio/temporal.toml in the user's config directory")
	profile := flag.String("profile", "", "profile to use; TEMPORAL_PROFILE, else default")
	flag.Parse()
	if err := run(context.Background(), *configFile, *profile, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "envconfig:", err)
		os.Exit(1)
	}
}

// loadOptions returns the client options of a profile of the config file,
// overridden by TEMPORAL_* environment variables. Empty arguments take
// their defaults; a missing default file is no error.
func loadOptions(configFile, profile string) (client.Options, error) {
	return envconfig.LoadClientOptions(envconfig.LoadClientOptionsRequest{
		ConfigFilePath:    configFile,
		ConfigFileProfile: profile,
	})
}

// run connects with the options loadOptions returns, runs a worker and
// one workflow, and writes where it ran to out.
func run(ctx context.Context, configFile, profile string, out io.Writer) error {
	options, err := loadOptions(configFile, profile)
	if err != nil {
		return err
	}
	c, err := client.Dial(options)
	if err != nil {
		return err
	}
	defer c.Close()

	w := worker.New(c, taskQueue, worker.Options{})
	w.RegisterWorkflow(Namespace)
	if err := w.Start(); err != nil {
		return err
	}
	defer w.Stop()

	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: taskQueue}, Namespace)
	if err != nil {
		return err
	}
	var namespace string
	if err := run.Get(ctx, &namespace); err != nil {
		return err
	}
	fmt.Fprintf(out, "connected to %s; a workflow ran in namespace %q\n", orDefault(options.HostPort, client.DefaultHostPort), namespace)
	return nil
}

// Namespace returns the namespace the workflow runs in.
func Namespace(ctx workflow.Context) (string, error) {
	return workflow.GetInfo(ctx).Namespace, nil
}

func orDefault(value, fallback string) string {
	if value == "" {
		return fallback
	}
	return value
}
