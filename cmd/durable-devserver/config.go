package main

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"strconv"

	"go.temporal.io/server/common/cluster"
	"go.temporal.io/server/common/config"
	"go.temporal.io/server/common/dynamicconfig"
	"go.temporal.io/server/common/metrics"
	sqliteplugin "go.temporal.io/server/common/persistence/sql/sqlplugin/sqlite"
	sqliteschema "go.temporal.io/server/schema/sqlite"

	"github.com/durable-go/sdk/cmd/durable-devserver/cli"
)

// clusterName names the server's only cluster.
const clusterName = "active"

// serverConfig is the static configuration of a one-process server on
// o's address: every service on a loopback port of its own, one history
// shard, archival off, and o's SQLite store.
func serverConfig(o cli.Options, ports servicePorts) (*config.Config, error) {
	sql, err := sqliteConfig(o)
	if err != nil {
		return nil, err
	}
	frontend := hostPort(o.IP, o.Port)
	var c config.Config
	c.Global.Membership = config.Membership{MaxJoinDuration: 30 * 1e9, BroadcastAddress: o.IP}
	if o.MetricsPort != 0 {
		c.Global.Metrics = &metrics.Config{Prometheus: &metrics.PrometheusConfig{
			ListenAddress: hostPort(o.IP, o.MetricsPort), HandlerPath: "/metrics",
		}}
	}
	c.Persistence = config.Persistence{
		DefaultStore: "sqlite", VisibilityStore: "sqlite", NumHistoryShards: 1,
		DataStores: map[string]config.DataStore{"sqlite": {SQL: sql}},
	}
	c.ClusterMetadata = &cluster.Config{
		FailoverVersionIncrement: 10,
		MasterClusterName:        clusterName,
		CurrentClusterName:       clusterName,
		ClusterInformation: map[string]cluster.ClusterInformation{clusterName: {
			Enabled: true, InitialFailoverVersion: 1,
			RPCAddress: frontend, HTTPAddress: hostPort(o.IP, o.HTTPPort),
		}},
	}
	c.DCRedirectionPolicy.Policy = "noop"
	c.Services = map[string]config.Service{
		"frontend": {RPC: config.RPC{BindOnIP: o.IP, GRPCPort: o.Port, HTTPPort: o.HTTPPort}},
		"history":  {RPC: config.RPC{BindOnIP: o.IP, GRPCPort: ports.history}},
		"matching": {RPC: config.RPC{BindOnIP: o.IP, GRPCPort: ports.matching}},
		"worker":   {RPC: config.RPC{BindOnIP: o.IP, GRPCPort: ports.worker}},
	}
	c.Archival.History.State = "disabled"
	c.Archival.Visibility.State = "disabled"
	c.NamespaceDefaults.Archival.History.State = "disabled"
	c.NamespaceDefaults.Archival.Visibility.State = "disabled"
	c.PublicClient.HostPort = frontend
	return &c, nil
}

// sqliteConfig is the store: in memory, or o.DBFile (its schema set up
// when the file is new); o's namespaces are created in it.
func sqliteConfig(o cli.Options) (*config.SQL, error) {
	sql := &config.SQL{PluginName: sqliteplugin.PluginName, ConnectAttributes: map[string]string{}}
	if o.DBFile == "" {
		// A name of its own, so that two servers in one process (tests)
		// do not share the shared-cache database.
		sql.DatabaseName = strconv.Itoa(rand.IntN(1 << 30))
		sql.ConnectAttributes["mode"] = "memory"
		sql.ConnectAttributes["cache"] = "shared"
	} else {
		sql.DatabaseName = o.DBFile
		sql.ConnectAttributes["mode"] = "rwc"
	}
	for name, value := range o.SQLitePragmas {
		sql.ConnectAttributes["_"+name] = value
	}
	if o.DBFile != "" {
		if _, err := os.Stat(o.DBFile); os.IsNotExist(err) {
			if _, err := os.Stat(filepath.Dir(o.DBFile)); err != nil {
				return nil, fmt.Errorf("--db-filename %s: %w", o.DBFile, err)
			}
			if err := sqliteschema.SetupSchema(sql); err != nil {
				return nil, fmt.Errorf("setting up the schema of %s: %w", o.DBFile, err)
			}
		}
	}
	var namespaces []*sqliteschema.NamespaceConfig
	for _, name := range o.Namespaces {
		ns, err := sqliteschema.NewNamespaceConfig(clusterName, name, false, o.SearchAttributes)
		if err != nil {
			return nil, fmt.Errorf("namespace %s: %w", name, err)
		}
		namespaces = append(namespaces, ns)
	}
	if err := sqliteschema.CreateNamespaces(sql, namespaces...); err != nil {
		return nil, fmt.Errorf("creating the namespaces: %w", err)
	}
	return sql, nil
}

// servicePorts are the internal services' gRPC ports.
type servicePorts struct{ history, matching, worker int }

// dynamicConfig is the server's dynamic configuration: cli.DynamicConfig's.
func dynamicConfig(o cli.Options) dynamicconfig.StaticClient {
	values := cli.DynamicConfig(o)
	dc := make(dynamicconfig.StaticClient, len(values))
	for key, v := range values {
		dc[dynamicconfig.MakeKey(key)] = v
	}
	return dc
}

func hostPort(ip string, port int) string { return net.JoinHostPort(ip, strconv.Itoa(port)) }
