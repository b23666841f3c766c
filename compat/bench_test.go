package compat

import (
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	official "go.temporal.io/sdk/converter"

	ours "github.com/durable-go/sdk/converter"
)

// The same operations with each SDK's default data converter:
// go test -bench . -benchmem ./...

type benchSmall struct {
	ID      string
	Count   int
	Enabled bool
	Tags    []string
}

type benchLarge struct {
	Body string
}

type dataConverter interface {
	ToPayload(any) (*commonpb.Payload, error)
	FromPayload(*commonpb.Payload, any) error
}

var converters = []struct {
	name string
	dc   dataConverter
}{
	{"ours", ours.GetDefaultDataConverter()},
	{"official", official.GetDefaultDataConverter()},
}

func smallValue() benchSmall {
	return benchSmall{ID: "order-1234", Count: 7, Enabled: true, Tags: []string{"a", "b"}}
}

func largeValue() benchLarge {
	return benchLarge{Body: strings.Repeat("0123456789abcdef", 64*1024/16)}
}

func BenchmarkEncodeSmallStruct(b *testing.B) {
	for _, c := range converters {
		b.Run(c.name, func(b *testing.B) {
			v := smallValue()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.dc.ToPayload(v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkDecodeSmallStruct(b *testing.B) {
	for _, c := range converters {
		b.Run(c.name, func(b *testing.B) {
			p, _ := c.dc.ToPayload(smallValue())
			b.ReportAllocs()
			for b.Loop() {
				var out benchSmall
				if err := c.dc.FromPayload(p, &out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkEncode64KiB(b *testing.B) {
	for _, c := range converters {
		b.Run(c.name, func(b *testing.B) {
			v := largeValue()
			b.SetBytes(int64(len(v.Body)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.dc.ToPayload(v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkDecode64KiB(b *testing.B) {
	for _, c := range converters {
		b.Run(c.name, func(b *testing.B) {
			v := largeValue()
			p, _ := c.dc.ToPayload(v)
			b.SetBytes(int64(len(v.Body)))
			b.ReportAllocs()
			for b.Loop() {
				var out benchLarge
				if err := c.dc.FromPayload(p, &out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkEncodeProto(b *testing.B) {
	msg := &commonpb.WorkflowExecution{WorkflowId: "wf-1", RunId: "run-1"}
	for _, c := range converters {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.dc.ToPayload(msg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
