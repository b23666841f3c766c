package resilience

import (
	"net"
	"sync"
	"testing"
	"time"
)

// faultProxy forwards TCP connections from a loopback port to target and
// damages them on demand: Cut closes every open connection, Stall stops
// all forwarding for a while (bytes wait, nothing is lost), Slow delays
// every chunk. It is closed, with every connection, when the test ends.
type faultProxy struct {
	target string
	lis    net.Listener

	mu        sync.Mutex
	conns     map[net.Conn]bool
	stallEnds time.Time     // forwarding waits until then
	delay     time.Duration // added before each chunk is forwarded
	closed    bool
	accepted  int

	wg sync.WaitGroup
}

func startFaultProxy(t *testing.T, target string) *faultProxy {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &faultProxy{target: target, lis: lis, conns: make(map[net.Conn]bool)}
	p.wg.Add(1)
	go p.accept()
	t.Cleanup(p.Close)
	return p
}

// Addr is the proxy's address, to dial instead of the target.
func (p *faultProxy) Addr() string { return p.lis.Addr().String() }

func (p *faultProxy) accept() {
	defer p.wg.Done()
	for {
		c, err := p.lis.Accept()
		if err != nil {
			return
		}
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			p.serve(c)
		}()
	}
}

func (p *faultProxy) serve(client net.Conn) {
	server, err := net.DialTimeout("tcp", p.target, 5*time.Second)
	if err != nil {
		client.Close()
		return
	}
	if !p.track(client, server) {
		return
	}
	var both sync.WaitGroup
	both.Add(2)
	go func() { defer both.Done(); p.pipe(server, client) }()
	go func() { defer both.Done(); p.pipe(client, server) }()
	both.Wait()
	p.untrack(client, server)
}

// track registers a connection pair, unless the proxy is closed.
func (p *faultProxy) track(conns ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		for _, c := range conns {
			c.Close()
		}
		return false
	}
	p.accepted++
	for _, c := range conns {
		p.conns[c] = true
	}
	return true
}

func (p *faultProxy) untrack(conns ...net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range conns {
		c.Close()
		delete(p.conns, c)
	}
}

// pipe copies from src to dst chunk by chunk, through the faults; when
// either side ends, it closes both.
func (p *faultProxy) pipe(dst, src net.Conn) {
	defer dst.Close()
	defer src.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if !p.gate() {
				return
			}
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// gate waits out a stall and the delay; it reports false once the proxy
// is closed.
func (p *faultProxy) gate() bool {
	for {
		p.mu.Lock()
		closed, wait, delay := p.closed, time.Until(p.stallEnds), p.delay
		p.mu.Unlock()
		if closed {
			return false
		}
		if wait <= 0 {
			time.Sleep(delay)
			return true
		}
		time.Sleep(min(wait, 50*time.Millisecond))
	}
}

// Cut closes every open connection, as a network failure or a restarted
// load balancer would. New connections are accepted as before.
func (p *faultProxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range p.conns {
		c.Close()
		delete(p.conns, c)
	}
}

// Stall holds every byte in both directions for d, on open and new
// connections alike, then lets them through.
func (p *faultProxy) Stall(d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stallEnds = time.Now().Add(d)
}

// Slow delays every chunk forwarded by delay; 0 ends the slowness.
func (p *faultProxy) Slow(delay time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.delay = delay
}

// Connections is how many connections the proxy has accepted.
func (p *faultProxy) Connections() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.accepted
}

// Close stops accepting, closes every connection and waits for the
// proxy's goroutines to end.
func (p *faultProxy) Close() {
	p.mu.Lock()
	p.closed = true
	for c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	p.lis.Close()
	p.wg.Wait()
}
