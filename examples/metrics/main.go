// Command metrics runs a worker whose SDK metrics Prometheus can scrape:
// the client's request counts, failures and latencies
// (temporal_request_total, temporal_long_request_latency_seconds_bucket,
// ...) and the metrics that workflows and activities record, served at
// /metrics in the Prometheus text format through tally's Prometheus
// reporter and contrib/tally.
//
//	cd examples/metrics && go run .                  # starts a local dev server too
//	cd examples/metrics && go run . -address localhost:7233 -listen :9090
//	curl -s localhost:9090/metrics | grep ^temporal_
//
// It starts one greeting workflow at launch so that the page has something
// to show, and serves until interrupted.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"time"

	prom "github.com/prometheus/client_golang/prometheus"
	"github.com/uber-go/tally/v4"
	"github.com/uber-go/tally/v4/prometheus"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/client"
	sdktally "github.com/durable-go/sdk/contrib/tally"
	"github.com/durable-go/sdk/testsuite"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

const taskQueue = "metrics-example"

// Greet is the activity; it counts its calls in a metric of its own.
func Greet(ctx context.Context, name string) (string, error) {
	activity.GetMetricsHandler(ctx).Counter("example_greetings").Inc(1)
	return "Hello, " + name + "!", nil
}

// Greeting is the workflow.
func Greeting(ctx workflow.Context, name string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	var greeting string
	err := workflow.ExecuteActivity(ctx, Greet, name).Get(ctx, &greeting)
	return greeting, err
}

func main() {
	address := flag.String("address", "", "host:port of the Temporal server; empty starts a local dev server")
	listen := flag.String("listen", "127.0.0.1:9090", "address to serve /metrics on")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *address, *listen, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "metrics:", err)
		os.Exit(1)
	}
}

// run serves the metrics of a client and worker connected to the server
// at address (empty: a dev server it starts), runs one workflow, and
// serves until ctx ends; it writes what it does to out.
func run(ctx context.Context, address, listen string, out io.Writer) error {
	if address == "" {
		server, err := testsuite.StartDevServer(ctx, testsuite.DevServerOptions{})
		if err != nil {
			return err
		}
		defer server.Stop()
		address = server.FrontendHostPort()
		fmt.Fprintln(out, "dev server running at", address)
	}
	app, err := startApp(address, listen)
	if err != nil {
		return err
	}
	defer app.Close()
	fmt.Fprintf(out, "serving metrics at http://%s/metrics\n", app.MetricsAddr())

	run, err := app.Client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: taskQueue}, Greeting, "Prometheus")
	if err != nil {
		return err
	}
	var greeting string
	if err := run.Get(ctx, &greeting); err != nil {
		return err
	}
	fmt.Fprintln(out, greeting, "- press Ctrl-C to stop")
	<-ctx.Done()
	return nil
}

// app is a client and worker whose metrics are served over HTTP.
type app struct {
	Client   client.Client
	worker   worker.Worker
	listener net.Listener
	server   *http.Server
	closer   interface{ Close() error }
}

// newPrometheusScope returns a tally scope that reports to a Prometheus
// registry of its own, named the way the official SDK's dashboards expect,
// with the handler that serves the registry.
func newPrometheusScope() (tally.Scope, interface{ Close() error }, http.Handler) {
	reporter := prometheus.NewReporter(prometheus.Options{
		Registerer: prom.NewRegistry(),
		// Histograms, not summaries: dashboards aggregate their buckets
		// across workers.
		DefaultTimerType: prometheus.HistogramTimerType,
		OnRegisterError:  func(err error) { fmt.Fprintln(os.Stderr, "metrics: registering a metric:", err) },
	})
	scope, closer := tally.NewRootScope(tally.ScopeOptions{
		CachedReporter:  reporter,
		Separator:       prometheus.DefaultSeparator,
		SanitizeOptions: &sdktally.PrometheusSanitizeOptions,
	}, time.Second)
	return sdktally.NewPrometheusNamingScope(scope), closer, reporter.HTTPHandler()
}

// startApp connects to the server at address, starts a worker for the
// example's workflow, and serves /metrics on listen ("host:0" picks a free
// port; MetricsAddr tells which).
func startApp(address, listen string) (*app, error) {
	scope, closer, metricsHandler := newPrometheusScope()
	c, err := client.Dial(client.Options{HostPort: address, MetricsHandler: sdktally.NewMetricsHandler(scope)})
	if err != nil {
		_ = closer.Close()
		return nil, err
	}
	w := worker.New(c, taskQueue, worker.Options{})
	w.RegisterWorkflow(Greeting)
	w.RegisterActivity(Greet)
	if err := w.Start(); err != nil {
		c.Close()
		_ = closer.Close()
		return nil, err
	}
	listener, err := net.Listen("tcp", listen)
	if err != nil {
		w.Stop()
		c.Close()
		_ = closer.Close()
		return nil, fmt.Errorf("serving metrics on %s: %w", listen, err)
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", metricsHandler)
	a := &app{Client: c, worker: w, listener: listener, server: &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}, closer: closer}
	go func() {
		if err := a.server.Serve(listener); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintln(os.Stderr, "metrics: serving /metrics:", err)
		}
	}()
	return a, nil
}

// MetricsAddr is the address /metrics is served on.
func (a *app) MetricsAddr() string { return a.listener.Addr().String() }

// Close stops serving, the worker and the client, and flushes the scope.
func (a *app) Close() {
	_ = a.server.Close()
	a.worker.Stop()
	a.Client.Close()
	_ = a.closer.Close()
}
