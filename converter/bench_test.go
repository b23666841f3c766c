package converter

import (
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
)

// benchSmall is a typical small workflow argument.
type benchSmall struct {
	ID      string
	Count   int
	Enabled bool
	Tags    []string
}

func smallValue() benchSmall {
	return benchSmall{ID: "order-1234", Count: 7, Enabled: true, Tags: []string{"a", "b"}}
}

// largeValue is a struct carrying 64 KiB of text.
type largeValue struct {
	Body string
}

func newLargeValue() largeValue {
	return largeValue{Body: strings.Repeat("0123456789abcdef", 64*1024/16)}
}

func BenchmarkEncodeSmallStruct(b *testing.B) {
	dc := GetDefaultDataConverter()
	v := smallValue()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := dc.ToPayload(v); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeSmallStruct(b *testing.B) {
	dc := GetDefaultDataConverter()
	p, _ := dc.ToPayload(smallValue())
	b.ReportAllocs()
	for b.Loop() {
		var out benchSmall
		if err := dc.FromPayload(p, &out); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncode64KiB(b *testing.B) {
	dc := GetDefaultDataConverter()
	v := newLargeValue()
	b.SetBytes(int64(len(v.Body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := dc.ToPayload(v); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecode64KiB(b *testing.B) {
	dc := GetDefaultDataConverter()
	v := newLargeValue()
	p, _ := dc.ToPayload(v)
	b.SetBytes(int64(len(v.Body)))
	b.ReportAllocs()
	for b.Loop() {
		var out largeValue
		if err := dc.FromPayload(p, &out); err != nil {
			b.Fatal(err)
		}
	}
}

// zlibPayloads is a payload of n bytes of JSON-like text, compressed by
// the zlib codec.
func zlibPayloads(b *testing.B, n int) []*commonpb.Payload {
	b.Helper()
	const record = `{"id":"order-1234","count":7,"tags":["a","b"]},`
	text := strings.Repeat(record, n/len(record)+1)[:n]
	p, err := GetDefaultDataConverter().ToPayload(text)
	if err != nil {
		b.Fatal(err)
	}
	encoded, err := NewZlibCodec(ZlibCodecOptions{AlwaysEncode: true}).Encode([]*commonpb.Payload{p})
	if err != nil {
		b.Fatal(err)
	}
	return encoded
}

func benchmarkZlibDecode(b *testing.B, n int) {
	codec := NewZlibCodec(ZlibCodecOptions{})
	encoded := zlibPayloads(b, n)
	b.SetBytes(int64(n))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := codec.Decode(encoded); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkZlibDecode1KiB(b *testing.B)  { benchmarkZlibDecode(b, 1<<10) }
func BenchmarkZlibDecode64KiB(b *testing.B) { benchmarkZlibDecode(b, 64<<10) }
