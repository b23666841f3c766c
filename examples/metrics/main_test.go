package main

import (
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/testharness"
)

func TestMain(m *testing.M) { testharness.Main(m) }

// TestMetricsPageHasTheOfficialNames runs the example against the dev
// server, on a free port, and scrapes /metrics as Prometheus would.
func TestMetricsPageHasTheOfficialNames(t *testing.T) {
	app, err := startApp(testharness.HostPort(t), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	run, err := app.Client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: taskQueue}, Greeting, "test")
	if err != nil {
		t.Fatal(err)
	}
	var greeting string
	if err := run.Get(ctx, &greeting); err != nil || greeting != "Hello, test!" {
		t.Fatalf("result %q, %v", greeting, err)
	}
	waitForTheOfficialNames(t, app.MetricsAddr())
}

// waitForTheOfficialNames scrapes the /metrics page served at addr, as
// Prometheus would, until it shows the samples of one Greeting workflow
// run, under the names and tags of go.temporal.io/sdk's metrics.
func waitForTheOfficialNames(t *testing.T, addr string) {
	t.Helper()
	// Each wanted sample, as a line of the Prometheus text format (whose
	// naming scope writes the task queue metrics-example as metrics_example).
	wanted := map[string]*regexp.Regexp{
		"one start":                 regexp.MustCompile(`^temporal_request_total\{[^}]*operation="StartWorkflowExecution"[^}]*\} 1$`),
		"tags of a request":         regexp.MustCompile(`^temporal_request_total\{activity_type="none",client_name="temporal_go",namespace="default",operation="StartWorkflowExecution",task_queue="metrics_example",worker_type="none",workflow_type="Greeting"\} 1$`), // a start is tagged with its workflow type and task queue, as in go.temporal.io/sdk
		"a workflow task poll":      regexp.MustCompile(`^temporal_long_request_total\{[^}]*operation="PollWorkflowTaskQueue"[^}]*\} [1-9]`),
		"a latency histogram":       regexp.MustCompile(`^temporal_request_latency_seconds_bucket\{[^}]*operation="StartWorkflowExecution"[^}]*le="\+Inf"\} 1$`),
		"a long poll latency":       regexp.MustCompile(`^temporal_long_request_latency_seconds_count\{[^}]*operation="GetWorkflowExecutionHistory"`),
		"the activity's own count":  regexp.MustCompile(`^example_greetings_total\{[^}]*activity_type="Greet"[^}]*\} 1$`),
		"the workflow's completion": regexp.MustCompile(`^temporal_workflow_completed_total\{[^}]*task_queue="metrics_example",worker_type="none",workflow_type="Greeting"\} 1$`),
		"a workflow task's wait":    regexp.MustCompile(`^temporal_workflow_task_schedule_to_start_latency_seconds_count\{[^}]*workflow_type="Greeting"\} [1-9]`),
		"the activity's run time":   regexp.MustCompile(`^temporal_activity_execution_latency_seconds_count\{activity_type="Greet",[^}]*workflow_type="Greeting"\} 1$`),
		"the sticky cache":          regexp.MustCompile(`^temporal_sticky_cache_size\{[^}]*workflow_type="Greeting"\} `),
		"free workflow task slots":  regexp.MustCompile(`^temporal_worker_task_slots_available\{[^}]*worker_type="WorkflowWorker"[^}]*\} 1000$`),
	}
	var page string
	deadline := time.Now().Add(10 * time.Second)
	for {
		page = scrape(t, "http://"+addr+"/metrics")
		missing := missingSamples(page, wanted)
		if len(missing) == 0 {
			return
		}
		// The scope reports to the registry every second.
		if time.Now().After(deadline) {
			t.Fatalf("/metrics lacks %v; the temporal_ lines:\n%s", missing, temporalLines(page))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func scrape(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s, %v", url, resp.Status, err)
	}
	return string(body)
}

func missingSamples(page string, wanted map[string]*regexp.Regexp) []string {
	var missing []string
	lines := strings.Split(page, "\n")
	for what, re := range wanted {
		found := false
		for _, line := range lines {
			if re.MatchString(line) {
				found = true
				break
			}
		}
		if !found {
			missing = append(missing, what)
		}
	}
	return missing
}

func temporalLines(page string) string {
	var out []string
	for _, line := range strings.Split(page, "\n") {
		if strings.HasPrefix(line, "temporal_") || strings.HasPrefix(line, "example_") {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}
