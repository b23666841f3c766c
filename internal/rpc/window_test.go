package rpc

import (
	"bufio"
	"context"
	"encoding/binary"
	"io"
	"net"
	"sync/atomic"
	"testing"

	"go.temporal.io/api/workflowservice/v1"
)

// pingCounter is a loopback TCP proxy in front of a server that reads the
// HTTP/2 frames the client sends and counts the PINGs among them (not
// their ACKs).
type pingCounter struct {
	addr  string
	pings atomic.Int64
}

func startPingCounter(t *testing.T, target string) *pingCounter {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &pingCounter{addr: lis.Addr().String()}
	var conns []net.Conn // touched by the accepting goroutine only, until it ends
	accepting := make(chan struct{})
	t.Cleanup(func() {
		lis.Close()
		<-accepting
		for _, c := range conns {
			c.Close()
		}
	})
	go func() {
		defer close(accepting)
		for {
			client, err := lis.Accept()
			if err != nil {
				return
			}
			server, err := net.Dial("tcp", target)
			if err != nil {
				client.Close()
				continue
			}
			conns = append(conns, client, server)
			go func() { _, _ = io.Copy(client, server) }()
			go p.countFrames(io.TeeReader(client, server))
		}
	}()
	return p
}

// countFrames reads the client's side of one connection: the preface,
// then frames of a 9-byte header (24-bit length, type, flags, stream).
func (p *pingCounter) countFrames(r io.Reader) {
	const frameTypePing, flagAck = 0x6, 0x1
	br := bufio.NewReader(r)
	if _, err := br.Discard(len("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")); err != nil {
		return
	}
	var header [9]byte
	for {
		if _, err := io.ReadFull(br, header[:]); err != nil {
			return
		}
		length := int(binary.BigEndian.Uint32(append([]byte{0}, header[:3]...)))
		if header[3] == frameTypePing && header[4]&flagAck == 0 {
			p.pings.Add(1)
		}
		if _, err := br.Discard(length); err != nil {
			return
		}
	}
}

// Without fixed windows, gRPC probes the bandwidth with a PING for nearly
// every response it reads: two extra frames per call that a worker pays
// for on every task.
func TestCallsSendNoFlowControlPings(t *testing.T) {
	f := startFakeServer(t)
	f.set(func(f *fakeServer) { f.historyPayload = 32 << 10 })
	proxy := startPingCounter(t, f.addr)
	c, err := NewConn(Options{HostPort: proxy.addr})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	const calls = 50
	for range calls {
		_, err := c.WorkflowService().GetWorkflowExecutionHistory(context.Background(),
			&workflowservice.GetWorkflowExecutionHistoryRequest{Namespace: "default"})
		must(t, err)
	}
	if n := proxy.pings.Load(); n != 0 {
		t.Errorf("the client sent %d PING frames over %d calls, want none", n, calls)
	}
}
