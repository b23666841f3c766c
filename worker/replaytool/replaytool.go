// Package replaytool is the replay command for CI: it replays recorded
// workflow histories against the workflow code of the program that calls
// it, and prints one line per history, "ok" or "FAIL" with what differs.
// Its exit status is non-zero when any history fails, so a pull request
// that would break running workflows fails its build.
//
// A command cannot import your workflows on its own, so the command is a
// short main in your module that registers them, as your worker does:
//
//	// Command replay replays recorded histories against this module's workflows.
//	package main
//
//	import (
//		"github.com/durable-go/sdk/worker/replaytool"
//
//		"example.com/shop/orders"
//	)
//
//	func main() {
//		replaytool.Main(replaytool.Config{Register: orders.RegisterWorkflows})
//	}
//
// where orders.RegisterWorkflows is the func(worker.Registry) the worker
// calls too (activities it registers are ignored: replay never runs them).
// Then, in CI:
//
//	go run ./cmd/replay testdata/histories
//
// replays every *.json file under the folder (written by `temporal
// workflow show --output json`, or by -save below). With -query it fetches
// the histories of the runs a visibility query lists from a server
// instead, for a check against what runs in production now:
//
//	go run ./cmd/replay -address temporal.example:7233 -namespace shop \
//		-query 'WorkflowType = "Order" AND ExecutionStatus = "Running"'
//
// and with -save DIR it also writes each fetched history into DIR, which
// is how a repository records the histories it commits. Run the command
// with -h for every flag.
//
// The same check runs as a Go test through Run:
//
//	func TestReplayRecordedHistories(t *testing.T) {
//		var out bytes.Buffer
//		if replaytool.Run(context.Background(), replaytool.Config{Register: orders.RegisterWorkflows},
//			[]string{"testdata/histories"}, &out, &out) != 0 {
//			t.Fatal(out.String())
//		}
//	}
package replaytool

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/nexus-rpc/sdk-go/nexus"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/log"
	"github.com/durable-go/sdk/worker"
)

// Exit statuses of Run and Main.
const (
	// ExitOK: every history replayed.
	ExitOK = 0
	// ExitFailed: at least one history did not replay.
	ExitFailed = 1
	// ExitUsage: the command was misused, or found nothing to replay.
	ExitUsage = 2
)

// Config is what the program that runs the command knows and its flags
// cannot say.
type Config struct {
	// Register registers the workflows to replay, as for a worker.
	// Required.
	Register func(worker.Registry)
	// ReplayerOptions are the replayer's: the data converter, context
	// propagators and interceptors must be those of the workers that
	// wrote the histories.
	ReplayerOptions worker.WorkflowReplayerOptions
	// ClientOptions are the connection for -query (TLS, credentials, data
	// converter); the -address and -namespace flags override HostPort and
	// Namespace.
	ClientOptions client.Options
}

// Main runs the command with the process's arguments and exits with its
// status (ExitOK, ExitFailed or ExitUsage). Interrupting it stops the
// replays.
func Main(cfg Config) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := Run(ctx, cfg, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Run is the command: it parses args (flags, then files and folders of
// histories), replays every history, writes one line per history to
// stdout and everything else to stderr, and returns the exit status.
func Run(ctx context.Context, cfg Config, args []string, stdout, stderr io.Writer) int {
	c, err := parseArgs(cfg, args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return ExitOK // -h: the usage is printed
	}
	if err != nil {
		fmt.Fprintln(stderr, "replay:", err)
		return ExitUsage
	}
	replayer, err := worker.NewWorkflowReplayerWithOptions(cfg.ReplayerOptions)
	if err != nil {
		fmt.Fprintln(stderr, "replay:", err)
		return ExitUsage
	}
	cfg.Register(workflowsOnly{replayer})
	c.replayer = replayer
	c.stdout = stdout
	c.logger = log.NewStructuredLogger(slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))

	var total, failed int
	report := func(name string, err error) {
		total++
		if err == nil {
			fmt.Fprintf(stdout, "ok    %s\n", name)
			return
		}
		failed++
		msg := err.Error()
		if first, _, multiline := strings.Cut(msg, "\n"); multiline && !c.verbose {
			msg = first // the rest is a panic's stack: -v shows it
		}
		fmt.Fprintf(stdout, "FAIL  %s: %s\n", name, msg)
	}
	for _, path := range c.paths {
		if err := c.replayFiles(path, report); err != nil {
			fmt.Fprintln(stderr, "replay:", err)
			return ExitUsage
		}
	}
	if c.query != "" {
		if err := c.replayQuery(ctx, cfg.ClientOptions, report); err != nil {
			fmt.Fprintln(stderr, "replay:", err)
			return ExitUsage
		}
	}
	if total == 0 {
		fmt.Fprintln(stderr, "replay: no histories found: the folders hold no *.json file, or the query lists no run")
		return ExitUsage
	}
	fmt.Fprintf(stderr, "replay: %d histories, %d ok, %d failed\n", total, total-failed, failed)
	if failed > 0 {
		return ExitFailed
	}
	return ExitOK
}

// command is one run of the command.
type command struct {
	paths     []string
	query     string
	address   string
	namespace string
	limit     int
	saveDir   string
	verbose   bool

	replayer worker.WorkflowReplayer
	logger   log.Logger
	stdout   io.Writer
}

func parseArgs(cfg Config, args []string, stderr io.Writer) (*command, error) {
	if cfg.Register == nil {
		return nil, errors.New("replaytool.Config.Register is nil: give the function that registers the workflows to replay")
	}
	c := &command{}
	flags := flag.NewFlagSet("replay", flag.ContinueOnError)
	flags.SetOutput(stderr)
	flags.Usage = func() {
		fmt.Fprintf(stderr, "usage: replay [flags] [file or folder of JSON histories ...]\n\n"+
			"Replays each history against the registered workflows and prints one line per history.\n"+
			"Exit status: 0 all ok, 1 some failed, 2 misuse or nothing to replay.\n\nFlags:\n")
		flags.PrintDefaults()
	}
	flags.StringVar(&c.query, "query", "", "a visibility `query`: replay the runs it lists, fetched from the server")
	flags.StringVar(&c.address, "address", firstOf(cfg.ClientOptions.HostPort, os.Getenv("TEMPORAL_ADDRESS"), client.DefaultHostPort),
		"the server's `host:port`, for -query")
	flags.StringVar(&c.namespace, "namespace", firstOf(cfg.ClientOptions.Namespace, os.Getenv("TEMPORAL_NAMESPACE"), client.DefaultNamespace),
		"the `namespace` -query searches")
	flags.IntVar(&c.limit, "limit", 100, "replay at most `n` runs of the query (0: all)")
	flags.StringVar(&c.saveDir, "save", "", "write each history -query fetches into `folder`, as `temporal workflow show --output json` does")
	flags.BoolVar(&c.verbose, "v", false, "print failures in full (a panic's stack)")
	if err := flags.Parse(args); err != nil {
		return nil, err
	}
	c.paths = flags.Args()
	switch {
	case len(c.paths) == 0 && c.query == "":
		flags.Usage()
		return nil, errors.New("nothing to replay: give files or folders of histories, or -query")
	case c.saveDir != "" && c.query == "":
		return nil, errors.New("-save writes the histories -query fetches: give -query too")
	case c.limit < 0:
		return nil, fmt.Errorf("-limit %d: give 0 (no limit) or more", c.limit)
	}
	return c, nil
}

func firstOf(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}

// replayFiles replays path, a history file or a folder of them (every
// *.json file below it, in lexical order).
func (c *command) replayFiles(path string, report func(string, error)) error {
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	if !info.IsDir() {
		report(path, c.replayFile(path))
		return nil
	}
	found := false
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || filepath.Ext(p) != ".json" {
			return nil
		}
		found = true
		report(p, c.replayFile(p))
		return nil
	})
	if err == nil && !found {
		err = fmt.Errorf("%s holds no *.json history", path)
	}
	return err
}

func (c *command) replayFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	h, err := client.HistoryFromJSON(f, client.HistoryJSONOptions{})
	if err != nil {
		return fmt.Errorf("not a history (%w); the file must be what `temporal workflow show --output json` writes", err)
	}
	return c.replayer.ReplayWorkflowHistory(c.logger, h)
}

// workflowsOnly lets a function that registers a worker's workflows and
// activities register the workflows on a replayer: replay never runs
// activities, so their registrations have nothing to do.
type workflowsOnly struct{ worker.WorkflowReplayer }

func (workflowsOnly) RegisterActivity(any)                                         {}
func (workflowsOnly) RegisterActivityWithOptions(any, activity.RegisterOptions)    {}
func (workflowsOnly) RegisterDynamicActivity(any, activity.DynamicRegisterOptions) {}
func (workflowsOnly) RegisterNexusService(*nexus.Service)                          {}

var _ worker.Registry = workflowsOnly{}
