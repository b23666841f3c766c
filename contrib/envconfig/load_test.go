package envconfig_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/durable-go/sdk/contrib/envconfig"
)

// fakeEnv is an environment for EnvLookup.
type fakeEnv map[string]string

func (e fakeEnv) Environ() []string {
	var out []string
	for k, v := range e {
		out = append(out, k+"="+v)
	}
	return out
}

func (e fakeEnv) LookupEnv(key string) (string, bool) {
	v, ok := e[key]
	return v, ok
}

const twoProfiles = `
[profile.default]
address = "localhost:7233"
namespace = "default"

[profile.cloud]
address = "my-ns.a1b2c.tmprl.cloud:7233"
namespace = "my-ns.a1b2c"
api_key = "secret"
authority = "override.example"

[profile.cloud.tls]
server_name = "sni.example"
client_cert_path = "/certs/client.pem"
client_key_path = "/certs/client.key"

[profile.cloud.codec]
endpoint = "https://codec.example"
auth = "Bearer codec"

[profile.cloud.grpc_meta]
My_Header = "one"
other-header = "two"
`

// writeConfig writes a config file in a new directory.
func writeConfig(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "temporal.toml")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

var cloudProfile = envconfig.ClientConfigProfile{
	Address:   "my-ns.a1b2c.tmprl.cloud:7233",
	Namespace: "my-ns.a1b2c",
	APIKey:    "secret",
	Authority: "override.example",
	TLS: &envconfig.ClientConfigTLS{
		ServerName:     "sni.example",
		ClientCertPath: "/certs/client.pem",
		ClientKeyPath:  "/certs/client.key",
	},
	Codec:    &envconfig.ClientConfigCodec{Endpoint: "https://codec.example", Auth: "Bearer codec"},
	GRPCMeta: map[string]string{"my-header": "one", "other-header": "two"},
}

func TestProfileSelection(t *testing.T) {
	path := writeConfig(t, twoProfiles)
	for _, tc := range []struct {
		name    string
		options envconfig.LoadClientConfigProfileOptions
		want    envconfig.ClientConfigProfile
	}{
		{"the default profile", envconfig.LoadClientConfigProfileOptions{ConfigFilePath: path, EnvLookup: fakeEnv{}},
			envconfig.ClientConfigProfile{Address: "localhost:7233", Namespace: "default"}},
		{"a profile by name", envconfig.LoadClientConfigProfileOptions{ConfigFilePath: path, ConfigFileProfile: "cloud", EnvLookup: fakeEnv{}},
			cloudProfile},
		{"a profile by TEMPORAL_PROFILE", envconfig.LoadClientConfigProfileOptions{ConfigFilePath: path, EnvLookup: fakeEnv{"TEMPORAL_PROFILE": "cloud"}},
			cloudProfile},
		{"the option wins over TEMPORAL_PROFILE", envconfig.LoadClientConfigProfileOptions{ConfigFilePath: path, ConfigFileProfile: "default", EnvLookup: fakeEnv{"TEMPORAL_PROFILE": "cloud"}},
			envconfig.ClientConfigProfile{Address: "localhost:7233", Namespace: "default"}},
		{"the file by TEMPORAL_CONFIG_FILE", envconfig.LoadClientConfigProfileOptions{ConfigFileProfile: "cloud", EnvLookup: fakeEnv{"TEMPORAL_CONFIG_FILE": path}},
			cloudProfile},
		{"data instead of a file", envconfig.LoadClientConfigProfileOptions{ConfigFileData: []byte(twoProfiles), ConfigFileProfile: "cloud", EnvLookup: fakeEnv{}},
			cloudProfile},
		{"a missing file", envconfig.LoadClientConfigProfileOptions{ConfigFilePath: filepath.Join(t.TempDir(), "none.toml"), EnvLookup: fakeEnv{}},
			envconfig.ClientConfigProfile{}},
		{"a file without the default profile", envconfig.LoadClientConfigProfileOptions{ConfigFileData: []byte("[profile.other]\naddress = \"x:1\"\n"), EnvLookup: fakeEnv{}},
			envconfig.ClientConfigProfile{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := envconfig.LoadClientConfigProfile(tc.options)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestProfileErrors(t *testing.T) {
	path := writeConfig(t, twoProfiles)
	for _, tc := range []struct {
		name    string
		options envconfig.LoadClientConfigProfileOptions
		want    []string
	}{
		{"a named profile that is missing", envconfig.LoadClientConfigProfileOptions{ConfigFilePath: path, ConfigFileProfile: "staging", EnvLookup: fakeEnv{}},
			[]string{`profile "staging" not found`, `"cloud", "default"`}},
		{"TEMPORAL_PROFILE naming a missing profile", envconfig.LoadClientConfigProfileOptions{ConfigFilePath: path, EnvLookup: fakeEnv{"TEMPORAL_PROFILE": "staging"}},
			[]string{`profile "staging" not found`}},
		{"both a path and data", envconfig.LoadClientConfigProfileOptions{ConfigFilePath: path, ConfigFileData: []byte(twoProfiles)},
			[]string{"both ConfigFilePath and ConfigFileData"}},
		{"neither file nor environment", envconfig.LoadClientConfigProfileOptions{DisableFile: true, DisableEnv: true},
			[]string{"DisableFile and DisableEnv"}},
		{"a file that is a directory", envconfig.LoadClientConfigProfileOptions{ConfigFilePath: t.TempDir(), EnvLookup: fakeEnv{}},
			[]string{"reading the Temporal client config"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := envconfig.LoadClientConfigProfile(tc.options)
			for _, want := range tc.want {
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("got %v, want an error containing %q", err, want)
				}
			}
		})
	}
}

func TestBadFilesNameFileLineAndKey(t *testing.T) {
	for _, tc := range []struct {
		name    string
		content string
		strict  bool
		want    []string
	}{
		{"a value of the wrong type", "[profile.default]\nnamespace = \"ns\"\naddress = 7233\n", false,
			[]string{"line 3", `key "profile.default.address"`, "TOML integer", "takes a string"}},
		{"a boolean given as a string", "[profile.default.tls]\ndisabled = \"yes\"\n", false,
			[]string{"line 2", `key "profile.default.tls.disabled"`, "takes a boolean"}},
		{"a table given as a string", "[profile.default]\ntls = \"on\"\n", false,
			[]string{"line 2", `key "profile.default.tls"`, "takes a table"}},
		{"broken syntax", "[profile.default]\naddress = \"unterminated\n", false,
			[]string{"line 2"}},
		{"unknown keys in strict mode", "[profile.default]\nadress = \"x:1\"\n\n[profile.other.tls]\nverify = false\n", true,
			[]string{`line 2: unknown key "profile.default.adress"`, `line 5: unknown key "profile.other.tls.verify"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeConfig(t, tc.content)
			_, err := envconfig.LoadClientConfig(envconfig.LoadClientConfigOptions{ConfigFilePath: path, ConfigFileStrict: tc.strict})
			for _, want := range append(tc.want, path) {
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("got %v, want an error containing %q", err, want)
				}
			}
		})
	}

	// Unknown keys are no error outside strict mode.
	config, err := envconfig.LoadClientConfig(envconfig.LoadClientConfigOptions{ConfigFileData: []byte("[profile.default]\naddress = \"x:1\"\ncolor = \"blue\"\n")})
	if err != nil || config.Profiles["default"].Address != "x:1" {
		t.Errorf("lenient load: %+v, %v", config.Profiles["default"], err)
	}
}

func TestEnvironmentOverridesTheProfile(t *testing.T) {
	env := fakeEnv{
		"TEMPORAL_PROFILE":                       "cloud",
		"TEMPORAL_ADDRESS":                       "env.example:7233",
		"TEMPORAL_NAMESPACE":                     "env-ns",
		"TEMPORAL_API_KEY":                       "env-key",
		"TEMPORAL_CLIENT_AUTHORITY":              "env-authority",
		"TEMPORAL_TLS_CLIENT_CERT_DATA":          "cert-pem",
		"TEMPORAL_TLS_CLIENT_KEY_DATA":           "key-pem",
		"TEMPORAL_TLS_CLIENT_CERT_PATH":          "",
		"TEMPORAL_TLS_CLIENT_KEY_PATH":           "",
		"TEMPORAL_TLS_SERVER_CA_CERT_PATH":       "/ca.pem",
		"TEMPORAL_TLS_SERVER_NAME":               "env-sni",
		"TEMPORAL_TLS_DISABLE_HOST_VERIFICATION": "TRUE",
		"TEMPORAL_CODEC_ENDPOINT":                "https://env-codec",
		"TEMPORAL_CODEC_AUTH":                    "env-auth",
		"TEMPORAL_GRPC_META_MY_HEADER":           "overridden",
		"TEMPORAL_GRPC_META_OTHER_HEADER":        "",
		"TEMPORAL_GRPC_META_NEW":                 "added",
		"UNRELATED":                              "ignored",
	}
	got, err := envconfig.LoadClientConfigProfile(envconfig.LoadClientConfigProfileOptions{ConfigFileData: []byte(twoProfiles), EnvLookup: env})
	if err != nil {
		t.Fatal(err)
	}
	want := envconfig.ClientConfigProfile{
		Address:   "env.example:7233",
		Namespace: "env-ns",
		APIKey:    "env-key",
		Authority: "env-authority",
		TLS: &envconfig.ClientConfigTLS{
			ClientCertData:          []byte("cert-pem"),
			ClientKeyData:           []byte("key-pem"),
			ServerCACertPath:        "/ca.pem",
			ServerName:              "env-sni",
			DisableHostVerification: true,
		},
		Codec: &envconfig.ClientConfigCodec{Endpoint: "https://env-codec", Auth: "env-auth"},
		// An empty TEMPORAL_GRPC_META_ variable removes the header.
		GRPCMeta: map[string]string{"my-header": "overridden", "new": "added"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}

	// DisableEnv keeps the profile's values, but TEMPORAL_PROFILE still
	// chooses it.
	got, err = envconfig.LoadClientConfigProfile(envconfig.LoadClientConfigProfileOptions{ConfigFileData: []byte(twoProfiles), EnvLookup: env, DisableEnv: true})
	if err != nil || !reflect.DeepEqual(got, cloudProfile) {
		t.Errorf("with DisableEnv: %+v, %v", got, err)
	}
	// DisableFile takes the environment alone.
	got, err = envconfig.LoadClientConfigProfile(envconfig.LoadClientConfigProfileOptions{
		ConfigFileData: []byte(twoProfiles), DisableFile: true,
		EnvLookup: fakeEnv{"TEMPORAL_ADDRESS": "only.env:1", "TEMPORAL_TLS": "0"},
	})
	if err != nil || !reflect.DeepEqual(got, envconfig.ClientConfigProfile{Address: "only.env:1", TLS: &envconfig.ClientConfigTLS{Disabled: true}}) {
		t.Errorf("with DisableFile: %+v, %v", got, err)
	}
}

func TestEnvironmentBooleans(t *testing.T) {
	for value, disabled := range map[string]bool{"true": false, "1": false, "True": false, "false": true, "0": true, "FALSE": true} {
		var p envconfig.ClientConfigProfile
		if err := p.ApplyEnvVars(fakeEnv{"TEMPORAL_TLS": value}); err != nil || p.TLS == nil || p.TLS.Disabled != disabled {
			t.Errorf("TEMPORAL_TLS=%s: TLS %+v, %v; want disabled %v", value, p.TLS, err, disabled)
		}
	}
	for _, name := range []string{"TEMPORAL_TLS", "TEMPORAL_TLS_DISABLE_HOST_VERIFICATION"} {
		var p envconfig.ClientConfigProfile
		err := p.ApplyEnvVars(fakeEnv{name: "yes"})
		if err == nil || !strings.Contains(err.Error(), name+`="yes" is not a boolean`) {
			t.Errorf("%s=yes: %v", name, err)
		}
	}
}

func TestDefaultFileLocation(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	want := filepath.Join(dir, "temporalio", "temporal.toml")
	if got := envconfig.DefaultConfigFilePath(); got != want {
		t.Fatalf("DefaultConfigFilePath() = %q, want %q", got, want)
	}
	if err := os.MkdirAll(filepath.Dir(want), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(want, []byte(twoProfiles), 0o600); err != nil {
		t.Fatal(err)
	}
	config, err := envconfig.LoadClientConfig(envconfig.LoadClientConfigOptions{EnvLookup: fakeEnv{}})
	if err != nil || len(config.Profiles) != 2 {
		t.Fatalf("loading the default file: %d profiles, %v", len(config.Profiles), err)
	}
	// An empty TEMPORAL_CONFIG_FILE counts as unset.
	config, err = envconfig.LoadClientConfig(envconfig.LoadClientConfigOptions{EnvLookup: fakeEnv{"TEMPORAL_CONFIG_FILE": ""}})
	if err != nil || len(config.Profiles) != 2 {
		t.Fatalf("with an empty TEMPORAL_CONFIG_FILE: %d profiles, %v", len(config.Profiles), err)
	}
}
