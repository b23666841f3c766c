package envconfig

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// The file format: the TOML keys of a profile, as the Temporal CLI writes
// them. knownProfileKeys must list every key of tomlProfile.
type (
	tomlFile struct {
		Profiles map[string]tomlProfile `toml:"profile,omitempty"`
	}

	tomlProfile struct {
		Address   string            `toml:"address,omitempty"`
		Namespace string            `toml:"namespace,omitempty"`
		APIKey    string            `toml:"api_key,omitempty"`
		TLS       *tomlTLS          `toml:"tls,omitempty"`
		Codec     *tomlCodec        `toml:"codec,omitempty"`
		GRPCMeta  map[string]string `toml:"grpc_meta,omitempty"`
		Authority string            `toml:"authority,omitempty"`
	}

	tomlTLS struct {
		Disabled                bool   `toml:"disabled,omitempty"`
		ClientCertPath          string `toml:"client_cert_path,omitempty"`
		ClientCertData          string `toml:"client_cert_data,omitempty"`
		ClientKeyPath           string `toml:"client_key_path,omitempty"`
		ClientKeyData           string `toml:"client_key_data,omitempty"`
		ServerCACertPath        string `toml:"server_ca_cert_path,omitempty"`
		ServerCACertData        string `toml:"server_ca_cert_data,omitempty"`
		ServerName              string `toml:"server_name,omitempty"`
		DisableHostVerification bool   `toml:"disable_host_verification,omitempty"`
	}

	tomlCodec struct {
		Endpoint string `toml:"endpoint,omitempty"`
		Auth     string `toml:"auth,omitempty"`
	}
)

var knownProfileKeys = map[string]bool{
	"address": true, "namespace": true, "api_key": true, "tls": true,
	"codec": true, "grpc_meta": true, "authority": true,
}

// ClientConfigFromTOMLOptions are the options of ClientConfig.FromTOML.
type ClientConfigFromTOMLOptions struct {
	// Strict makes keys this package does not know an error.
	Strict bool
	// AdditionalProfileFields, if not nil, receives the profile keys this
	// package does not know (unless Strict), by profile name then key, so
	// that a tool can keep them when it writes the file back.
	AdditionalProfileFields map[string]map[string]any
}

// FromTOML replaces the config's profiles with those of the TOML data.
// A malformed file, or a value of the wrong type, is an error that gives
// its line and key.
func (c *ClientConfig) FromTOML(data []byte, options ClientConfigFromTOMLOptions) error {
	var file tomlFile
	decoder := toml.NewDecoder(bytes.NewReader(data))
	if options.Strict {
		decoder.DisallowUnknownFields()
	}
	if err := decoder.Decode(&file); err != nil {
		return explainDecodeError(err)
	}
	if options.AdditionalProfileFields != nil {
		if err := collectAdditionalFields(data, options.AdditionalProfileFields); err != nil {
			return err
		}
	}
	c.Profiles = make(map[string]*ClientConfigProfile, len(file.Profiles))
	for name, p := range file.Profiles {
		c.Profiles[name] = p.profile()
	}
	return nil
}

// explainDecodeError rewrites the TOML library's errors to name the line
// and the key.
func explainDecodeError(err error) error {
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) {
		lines := make([]string, len(strict.Errors))
		for i := range strict.Errors {
			e := &strict.Errors[i]
			row, _ := e.Position()
			lines[i] = fmt.Sprintf("line %d: unknown key %q", row, strings.Join(e.Key(), "."))
		}
		return fmt.Errorf("%s (check the spelling; the keys of a profile are address, namespace, api_key, authority, tls, codec and grpc_meta)", strings.Join(lines, "; "))
	}
	var decode *toml.DecodeError
	if errors.As(err, &decode) {
		row, column := decode.Position()
		message := describeTypeMismatch(strings.TrimPrefix(decode.Error(), "toml: "))
		if key := decode.Key(); len(key) > 0 {
			return fmt.Errorf("line %d, column %d, key %q: %s", row, column, strings.Join(key, "."), message)
		}
		return fmt.Errorf("line %d, column %d: %s", row, column, message)
	}
	return err
}

// typeMismatch is how the TOML library words a value of the wrong type,
// naming this package's Go types.
var typeMismatch = regexp.MustCompile(`^cannot decode TOML (\w+) into .* of type (\S+)$`)

// describeTypeMismatch says what the key takes in TOML terms rather than
// Go ones; other messages pass as they are.
func describeTypeMismatch(message string) string {
	m := typeMismatch.FindStringSubmatch(message)
	if m == nil {
		return message
	}
	want := "table"
	switch m[2] {
	case "string":
		want = "string"
	case "bool":
		want = "boolean (true or false)"
	}
	return fmt.Sprintf("the value is a TOML %s, but this key takes a %s", m[1], want)
}

// collectAdditionalFields stores the unknown keys of each profile.
func collectAdditionalFields(data []byte, into map[string]map[string]any) error {
	var raw struct {
		Profiles map[string]map[string]any `toml:"profile"`
	}
	if err := toml.Unmarshal(data, &raw); err != nil {
		return explainDecodeError(err)
	}
	for name, fields := range raw.Profiles {
		for key, value := range fields {
			if knownProfileKeys[key] {
				continue
			}
			if into[name] == nil {
				into[name] = map[string]any{}
			}
			into[name][key] = value
		}
	}
	return nil
}

// ClientConfigToTOMLOptions are the options of ClientConfig.ToTOML.
type ClientConfigToTOMLOptions struct {
	// OverrideIndent replaces the two-space indentation of nested tables.
	OverrideIndent *string
	// AdditionalProfileFields are written into the profiles with the
	// known ones, by profile name then key; a known key is an error.
	AdditionalProfileFields map[string]map[string]any
}

// ToTOML writes the config as TOML that FromTOML and the Temporal CLI
// read. Keys come out in an order of their own, not the order read.
func (c *ClientConfig) ToTOML(options ClientConfigToTOMLOptions) ([]byte, error) {
	file := tomlFile{Profiles: make(map[string]tomlProfile, len(c.Profiles))}
	for name, p := range c.Profiles {
		if p != nil {
			file.Profiles[name] = tomlProfileOf(p)
		}
	}
	var document any = file
	if len(options.AdditionalProfileFields) > 0 {
		merged, err := mergeAdditionalFields(file, options.AdditionalProfileFields)
		if err != nil {
			return nil, err
		}
		document = merged
	}
	indent := "  "
	if options.OverrideIndent != nil {
		indent = *options.OverrideIndent
	}
	var out bytes.Buffer
	encoder := toml.NewEncoder(&out).SetIndentTables(true).SetIndentSymbol(indent)
	if err := encoder.Encode(document); err != nil {
		return nil, fmt.Errorf("writing the Temporal client config: %w", err)
	}
	return out.Bytes(), nil
}

// mergeAdditionalFields turns the file into generic tables and adds the
// extra keys to them.
func mergeAdditionalFields(file tomlFile, additional map[string]map[string]any) (map[string]any, error) {
	encoded, err := toml.Marshal(file)
	if err != nil {
		return nil, fmt.Errorf("writing the Temporal client config: %w", err)
	}
	document := map[string]any{}
	if err := toml.Unmarshal(encoded, &document); err != nil {
		return nil, fmt.Errorf("writing the Temporal client config: %w", err)
	}
	profiles, _ := document["profile"].(map[string]any)
	if profiles == nil {
		profiles = map[string]any{}
		document["profile"] = profiles
	}
	for name, fields := range additional {
		profile, _ := profiles[name].(map[string]any)
		if profile == nil {
			profile = map[string]any{}
			profiles[name] = profile
		}
		for key, value := range fields {
			if knownProfileKeys[key] {
				return nil, fmt.Errorf("additional field %q of profile %q is a field this package writes itself: rename it", key, name)
			}
			profile[key] = value
		}
	}
	return document, nil
}

func (p tomlProfile) profile() *ClientConfigProfile {
	out := &ClientConfigProfile{
		Address:   p.Address,
		Namespace: p.Namespace,
		APIKey:    p.APIKey,
		Authority: p.Authority,
	}
	if p.TLS != nil {
		out.TLS = &ClientConfigTLS{
			Disabled:                p.TLS.Disabled,
			ClientCertPath:          p.TLS.ClientCertPath,
			ClientCertData:          bytesOrNil(p.TLS.ClientCertData),
			ClientKeyPath:           p.TLS.ClientKeyPath,
			ClientKeyData:           bytesOrNil(p.TLS.ClientKeyData),
			ServerCACertPath:        p.TLS.ServerCACertPath,
			ServerCACertData:        bytesOrNil(p.TLS.ServerCACertData),
			ServerName:              p.TLS.ServerName,
			DisableHostVerification: p.TLS.DisableHostVerification,
		}
	}
	if p.Codec != nil {
		out.Codec = &ClientConfigCodec{Endpoint: p.Codec.Endpoint, Auth: p.Codec.Auth}
	}
	out.GRPCMeta = normalizedMeta(p.GRPCMeta)
	return out
}

func tomlProfileOf(p *ClientConfigProfile) tomlProfile {
	out := tomlProfile{
		Address:   p.Address,
		Namespace: p.Namespace,
		APIKey:    p.APIKey,
		Authority: p.Authority,
		GRPCMeta:  normalizedMeta(p.GRPCMeta),
	}
	if t := p.TLS; t != nil {
		out.TLS = &tomlTLS{
			Disabled:                t.Disabled,
			ClientCertPath:          t.ClientCertPath,
			ClientCertData:          string(t.ClientCertData),
			ClientKeyPath:           t.ClientKeyPath,
			ClientKeyData:           string(t.ClientKeyData),
			ServerCACertPath:        t.ServerCACertPath,
			ServerCACertData:        string(t.ServerCACertData),
			ServerName:              t.ServerName,
			DisableHostVerification: t.DisableHostVerification,
		}
	}
	if p.Codec != nil {
		out.Codec = &tomlCodec{Endpoint: p.Codec.Endpoint, Auth: p.Codec.Auth}
	}
	return out
}

// bytesOrNil keeps absent data nil, so that a profile read back equals
// the one written.
func bytesOrNil(s string) []byte {
	if s == "" {
		return nil
	}
	return []byte(s)
}

func normalizedMeta(meta map[string]string) map[string]string {
	if len(meta) == 0 {
		return nil
	}
	out := make(map[string]string, len(meta))
	for k, v := range meta {
		out[NormalizeGRPCMetaKey(k)] = v
	}
	return out
}
