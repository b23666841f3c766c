package converter

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"

	commonpb "go.temporal.io/api/common/v1"
	"google.golang.org/protobuf/proto"
)

// zlibEncoding marks a payload whose data is a zlib-compressed serialized
// Payload, as the other SDKs' zlib codecs write it.
const zlibEncoding = "binary/zlib"

// DefaultZlibMaxDecodedSize is how many bytes one Decode call of a zlib
// codec inflates at most, unless ZlibCodecOptions.MaxDecodedSize says
// otherwise: 128 MiB, the largest gRPC message a client accepts by default
// (ConnectionOptions.MaxPayloadSize).
const DefaultZlibMaxDecodedSize = 128 << 20

// ZlibCodecOptions configures NewZlibCodec.
type ZlibCodecOptions struct {
	// AlwaysEncode compresses every payload; by default a payload is kept
	// as is when compression would not make it smaller.
	AlwaysEncode bool
	// MaxDecodedSize bounds, in bytes, what one Decode call inflates, all
	// its payloads together; DefaultZlibMaxDecodedSize when zero or less.
	// Compressed data comes from outside the process (the server, a codec
	// server's caller), and a few hundred kilobytes of it can inflate to
	// gigabytes: a call that would go past the bound fails instead, with
	// an error that names it. (An addition to go.temporal.io/sdk's
	// options, which inflate without bound.)
	MaxDecodedSize int
}

type zlibCodec struct{ options ZlibCodecOptions }

// decodedSizeError is the error of a Decode call that would inflate more
// than the codec's MaxDecodedSize. The codec server handler answers it
// with 413.
type decodedSizeError struct {
	payload int // index of the payload that went past the limit
	limit   int
}

func (e *decodedSizeError) Error() string {
	return fmt.Sprintf("zlib codec: payload %d inflates past the codec's limit of %d bytes for one Decode call, all payloads together (ZlibCodecOptions.MaxDecodedSize; the data may be a decompression bomb)", e.payload, e.limit)
}

// NewZlibCodec returns a PayloadCodec that compresses whole payloads
// (metadata included) with zlib. Small payloads rarely shrink; with many of
// them a faster algorithm may serve better.
func NewZlibCodec(options ZlibCodecOptions) PayloadCodec {
	if options.MaxDecodedSize <= 0 {
		options.MaxDecodedSize = DefaultZlibMaxDecodedSize
	}
	return &zlibCodec{options: options}
}

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
	return z.decodeWithin(payloads, z.options.MaxDecodedSize)
}

// decodeWithin is Decode inflating at most limit bytes, all payloads
// together; past it, the error is a decodedSizeError naming the codec's
// own limit when limit is that, and errInflatedTooMuch otherwise (the
// codec server's handler inflates within the memory it has set aside).
func (z *zlibCodec) decodeWithin(payloads []*commonpb.Payload, limit int) ([]*commonpb.Payload, error) {
	result := make([]*commonpb.Payload, len(payloads))
	budget := limit
	for i, p := range payloads {
		if string(p.GetMetadata()[MetadataEncoding]) != zlibEncoding {
			result[i] = p
			continue
		}
		decoded, inflated, err := inflatePayload(p.GetData(), budget)
		if errors.Is(err, errInflatedTooMuch) && limit == z.options.MaxDecodedSize {
			return nil, &decodedSizeError{payload: i, limit: z.options.MaxDecodedSize}
		}
		if errors.Is(err, errInflatedTooMuch) {
			return nil, err
		}
		if err != nil {
			return nil, fmt.Errorf("zlib codec: payload %d: %w", i, err)
		}
		budget -= inflated
		result[i] = decoded
	}
	return result, nil
}

var errInflatedTooMuch = errors.New("inflates past the limit")

// inflatePayload decompresses and parses one zlib-encoded payload, reading
// at most limit bytes of inflated data; it returns how many it read.
func inflatePayload(data []byte, limit int) (*commonpb.Payload, int, error) {
	r, err := zlib.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, 0, err
	}
	// One byte past the limit tells a payload of exactly limit bytes from
	// a larger one.
	raw, err := io.ReadAll(io.LimitReader(r, int64(limit)+1))
	if closeErr := r.Close(); err == nil {
		err = closeErr
	}
	if err != nil {
		return nil, 0, err
	}
	if len(raw) > limit {
		return nil, 0, errInflatedTooMuch
	}
	p := &commonpb.Payload{}
	if err := proto.Unmarshal(raw, p); err != nil {
		return nil, 0, err
	}
	return p, len(raw), nil
}
