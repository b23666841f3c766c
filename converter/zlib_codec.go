package converter

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"io"

	commonpb "go.temporal.io/api/common/v1"
	"google.golang.org/protobuf/proto"
)

// zlibEncoding marks a payload whose data is a zlib-compressed serialized
// Payload, as the other SDKs' zlib codecs write it.
const zlibEncoding = "binary/zlib"

// ZlibCodecOptions configures NewZlibCodec.
type ZlibCodecOptions struct {
	// AlwaysEncode compresses every payload; by default a payload is kept
	// as is when compression would not make it smaller.
	AlwaysEncode bool
}

type zlibCodec struct{ options ZlibCodecOptions }

// NewZlibCodec returns a PayloadCodec that compresses whole payloads
// (metadata included) with zlib. Small payloads rarely shrink; with many of
// them a faster algorithm may serve better.
func NewZlibCodec(options ZlibCodecOptions) PayloadCodec { return &zlibCodec{options: options} }

func (z *zlibCodec) Encode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	result := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		raw, err := proto.Marshal(p)
		if err != nil {
			return nil, fmt.Errorf("zlib codec: %w", err)
		}
		var buf bytes.Buffer
		w := zlib.NewWriter(&buf)
		_, err = w.Write(raw)
		if closeErr := w.Close(); err == nil {
			err = closeErr
		}
		if err != nil {
			return nil, fmt.Errorf("zlib codec: %w", err)
		}
		if buf.Len() < len(raw) || z.options.AlwaysEncode {
			result[i] = newPayload(buf.Bytes(), zlibEncoding)
		} else {
			result[i] = p
		}
	}
	return result, nil
}

func (z *zlibCodec) Decode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	result := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		if string(p.GetMetadata()[MetadataEncoding]) != zlibEncoding {
			result[i] = p
			continue
		}
		decoded, err := inflatePayload(p.GetData())
		if err != nil {
			return nil, fmt.Errorf("zlib codec: payload %d: %w", i, err)
		}
		result[i] = decoded
	}
	return result, nil
}

// inflatePayload decompresses and parses one zlib-encoded payload.
func inflatePayload(data []byte) (*commonpb.Payload, error) {
	r, err := zlib.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	raw, err := io.ReadAll(r)
	if closeErr := r.Close(); err == nil {
		err = closeErr
	}
	if err != nil {
		return nil, err
	}
	p := &commonpb.Payload{}
	if err := proto.Unmarshal(raw, p); err != nil {
		return nil, err
	}
	return p, nil
}
