// Command durable-server runs the embedded Temporal server (package
// temporaltest) as a process: an in-memory Temporal frontend that
// clients and workers of any Temporal SDK reach over gRPC, as they reach
// `temporal server start-dev`, with nothing to install and a start in
// milliseconds. Its state lives in memory and ends with the process.
//
//	go run github.com/durable-go/sdk/cmd/durable-server --port 7233
//
// Flags: --ip (default 127.0.0.1), --port (default 7233; 0 picks a free
// one), --namespace (a namespace to create besides "default", which
// always is; repeatable, as the dev server's), --time-skipping (the
// clock skips to the next timer while no task is in flight),
// --search-attribute NAME=TYPE (repeatable: a custom search attribute to
// register in the namespaces, as `temporal server start-dev` takes it;
// TYPE is Keyword, Text, Int, Double, Bool, Datetime or KeywordList). It
// prints its address once it accepts connections, and stops on SIGINT or
// SIGTERM. Calls it does not serve answer Unimplemented; use
// `temporal server start-dev` for those. See
// docs/guide/embedded-server.md.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/durable-go/sdk/temporaltest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "durable-server:", err)
		os.Exit(2)
	}
}

// run serves until ctx ends; it writes the ready line to stdout.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	flags := flag.NewFlagSet("durable-server", flag.ContinueOnError)
	flags.SetOutput(stderr)
	ip := flags.String("ip", "127.0.0.1", "the IP address to listen on")
	port := flags.Int("port", 7233, "the port to listen on (0: a free one)")
	var namespaces namespaceList
	flags.Var(&namespaces, "namespace", `a namespace to create besides "default", which always is (repeatable)`)
	timeSkipping := flags.Bool("time-skipping", false, "skip to the next timer while no task is in flight")
	searchAttributes := searchAttributeFlag{}
	flags.Var(searchAttributes, "search-attribute", "a custom search attribute to register, NAME=TYPE (Keyword, Text, Int, Double, Bool, Datetime or KeywordList); repeatable")
	if err := flags.Parse(args); err != nil {
		return err
	}
	if flags.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q: the flags are --ip, --port, --namespace, --time-skipping and --search-attribute", flags.Args())
	}
	if *port < 0 || *port > 65535 {
		return fmt.Errorf("--port %d is not a port number (0 to 65535)", *port)
	}
	srv, err := temporaltest.NewServer(temporaltest.ServerOptions{
		HostPort:         net.JoinHostPort(*ip, strconv.Itoa(*port)),
		Namespaces:       namespaces,
		TimeSkipping:     *timeSkipping,
		SearchAttributes: searchAttributes,
	})
	if err != nil {
		return err
	}
	defer srv.Stop()
	skipping := "off"
	if *timeSkipping {
		skipping = "on"
	}
	served := []string{strconv.Quote(srv.Namespace())}
	for _, n := range namespaces {
		if q := strconv.Quote(n); !slices.Contains(served, q) {
			served = append(served, q)
		}
	}
	fmt.Fprintf(stdout, "durable-server: serving namespaces %s at %s (in memory, time skipping %s)\n",
		strings.Join(served, ", "), srv.HostPort(), skipping)
	<-ctx.Done()
	return nil
}

// namespaceList is the repeatable --namespace flag.
type namespaceList []string

func (l *namespaceList) String() string { return strings.Join(*l, ",") }

func (l *namespaceList) Set(name string) error {
	if name == "" {
		return errors.New("a namespace needs a name")
	}
	*l = append(*l, name)
	return nil
}

// searchAttributeFlag collects --search-attribute NAME=TYPE flags.
type searchAttributeFlag map[string]enumspb.IndexedValueType

func (f searchAttributeFlag) String() string {
	return fmt.Sprint(map[string]enumspb.IndexedValueType(f))
}

func (f searchAttributeFlag) Set(value string) error {
	name, typeName, ok := strings.Cut(value, "=")
	if !ok || name == "" {
		return fmt.Errorf("%q: want NAME=TYPE, e.g. CustomerId=Keyword", value)
	}
	t, err := enumspb.IndexedValueTypeFromString(typeName)
	if err != nil || t == enumspb.INDEXED_VALUE_TYPE_UNSPECIFIED {
		return fmt.Errorf("%q: unknown type %q; use Keyword, Text, Int, Double, Bool, Datetime or KeywordList", value, typeName)
	}
	f[name] = t
	return nil
}
