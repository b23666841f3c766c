package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"

	"go.temporal.io/server/common/authorization"
	"go.temporal.io/server/common/config"
	"go.temporal.io/server/common/headers"
	"go.temporal.io/server/common/log"
	"go.temporal.io/server/common/membership/static"
	"go.temporal.io/server/common/primitives"
	"go.temporal.io/server/temporal"

	"github.com/durable-go/sdk/cmd/durable-devserver/cli"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "durable-devserver:", err)
		}
		os.Exit(2)
	}
}

// run starts the server, says where it serves, and stops it on SIGINT or
// SIGTERM.
func run(args []string, stdout, stderr io.Writer) error {
	o, err := cli.Parse(args, stderr)
	if err != nil {
		return err
	}
	var ports servicePorts
	for _, p := range []*int{&o.HTTPPort, &ports.history, &ports.matching, &ports.worker} {
		if *p == 0 {
			if *p, err = freePort(o.IP); err != nil {
				return err
			}
		}
	}
	server, err := newServer(o, ports)
	if err != nil {
		return err
	}
	if err := server.Start(); err != nil {
		return fmt.Errorf("starting the server: %w", err)
	}
	fmt.Fprintf(stdout, "Temporal server %s (durable-devserver) serving at %s, HTTP at %s, namespaces %v\n",
		headers.ServerVersion, hostPort(o.IP, o.Port), hostPort(o.IP, o.HTTPPort), o.Namespaces)
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGINT, syscall.SIGTERM)
	<-stop
	server.Stop()
	return nil
}

// newServer builds the server of o, its internal services on ports.
func newServer(o cli.Options, ports servicePorts) (temporal.Server, error) {
	conf, err := serverConfig(o, ports)
	if err != nil {
		return nil, err
	}
	logger, err := serverLogger(o)
	if err != nil {
		return nil, err
	}
	authorizer, err := authorization.GetAuthorizerFromConfig(&conf.Global.Authorization)
	if err != nil {
		return nil, err
	}
	claimMapper, err := authorization.GetClaimMapperFromConfig(&conf.Global.Authorization, logger)
	if err != nil {
		return nil, err
	}
	local := func(port int) static.Hosts { return static.SingleLocalHost(hostPort(o.IP, port)) }
	return temporal.NewServer(
		temporal.WithConfig(conf),
		temporal.ForServices(temporal.DefaultServices),
		temporal.WithStaticHosts(map[primitives.ServiceName]static.Hosts{
			primitives.FrontendService: local(o.Port),
			primitives.HistoryService:  local(ports.history),
			primitives.MatchingService: local(ports.matching),
			primitives.WorkerService:   local(ports.worker),
		}),
		temporal.WithLogger(logger),
		temporal.WithAuthorizer(authorizer),
		temporal.WithClaimMapper(func(*config.Config) authorization.ClaimMapper { return claimMapper }),
		temporal.WithDynamicConfigClient(dynamicConfig(o)),
	)
}

// serverLogger logs at o's level and format to stderr ("never": not at all).
func serverLogger(o cli.Options) (log.Logger, error) {
	switch o.LogLevel {
	case "never":
		return log.NewNoopLogger(), nil
	case "debug", "info", "warn", "error":
	default:
		return nil, fmt.Errorf("--log-level %q: use debug, info, warn, error or never", o.LogLevel)
	}
	format := map[string]string{"text": "console", "pretty": "console", "json": "json"}[o.LogFormat]
	if format == "" {
		return nil, fmt.Errorf("--log-format %q: use text or json", o.LogFormat)
	}
	return log.NewZapLogger(log.BuildZapLogger(log.Config{Level: o.LogLevel, Format: format})), nil
}

// freePort asks the system for a port on ip that is free now.
func freePort(ip string) (int, error) {
	l, err := net.Listen("tcp", net.JoinHostPort(ip, "0"))
	if err != nil {
		return 0, fmt.Errorf("finding a free port on %s: %w", ip, err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
