package wfsync

import (
	"fmt"
	"testing"
)

func TestMutexGoesToTheFirstWaiterInCreationOrder(t *testing.T) {
	tr := newTestRun(t)
	var events trace
	tr.start(func(ctx Context) {
		mu := NewMutex(ctx)
		_ = mu.Lock(ctx)
		// Created m1, m2, m3; they call Lock in order m3, m2, m1.
		for i, delay := range []int{2, 1, 0} {
			Go(ctx, func(ctx Context) {
				for range delay {
					yieldOnce(ctx)
				}
				if err := mu.Lock(ctx); err != nil {
					t.Error(err)
				}
				events.add("m%d", i+1)
				yieldOnce(ctx) // hold the lock across a pass
				mu.Unlock()
			})
		}
		for range 3 {
			yieldOnce(ctx)
		}
		events.add("locked:%v,try:%v", mu.IsLocked(), mu.TryLock(ctx))
		mu.Unlock()
	})
	tr.run()
	assertTrace(t, events, "locked:true,try:false m1 m2 m3")
}

func TestMutexLockReturnsCanceledErrorWithoutTheLock(t *testing.T) {
	tr := newTestRun(t)
	var events trace
	tr.start(func(ctx Context) {
		mu := NewMutex(ctx)
		_ = mu.Lock(ctx)
		child, cancel := WithCancel(ctx)
		Go(ctx, func(ctx Context) {
			err := mu.Lock(child)
			events.add("lock:canceled=%v", isCanceledError(err))
		})
		yieldOnce(ctx)
		cancel()
		yieldOnce(ctx)
		mu.Unlock()
		events.add("locked:%v", mu.IsLocked())
		defer func() { events.add("unlock-unlocked:%v", recover()) }()
		mu.Unlock()
	})
	tr.run()
	assertTrace(t, events, "lock:canceled=true locked:false unlock-unlocked:workflow: Mutex.Unlock called on an unlocked mutex")
}

func TestSemaphoreAcquireReleaseAndCancellation(t *testing.T) {
	tr := newTestRun(t)
	var events trace
	tr.start(func(ctx Context) {
		sem := NewSemaphore(ctx, 3)
		events.add("try2:%v", sem.TryAcquire(ctx, 2))
		events.add("try2-again:%v", sem.TryAcquire(ctx, 2))
		big, cancel := WithCancel(ctx)
		Go(ctx, func(ctx Context) {
			err := sem.Acquire(big, 3)
			events.add("acquire3:canceled=%v", isCanceledError(err))
		})
		Go(ctx, func(ctx Context) {
			err := sem.Acquire(ctx, 1)
			events.add("acquire1:%v", err)
		})
		yieldOnce(ctx)
		cancel()
		yieldOnce(ctx)
		sem.Release(3)
		defer func() { events.add("over-release:%v", recover()) }()
		sem.Release(1)
	})
	tr.run()
	assertTrace(t, events, "try2:true try2-again:false acquire1:<nil> acquire3:canceled=true "+
		"over-release:workflow: Semaphore.Release released more than held")
}

func TestWaitGroupWaitsForItsCoroutinesAndIgnoresCancellation(t *testing.T) {
	tr := newTestRun(t)
	var events trace
	var release Settable
	tr.start(func(ctx Context) {
		var gate Future
		gate, release = newFuture(ctx)
		child, cancel := WithCancel(ctx)
		wg := NewWaitGroup(ctx)
		for i := range 3 {
			wg.Go(ctx, func(ctx Context) {
				_ = gate.Get(ctx, nil)
				events.add("worker%d", i)
			})
		}
		Go(ctx, func(ctx Context) { cancel() })
		wg.Wait(child)
		events.add("waited:err=%v", child.Err())
		wg.Wait(ctx) // counter is zero: returns at once
		events.add("again")
	})
	tr.run()
	assertTrace(t, events, "")
	release.SetValue(nil)
	tr.run()
	assertTrace(t, events, "worker0 worker1 worker2 waited:err=canceled again")
}

func TestWaitGroupReturnsEvenIfTheCounterRisesBeforeItsTurn(t *testing.T) {
	tr := newTestRun(t)
	var events trace
	tr.start(func(ctx Context) {
		wg := NewWaitGroup(ctx)
		wg.Add(1)
		Go(ctx, func(ctx Context) {
			wg.Done() // the waiter is woken here...
			wg.Add(1) // ...and not put back to sleep by this
			events.add("bumped")
		})
		wg.Wait(ctx)
		events.add("waited")
	})
	tr.run()
	assertTrace(t, events, "bumped waited")
}

func TestWaitGroupMisuse(t *testing.T) {
	tr := newTestRun(t)
	var recovered []string
	tr.start(func(ctx Context) {
		wg := NewWaitGroup(ctx)
		catch := func(f func()) {
			defer func() { recovered = append(recovered, fmt.Sprint(recover())) }()
			f()
		}
		catch(func() { wg.Done() })
		reused := NewWaitGroup(ctx)
		reused.Add(1)
		Go(ctx, func(ctx Context) {
			catch(func() { reused.Wait(ctx) }) // root is already waiting
			reused.Done()
		})
		reused.Wait(ctx)
	})
	tr.run()
	if fmt.Sprint(recovered) != "[workflow: negative WaitGroup counter workflow: WaitGroup is reused before the previous Wait returned]" {
		t.Fatalf("recovered %q", recovered)
	}
}
