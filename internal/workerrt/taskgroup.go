package workerrt

import (
	"sync"
	"sync/atomic"
	"time"
)

// taskGroup counts running tasks so that Stop can wait for them.
type taskGroup struct {
	wg      sync.WaitGroup
	running atomic.Int64
}

func (g *taskGroup) Add(n int) {
	g.running.Add(int64(n))
	g.wg.Add(n)
}

func (g *taskGroup) Done() {
	g.running.Add(-1)
	g.wg.Done()
}

func (g *taskGroup) Wait() { g.wg.Wait() }

// waitFor waits for every task, or d; it reports whether all finished.
func (g *taskGroup) waitFor(d time.Duration) bool {
	if g.running.Load() == 0 {
		return true
	}
	done := make(chan struct{})
	go func() {
		g.wg.Wait()
		close(done)
	}()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
		return false
	}
}
