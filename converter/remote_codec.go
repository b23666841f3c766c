package converter

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"

	commonpb "go.temporal.io/api/common/v1"
	"google.golang.org/protobuf/encoding/protojson"
)

// RemotePayloadCodecOptions configures NewRemotePayloadCodec.
type RemotePayloadCodecOptions struct {
	// Endpoint is the codec server URL; /encode and /decode are appended.
	Endpoint string
	// ModifyRequest, if set, may change each request, for example to add
	// authentication headers.
	ModifyRequest func(*http.Request) error
	// Client sends the requests; the zero value works.
	Client http.Client
}

type remotePayloadCodec struct {
	options RemotePayloadCodecOptions
}

// NewRemotePayloadCodec returns a PayloadCodec that has a codec server (see
// NewPayloadCodecHTTPHandler) encode and decode payloads.
func NewRemotePayloadCodec(options RemotePayloadCodecOptions) PayloadCodec {
	return &remotePayloadCodec{options: options}
}

func (c *remotePayloadCodec) Encode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	return c.call(codecEncodePath, payloads)
}

func (c *remotePayloadCodec) Decode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	return c.call(codecDecodePath, payloads)
}

// call posts payloads to the codec server and checks the answer holds as
// many payloads.
func (c *remotePayloadCodec) call(path string, payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	body, err := protojson.Marshal(&commonpb.Payloads{Payloads: payloads})
	if err != nil {
		return nil, fmt.Errorf("remote codec: encoding request: %w", err)
	}
	req, err := http.NewRequest(http.MethodPost, c.options.Endpoint+path, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("remote codec: building request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if c.options.ModifyRequest != nil {
		if err := c.options.ModifyRequest(req); err != nil {
			return nil, err
		}
	}
	resp, err := c.options.Client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("remote codec: %w", err)
	}
	defer func() { _ = resp.Body.Close() }()
	answer, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("remote codec: reading response: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("remote codec: %s: %s", http.StatusText(resp.StatusCode), bytes.TrimSpace(answer))
	}
	var result commonpb.Payloads
	if err := protojson.Unmarshal(answer, &result); err != nil {
		return nil, fmt.Errorf("remote codec: decoding response: %w", err)
	}
	if len(result.Payloads) != len(payloads) {
		return nil, fmt.Errorf("remote codec: got %d payloads back for %d", len(result.Payloads), len(payloads))
	}
	return result.Payloads, nil
}

// RemoteDataConverterOptions configures NewRemoteDataConverter; the fields
// mean what they mean in RemotePayloadCodecOptions.
type RemoteDataConverterOptions struct {
	Endpoint      string
	ModifyRequest func(*http.Request) error
	Client        http.Client
}

// NewRemoteDataConverter wraps parent so that its payloads are encoded and
// decoded by the codec server at options.Endpoint.
func NewRemoteDataConverter(parent DataConverter, options RemoteDataConverterOptions) DataConverter {
	options.Endpoint = strings.TrimSuffix(options.Endpoint, "/")
	return NewCodecDataConverter(parent, NewRemotePayloadCodec(RemotePayloadCodecOptions(options)))
}
