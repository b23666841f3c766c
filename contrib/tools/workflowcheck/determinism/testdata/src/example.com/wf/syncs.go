package wf

import (
	"sync"
	"sync/atomic"

	"github.com/durable-go/sdk/workflow"
)

var hits atomic.Int64 // want hits:"mutable"

func SyncWorkflow(ctx workflow.Context) (int64, error) { // want SyncWorkflow:"nondeterministic"
	var mu sync.Mutex
	mu.Lock()         // want `\(\*sync.Mutex\).Lock called: SyncWorkflow; workflow coroutines never run in parallel`
	defer mu.Unlock() // want `\(\*sync.Mutex\).Unlock called`
	var wg sync.WaitGroup
	wg.Add(1) // want `\(\*sync.WaitGroup\).Add called`
	wg.Wait() // want `\(\*sync.WaitGroup\).Wait called`
	var once sync.Once
	once.Do(func() {}) // want `\(\*sync.Once\).Do called`
	var n int64
	atomic.AddInt64(&n, 1) // want `sync/atomic.AddInt64 called`
	hits.Add(1)            // want `\(\*sync/atomic.Int64\).Add called: SyncWorkflow`
	return n, nil
}
