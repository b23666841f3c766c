// Package cli reads the command line of durable-devserver, the flags of
// "temporal server start-dev" it supports, and holds the dynamic
// configuration it starts with. It imports nothing of the server, so that
// its tests build in seconds.
package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	enumspb "go.temporal.io/api/enums/v1"
)

// Options are what the command line asks for.
type Options struct {
	IP, LogLevel, LogFormat, DBFile string
	Port, HTTPPort, MetricsPort     int
	// Namespaces are "default" and those --namespace names.
	Namespaces       []string
	SearchAttributes map[string]enumspb.IndexedValueType
	// DynamicConfig is what --dynamic-config-value sets, values decoded
	// from JSON.
	DynamicConfig map[string]any
	SQLitePragmas map[string]string
}

// listFlag collects every value of a repeated flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// Parse reads the flags of "temporal server start-dev" this server
// supports; the leading "server start-dev" words are optional.
func Parse(args []string, stderr io.Writer) (Options, error) {
	if len(args) >= 2 && args[0] == "server" && args[1] == "start-dev" {
		args = args[2:]
	}
	fs := flag.NewFlagSet("durable-devserver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o Options
	var namespaces, searchAttrs, dynamic, pragmas listFlag
	var headless bool
	var uiPort int
	fs.StringVar(&o.IP, "ip", "127.0.0.1", "IP address the frontend binds")
	fs.IntVar(&o.Port, "port", 7233, "frontend gRPC port")
	fs.IntVar(&o.HTTPPort, "http-port", 0, "frontend HTTP port (Nexus callbacks); 0 picks a free one")
	fs.IntVar(&o.MetricsPort, "metrics-port", 0, "port of Prometheus metrics; 0 serves none")
	fs.StringVar(&o.LogLevel, "log-level", "warn", "server log level: debug, info, warn, error or never")
	fs.StringVar(&o.LogFormat, "log-format", "text", "server log format: text or json")
	fs.StringVar(&o.DBFile, "db-filename", "", "SQLite file that keeps state across restarts; in memory if empty")
	fs.Var(&namespaces, "namespace", "namespace to create besides default (repeatable)")
	fs.Var(&searchAttrs, "search-attribute", "custom search attribute NAME=TYPE, e.g. CustomerId=Keyword (repeatable)")
	fs.Var(&dynamic, "dynamic-config-value", "dynamic config KEY=JSON_VALUE, e.g. limit.blobSize.error=1000000 (repeatable)")
	fs.Var(&pragmas, "sqlite-pragma", "SQLite pragma NAME=VALUE, e.g. journal_mode=wal (repeatable)")
	fs.BoolVar(&headless, "headless", false, "accepted for compatibility with the Temporal CLI: there is no UI")
	fs.IntVar(&uiPort, "ui-port", 0, "refused: there is no UI")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q: flags only (run with -h to list them)", fs.Arg(0))
	}
	if uiPort != 0 {
		return o, errors.New("--ui-port: this server has no web UI; use the Temporal CLI (temporal server start-dev) for one")
	}
	o.Namespaces = append([]string{"default"}, namespaces...)
	var err error
	if o.SearchAttributes, err = parseSearchAttributes(searchAttrs); err != nil {
		return o, err
	}
	if o.DynamicConfig, err = parseDynamicConfig(dynamic); err != nil {
		return o, err
	}
	if o.SQLitePragmas, err = parsePairs("--sqlite-pragma", pragmas); err != nil {
		return o, err
	}
	return o, nil
}

func parsePairs(flagName string, values []string) (map[string]string, error) {
	pairs := make(map[string]string, len(values))
	for _, v := range values {
		name, value, ok := strings.Cut(v, "=")
		if !ok || name == "" {
			return nil, fmt.Errorf("%s %q: want NAME=VALUE", flagName, v)
		}
		pairs[name] = value
	}
	return pairs, nil
}

func parseSearchAttributes(values []string) (map[string]enumspb.IndexedValueType, error) {
	pairs, err := parsePairs("--search-attribute", values)
	if err != nil {
		return nil, err
	}
	attrs := make(map[string]enumspb.IndexedValueType, len(pairs))
	for name, typeName := range pairs {
		// "KeywordList" names INDEXED_VALUE_TYPE_KEYWORD_LIST: compare
		// without the underscores, in any case.
		var t int32
		ok := false
		for name, value := range enumspb.IndexedValueType_value {
			if strings.EqualFold(strings.ReplaceAll(strings.TrimPrefix(name, "INDEXED_VALUE_TYPE_"), "_", ""), typeName) {
				t, ok = value, true
			}
		}
		if !ok || t == 0 {
			return nil, fmt.Errorf("--search-attribute %s=%s: unknown type %q; use Text, Keyword, Int, Double, Bool, Datetime or KeywordList", name, typeName, typeName)
		}
		attrs[name] = enumspb.IndexedValueType(t)
	}
	return attrs, nil
}

// parseDynamicConfig reads KEY=VALUE pairs whose values are JSON, as the
// Temporal CLI reads them.
func parseDynamicConfig(values []string) (map[string]any, error) {
	pairs, err := parsePairs("--dynamic-config-value", values)
	if err != nil {
		return nil, err
	}
	config := make(map[string]any, len(pairs))
	for key, raw := range pairs {
		var v any
		if err := json.Unmarshal([]byte(raw), &v); err != nil {
			return nil, fmt.Errorf("--dynamic-config-value %s=%s: the value must be JSON (a string in double quotes): %v", key, raw, err)
		}
		config[key] = v
	}
	return config, nil
}
