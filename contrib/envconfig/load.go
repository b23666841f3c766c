package envconfig

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/durable-go/sdk/client"
)

// The environment variables that choose the file and the profile.
const (
	envConfigFile = "TEMPORAL_CONFIG_FILE"
	envProfile    = "TEMPORAL_PROFILE"
)

// MustLoadDefaultClientOptions is LoadDefaultClientOptions, panicking on
// error; for main functions and examples.
func MustLoadDefaultClientOptions() client.Options {
	options, err := LoadDefaultClientOptions()
	if err != nil {
		panic(err)
	}
	return options
}

// LoadDefaultClientOptions returns the client options of the default file
// and profile, overridden by the environment: LoadClientOptions with no
// options.
func LoadDefaultClientOptions() (client.Options, error) {
	return LoadClientOptions(LoadClientOptionsRequest{})
}

// LoadClientOptionsRequest are the options of LoadClientOptions.
type LoadClientOptionsRequest struct {
	// ConfigFilePath is the TOML file to read; TEMPORAL_CONFIG_FILE or
	// else DefaultConfigFilePath when empty. It cannot be combined with
	// ConfigFileData.
	ConfigFilePath string
	// ConfigFileData is TOML to read instead of a file.
	ConfigFileData []byte
	// ConfigFileProfile is the profile to use; TEMPORAL_PROFILE or else
	// "default" when empty. A profile named either way must exist; the
	// default one may be missing.
	ConfigFileProfile string
	// ConfigFileStrict makes keys this package does not know an error.
	ConfigFileStrict bool
	// DisableFile reads no file: the options come from the environment
	// alone. It cannot be combined with DisableEnv.
	DisableFile bool
	// DisableEnv ignores the environment variables that set profile
	// values (TEMPORAL_CONFIG_FILE and TEMPORAL_PROFILE still choose the
	// file and the profile).
	DisableEnv bool
	// IncludeRemoteCodec; see ToClientOptionsRequest.
	IncludeRemoteCodec bool
	// EnvLookup reads the environment; EnvLookupOS when nil.
	EnvLookup EnvLookup
}

// LoadClientOptions loads a profile (LoadClientConfigProfile) and returns
// its client options (ClientConfigProfile.ToClientOptions). A missing
// file is no error.
func LoadClientOptions(options LoadClientOptionsRequest) (client.Options, error) {
	profile, err := LoadClientConfigProfile(LoadClientConfigProfileOptions{
		ConfigFilePath:    options.ConfigFilePath,
		ConfigFileData:    options.ConfigFileData,
		ConfigFileProfile: options.ConfigFileProfile,
		ConfigFileStrict:  options.ConfigFileStrict,
		DisableFile:       options.DisableFile,
		DisableEnv:        options.DisableEnv,
		EnvLookup:         options.EnvLookup,
	})
	if err != nil {
		return client.Options{}, err
	}
	return profile.ToClientOptions(ToClientOptionsRequest{IncludeRemoteCodec: options.IncludeRemoteCodec})
}

// LoadClientConfigOptions are the options of LoadClientConfig.
type LoadClientConfigOptions struct {
	// ConfigFilePath is the TOML file to read; TEMPORAL_CONFIG_FILE or
	// else DefaultConfigFilePath when empty. It cannot be combined with
	// ConfigFileData.
	ConfigFilePath string
	// ConfigFileData is TOML to read instead of a file.
	ConfigFileData []byte
	// ConfigFileStrict makes keys this package does not know an error.
	ConfigFileStrict bool
	// EnvLookup reads TEMPORAL_CONFIG_FILE; EnvLookupOS when nil.
	EnvLookup EnvLookup
}

// LoadClientConfig reads every profile of the config file; the
// environment only chooses the file. A missing file gives an empty
// config.
func LoadClientConfig(options LoadClientConfigOptions) (ClientConfig, error) {
	var config ClientConfig
	data, source := options.ConfigFileData, "the given config data"
	if len(data) > 0 {
		if options.ConfigFilePath != "" {
			return ClientConfig{}, errors.New("both ConfigFilePath and ConfigFileData are set: give one")
		}
	} else {
		path := options.ConfigFilePath
		if path == "" {
			// An empty TEMPORAL_CONFIG_FILE counts as unset.
			path, _ = envOrOS(options.EnvLookup).LookupEnv(envConfigFile)
		}
		if path == "" {
			path = DefaultConfigFilePath()
		}
		if path == "" {
			return config, nil
		}
		b, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			return config, nil
		}
		if err != nil {
			return ClientConfig{}, fmt.Errorf("reading the Temporal client config: %w", err)
		}
		data, source = b, path
	}
	if err := config.FromTOML(data, ClientConfigFromTOMLOptions{Strict: options.ConfigFileStrict}); err != nil {
		return ClientConfig{}, fmt.Errorf("the Temporal client config %s: %w", source, err)
	}
	return config, nil
}

// LoadClientConfigProfileOptions are the options of
// LoadClientConfigProfile; the fields mean what they mean in
// LoadClientOptionsRequest.
type LoadClientConfigProfileOptions struct {
	ConfigFilePath    string
	ConfigFileData    []byte
	ConfigFileProfile string
	ConfigFileStrict  bool
	DisableFile       bool
	DisableEnv        bool
	EnvLookup         EnvLookup
}

// LoadClientConfigProfile reads one profile of the config file and applies
// the environment variables over it (ApplyEnvVars). A missing file, or a
// missing default profile, gives an empty profile; a profile asked for by
// name must exist.
func LoadClientConfigProfile(options LoadClientConfigProfileOptions) (ClientConfigProfile, error) {
	if options.DisableFile && options.DisableEnv {
		return ClientConfigProfile{}, errors.New("DisableFile and DisableEnv are both set, which leaves nothing to load: unset one")
	}
	var profile ClientConfigProfile
	if !options.DisableFile {
		config, err := LoadClientConfig(LoadClientConfigOptions{
			ConfigFilePath:   options.ConfigFilePath,
			ConfigFileData:   options.ConfigFileData,
			ConfigFileStrict: options.ConfigFileStrict,
			EnvLookup:        options.EnvLookup,
		})
		if err != nil {
			return ClientConfigProfile{}, err
		}
		name := options.ConfigFileProfile
		if name == "" {
			name, _ = envOrOS(options.EnvLookup).LookupEnv(envProfile)
		}
		named := name != ""
		if !named {
			name = DefaultConfigFileProfile
		}
		if p := config.Profiles[name]; p != nil {
			profile = *p
		} else if named {
			return ClientConfigProfile{}, fmt.Errorf("profile %q not found in the Temporal client config; it has %s", name, profileNames(config.Profiles))
		}
	}
	if !options.DisableEnv {
		if err := profile.ApplyEnvVars(options.EnvLookup); err != nil {
			return ClientConfigProfile{}, err
		}
	}
	return profile, nil
}

// DefaultConfigFilePath is temporalio/temporal.toml in the user's
// configuration directory (os.UserConfigDir: $XDG_CONFIG_HOME or
// ~/.config on Linux), where the Temporal CLI keeps its config; empty if
// there is no such directory.
func DefaultConfigFilePath() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "temporalio", "temporal.toml")
}

// EnvLookup reads environment variables; tests give their own.
type EnvLookup interface {
	// Environ returns every variable as "KEY=value", like os.Environ.
	Environ() []string
	// LookupEnv returns a variable's value and whether it is set, like
	// os.LookupEnv.
	LookupEnv(string) (string, bool)
}

type osEnv struct{}

func (osEnv) Environ() []string                   { return os.Environ() }
func (osEnv) LookupEnv(key string) (string, bool) { return os.LookupEnv(key) }

// EnvLookupOS reads the process's environment.
var EnvLookupOS EnvLookup = osEnv{}

func envOrOS(env EnvLookup) EnvLookup {
	if env == nil {
		return EnvLookupOS
	}
	return env
}

// ApplyEnvVars overrides the profile's values with the TEMPORAL_*
// environment variables that are set (see the package documentation).
// TEMPORAL_GRPC_META_<NAME> sets the header NormalizeGRPCMetaKey(NAME),
// or removes it when empty. A boolean variable that is not true, false,
// 1 or 0 is an error. env is EnvLookupOS when nil.
func (c *ClientConfigProfile) ApplyEnvVars(env EnvLookup) error {
	env = envOrOS(env)
	setString := func(name string, field *string) {
		if v, ok := env.LookupEnv(name); ok {
			*field = v
		}
	}
	tlsConfig := func() *ClientConfigTLS {
		if c.TLS == nil {
			c.TLS = &ClientConfigTLS{}
		}
		return c.TLS
	}
	codec := func() *ClientConfigCodec {
		if c.Codec == nil {
			c.Codec = &ClientConfigCodec{}
		}
		return c.Codec
	}
	setString("TEMPORAL_ADDRESS", &c.Address)
	setString("TEMPORAL_NAMESPACE", &c.Namespace)
	setString("TEMPORAL_API_KEY", &c.APIKey)
	setString("TEMPORAL_CLIENT_AUTHORITY", &c.Authority)
	if v, ok, err := envBool(env, "TEMPORAL_TLS"); err != nil {
		return err
	} else if ok {
		tlsConfig().Disabled = !v
	}
	for _, s := range []struct {
		name string
		set  func(string)
	}{
		{"TEMPORAL_TLS_CLIENT_CERT_PATH", func(v string) { tlsConfig().ClientCertPath = v }},
		{"TEMPORAL_TLS_CLIENT_CERT_DATA", func(v string) { tlsConfig().ClientCertData = []byte(v) }},
		{"TEMPORAL_TLS_CLIENT_KEY_PATH", func(v string) { tlsConfig().ClientKeyPath = v }},
		{"TEMPORAL_TLS_CLIENT_KEY_DATA", func(v string) { tlsConfig().ClientKeyData = []byte(v) }},
		{"TEMPORAL_TLS_SERVER_CA_CERT_PATH", func(v string) { tlsConfig().ServerCACertPath = v }},
		{"TEMPORAL_TLS_SERVER_CA_CERT_DATA", func(v string) { tlsConfig().ServerCACertData = []byte(v) }},
		{"TEMPORAL_TLS_SERVER_NAME", func(v string) { tlsConfig().ServerName = v }},
		{"TEMPORAL_CODEC_ENDPOINT", func(v string) { codec().Endpoint = v }},
		{"TEMPORAL_CODEC_AUTH", func(v string) { codec().Auth = v }},
	} {
		if v, ok := env.LookupEnv(s.name); ok {
			s.set(v)
		}
	}
	if v, ok, err := envBool(env, "TEMPORAL_TLS_DISABLE_HOST_VERIFICATION"); err != nil {
		return err
	} else if ok {
		tlsConfig().DisableHostVerification = v
	}
	const metaPrefix = "TEMPORAL_GRPC_META_"
	for _, kv := range env.Environ() {
		key, value, _ := strings.Cut(kv, "=")
		name, ok := strings.CutPrefix(key, metaPrefix)
		if !ok {
			continue
		}
		header := NormalizeGRPCMetaKey(name)
		if value == "" {
			delete(c.GRPCMeta, header)
			continue
		}
		if c.GRPCMeta == nil {
			c.GRPCMeta = map[string]string{}
		}
		c.GRPCMeta[header] = value
	}
	return nil
}

// envBool reads a boolean variable: true, false, 1 or 0, in any case.
func envBool(env EnvLookup, name string) (value, set bool, err error) {
	v, ok := env.LookupEnv(name)
	if !ok {
		return false, false, nil
	}
	switch strings.ToLower(v) {
	case "true", "1":
		return true, true, nil
	case "false", "0":
		return false, true, nil
	}
	return false, false, fmt.Errorf("environment variable %s=%q is not a boolean: set it to true, false, 1 or 0", name, v)
}
