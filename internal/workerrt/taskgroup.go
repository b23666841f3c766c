package workerrt

import (
	"sync"
	"time"
)

// taskGroup counts running tasks so that Stop can wait for them.
type taskGroup struct{ sync.WaitGroup }

// waitFor waits for every task, or d; it reports whether all finished.
func (g *taskGroup) waitFor(d time.Duration) bool {
	done := make(chan struct{})
	go func() {
		g.Wait()
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
