package chk

import (
	"bytes"
	"fmt"

	commonpb "go.temporal.io/api/common/v1"
)

// PrefixCodec is a payload codec for tests: it marks what it encodes with
// its prefix, to show which converter encoded a payload, and refuses to
// decode what it did not encode.
type PrefixCodec string

// Encode puts the prefix before each payload's data.
func (c PrefixCodec) Encode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		out[i] = &commonpb.Payload{Metadata: p.GetMetadata(), Data: append([]byte(c), p.GetData()...)}
	}
	return out, nil
}

// Decode takes the prefix off each payload's data, and fails on one
// without it.
func (c PrefixCodec) Decode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		data, ok := bytes.CutPrefix(p.GetData(), []byte(c))
		if !ok {
			return nil, fmt.Errorf("not encoded by PrefixCodec(%q)", string(c))
		}
		out[i] = &commonpb.Payload{Metadata: p.GetMetadata(), Data: data}
	}
	return out, nil
}
