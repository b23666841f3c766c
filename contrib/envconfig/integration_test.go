package envconfig_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/contrib/envconfig"
	"github.com/durable-go/sdk/internal/devserver"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

func TestMain(m *testing.M) { testharness.Main(m) }

// temporalCLI runs the temporal CLI with args, in an environment where
// the user's configuration directory is home/.config.
func temporalCLI(t *testing.T, home string, args ...string) []byte {
	t.Helper()
	testharness.HostPort(t) // skips, as the server tests do, without the CLI
	path, err := devserver.FindCLI("")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(path, args...)
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME=")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("temporal %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// configSet runs `temporal config set` for each property of a profile.
func configSet(t *testing.T, home, profile string, props [][2]string) {
	t.Helper()
	for _, p := range props {
		temporalCLI(t, home, "config", "set", "--profile", profile, "--prop", p[0], "--value", p[1])
	}
}

// unsetTemporalEnv clears the TEMPORAL_* variables of the process for the
// test, so that only what the test sets applies.
func unsetTemporalEnv(t *testing.T) {
	for _, kv := range os.Environ() {
		key, value, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(key, "TEMPORAL_") {
			t.Setenv(key, value) // restores it when the test ends
			if err := os.Unsetenv(key); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func ProfileGreeting(_ workflow.Context, name string) (string, error) {
	return "Hello, " + name + "!", nil
}

// A worker and a client configured only by a profile that the Temporal
// CLI wrote, in its default place, chosen by TEMPORAL_PROFILE.
func TestCLIWrittenProfileRunsAWorkflow(t *testing.T) {
	unsetTemporalEnv(t)
	home := t.TempDir()
	configSet(t, home, "dev", [][2]string{
		{"address", testharness.HostPort(t)},
		{"namespace", client.DefaultNamespace},
		{"grpc_meta.x-configured-by", "envconfig test"},
	})
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("TEMPORAL_PROFILE", "dev")
	if want := filepath.Join(home, ".config", "temporalio", "temporal.toml"); envconfig.DefaultConfigFilePath() != want {
		t.Fatalf("DefaultConfigFilePath() = %q, but the CLI wrote %q", envconfig.DefaultConfigFilePath(), want)
	}

	options := envconfig.MustLoadDefaultClientOptions()
	if options.HostPort != testharness.HostPort(t) {
		t.Fatalf("loaded HostPort %q, want the dev server's %q", options.HostPort, testharness.HostPort(t))
	}
	c, err := client.Dial(options)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	taskQueue := "envconfig-" + t.Name()
	w := worker.New(c, taskQueue, worker.Options{})
	w.RegisterWorkflow(ProfileGreeting)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: taskQueue}, ProfileGreeting, "profile")
	if err != nil {
		t.Fatal(err)
	}
	var greeting string
	if err := run.Get(ctx, &greeting); err != nil || greeting != "Hello, profile!" {
		t.Fatalf("workflow result %q, %v", greeting, err)
	}
}

// Every property the CLI can set reads back as the same profile.
func TestCLIWrittenFileIsRead(t *testing.T) {
	home := t.TempDir()
	configSet(t, home, "default", [][2]string{{"address", "localhost:7233"}})
	configSet(t, home, "cloud", [][2]string{
		{"address", "my-ns.a1b2c.tmprl.cloud:7233"},
		{"namespace", "my-ns.a1b2c"},
		{"api_key", "secret"},
		{"tls.client_cert_path", "/certs/client.pem"},
		{"tls.client_key_path", "/certs/client.key"},
		{"tls.server_ca_cert_data", "ca-pem"},
		{"tls.server_name", "sni.example"},
		{"tls.disable_host_verification", "true"},
		{"codec.endpoint", "https://codec.example"},
		{"codec.auth", "Bearer codec"},
		{"grpc_meta.my-header", "one"},
	})
	path := filepath.Join(home, ".config", "temporalio", "temporal.toml")
	config, err := envconfig.LoadClientConfig(envconfig.LoadClientConfigOptions{ConfigFilePath: path, ConfigFileStrict: true})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]*envconfig.ClientConfigProfile{
		"default": {Address: "localhost:7233"},
		"cloud": {
			Address:   "my-ns.a1b2c.tmprl.cloud:7233",
			Namespace: "my-ns.a1b2c",
			APIKey:    "secret",
			TLS: &envconfig.ClientConfigTLS{
				ClientCertPath:          "/certs/client.pem",
				ClientKeyPath:           "/certs/client.key",
				ServerCACertData:        []byte("ca-pem"),
				ServerName:              "sni.example",
				DisableHostVerification: true,
			},
			Codec:    &envconfig.ClientConfigCodec{Endpoint: "https://codec.example", Auth: "Bearer codec"},
			GRPCMeta: map[string]string{"my-header": "one"},
		},
	}
	if !reflect.DeepEqual(config.Profiles, want) {
		data, _ := os.ReadFile(path)
		t.Errorf("read\n%+v\nwant\n%+v\nfrom\n%s", config.Profiles["cloud"], want["cloud"], data)
	}
}

// The CLI reads what ToTOML writes.
func TestCLIReadsWrittenFile(t *testing.T) {
	config := envconfig.ClientConfig{Profiles: map[string]*envconfig.ClientConfigProfile{
		"written": {
			Address: "w.example:7233", Namespace: "w-ns", APIKey: "it's a key",
			TLS:      &envconfig.ClientConfigTLS{ServerName: "sni", ClientCertPath: "/c.pem", ClientKeyPath: "/c.key"},
			GRPCMeta: map[string]string{"X_Header": "v"},
		},
	}}
	data, err := config.ToTOML(envconfig.ClientConfigToTOMLOptions{})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "written.toml")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	out := temporalCLI(t, t.TempDir(), "config", "get", "--config-file", path, "--profile", "written", "--output", "json")
	var got map[string]any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("the CLI's answer %s: %v", out, err)
	}
	want := map[string]any{
		"address":   "w.example:7233",
		"namespace": "w-ns",
		"api_key":   "it's a key",
		"tls":       map[string]any{"server_name": "sni", "client_cert_path": "/c.pem", "client_key_path": "/c.key"},
		"grpc_meta": map[string]any{"x-header": "v"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the CLI read %v\nwant %v\nfrom\n%s", got, want, data)
	}
}
