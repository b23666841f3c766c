package converter

import (
	"strings"
	"testing"
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
