package devserver

import (
	"io"
	"maps"
	"net"
	"slices"
	"time"
)

// Options configure a dev server. Field names follow the official SDK's
// testsuite.DevServerOptions where they overlap.
type Options struct {
	// ExistingPath is the temporal binary to run; empty means FindCLI's
	// search.
	ExistingPath string
	// HostPort is where the frontend listens; empty means a free port on
	// 127.0.0.1.
	HostPort string
	// Namespace is created at start, besides "default" which always is.
	Namespace string
	// DBFilename keeps state in this SQLite file across restarts; empty
	// keeps it in memory only.
	DBFilename string
	// EnableUI serves the web UI, on UIPort or else a free port.
	EnableUI bool
	UIPort   string
	// LogFormat is the server's log format ("text" or "json"); empty
	// leaves the CLI's default.
	LogFormat string
	// LogLevel is the server's log level; empty means "error".
	LogLevel string
	// SearchAttributes registers custom search attributes, name to type:
	// Text, Keyword, Int, Double, Bool, Datetime or KeywordList.
	SearchAttributes map[string]string
	// DynamicConfig sets dynamic config values, key to JSON value.
	DynamicConfig map[string]string
	// ExtraArgs are appended to the command line.
	ExtraArgs []string
	// Stdout and Stderr receive the server's output; nil discards stdout
	// and sends stderr to this process's stderr.
	Stdout io.Writer
	Stderr io.Writer
	// StartTimeout bounds the wait for the frontend; 0 means one minute.
	StartTimeout time.Duration
	// StopTimeout is how long Stop waits after SIGTERM before killing the
	// process; 0 means ten seconds.
	StopTimeout time.Duration
}

// defaultDynamicConfig is applied unless overridden: the version check
// calls out to the internet, which tests neither need nor always have.
var defaultDynamicConfig = map[string]string{
	"frontend.enableServerVersionCheck": "false",
}

// args builds the CLI arguments for a server on hostPort, with uiPort
// used only when the UI is enabled.
func (o Options) args(hostPort, uiPort string) ([]string, error) {
	host, port, err := net.SplitHostPort(hostPort)
	if err != nil {
		return nil, err
	}
	logLevel := o.LogLevel
	if logLevel == "" {
		logLevel = "error"
	}
	args := []string{"server", "start-dev", "--ip", host, "--port", port, "--log-level", logLevel}
	if o.LogFormat != "" {
		args = append(args, "--log-format", o.LogFormat)
	}
	if o.EnableUI {
		args = append(args, "--ui-port", uiPort)
	} else {
		args = append(args, "--headless")
	}
	if o.Namespace != "" {
		args = append(args, "--namespace", o.Namespace)
	}
	if o.DBFilename != "" {
		args = append(args, "--db-filename", o.DBFilename)
	}
	for _, name := range slices.Sorted(maps.Keys(o.SearchAttributes)) {
		args = append(args, "--search-attribute", name+"="+o.SearchAttributes[name])
	}
	dynamic := maps.Clone(defaultDynamicConfig)
	maps.Copy(dynamic, o.DynamicConfig)
	for _, key := range slices.Sorted(maps.Keys(dynamic)) {
		args = append(args, "--dynamic-config-value", key+"="+dynamic[key])
	}
	return append(args, o.ExtraArgs...), nil
}
