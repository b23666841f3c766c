package internal

import "fmt"

// Selector is the workflow's select statement: cases are added once and
// Select runs the function of one ready case each time it is called.
type Selector interface {
	// AddReceive adds a case that is ready when c has a value or is
	// closed. f must receive the value from c itself: Select only
	// guarantees that a Receive in f will not block.
	AddReceive(c ReceiveChannel, f func(c ReceiveChannel, more bool)) Selector
	// AddSend adds a case that is ready when c takes v.
	AddSend(c SendChannel, v any, f func()) Selector
	// AddFuture adds a case that is ready when future is; it fires at most
	// once per Selector.
	AddFuture(future Future, f func(f Future)) Selector
	// AddDefault sets the function Select runs when no case is ready.
	AddDefault(f func())
	// Select blocks until a case is ready and runs its function.
	Select(ctx Context)
	// HasPending reports whether a case is ready now.
	HasPending() bool
}

// NewSelector returns a Selector named "selector-N", N counting the run's
// unnamed selectors from 1.
func NewSelector(ctx Context) Selector {
	rt := runtimeOf(ctx)
	rt.selectorSeq++
	return newSelector(fmt.Sprintf("selector-%d", rt.selectorSeq))
}

// NewNamedSelector returns a Selector with a name, which shows in stack
// traces of a coroutine blocked in its Select.
func NewNamedSelector(ctx Context, name string) Selector {
	runtimeOf(ctx)
	return newSelector(name)
}

func newSelector(name string) *selector {
	return &selector{name: name, reason: "blocked on " + name + ".Select"}
}

type selector struct {
	name        string
	reason      string
	cases       []*selectCase
	defaultFunc func()
}

// selectCase is one case; exactly one of recv, send and future is set.
type selectCase struct {
	recv     *channel
	recvFunc func(c ReceiveChannel, more bool)

	send      *channel
	sendValue any
	sendFunc  func()

	future     *future
	futureArg  Future // what the case function receives: the Future as added
	futureFunc func(f Future)

	// disabled cases are skipped: a future case that fired, and a receive
	// case that found its channel closed without waiting.
	disabled bool
}

// AddReceive implements Selector.
func (s *selector) AddReceive(c ReceiveChannel, f func(c ReceiveChannel, more bool)) Selector {
	s.cases = append(s.cases, &selectCase{recv: asChannel(c), recvFunc: f})
	return s
}

// AddSend implements Selector.
func (s *selector) AddSend(c SendChannel, v any, f func()) Selector {
	s.cases = append(s.cases, &selectCase{send: asChannel(c), sendValue: v, sendFunc: f})
	return s
}

// AddFuture implements Selector.
func (s *selector) AddFuture(future Future, f func(f Future)) Selector {
	af, ok := future.(asyncFuture)
	if !ok {
		panic(fmt.Sprintf("workflow: Selector.AddFuture needs a Future made by the workflow package, not a %T", future))
	}
	s.cases = append(s.cases, &selectCase{future: af.futureState(), futureArg: future, futureFunc: f})
	return s
}

// AddDefault implements Selector; a later call replaces the function.
func (s *selector) AddDefault(f func()) { s.defaultFunc = f }

func asChannel(c any) *channel {
	ch, ok := c.(*channel)
	if !ok {
		panic(fmt.Sprintf("workflow: Selector needs a Channel made by the workflow package, not a %T", c))
	}
	return ch
}

// HasPending implements Selector.
func (s *selector) HasPending() bool {
	for _, sc := range s.cases {
		switch {
		case sc.disabled:
		case sc.recv != nil:
			c := sc.recv
			if c.parked.len() > 0 || c.buffer.len() > 0 || c.senders.len() > 0 || c.closed {
				return true
			}
		case sc.send != nil:
			if c := sc.send; c.buffer.len() < c.capacity || c.receivers.len() > 0 {
				return true
			}
		case sc.future.ready:
			return true
		}
	}
	return false
}

// Select implements Selector; the package doc states which case it picks.
func (s *selector) Select(ctx Context) {
	run := &selectRun{hasDefault: s.defaultFunc != nil}
	defer run.withdraw()
	for _, sc := range s.cases {
		if sc.disabled {
			continue
		}
		switch {
		case sc.recv != nil:
			w := &selectReceive{run: run, sc: sc}
			v, ok, more := sc.recv.tryReceive(w)
			if ok || !more {
				run.fired = true
				if more {
					sc.recv.parked.pushFront(v) // for f's Receive to take
				} else {
					sc.disabled = true
				}
				sc.recvFunc(sc.recv, more)
				return
			}
			run.waits = append(run.waits, wait{ch: sc.recv, r: w})
		case sc.send != nil:
			w := &selectSend{run: run, sc: sc}
			if sc.send.trySend(sc.sendValue, w) {
				run.fired = true
				sc.sendFunc()
				return
			}
			run.waits = append(run.waits, wait{ch: sc.send, s: w})
		default:
			if sc.future.ready {
				run.fired = true
				sc.disabled = true
				sc.futureFunc(sc.futureArg)
				return
			}
			w := &selectReceive{run: run, sc: sc}
			sc.future.waiters = append(sc.future.waiters, w)
			run.waits = append(run.waits, wait{f: sc.future, r: w})
		}
	}
	if s.defaultFunc != nil {
		s.defaultFunc()
		return
	}
	runtimeOf(ctx).dispatcher.Block(s.reason, run)
	run.dispatch()
}

// selectRun is one call of Select, shared by the waiters of its cases.
type selectRun struct {
	hasDefault bool
	fired      bool        // a case was chosen: the other waiters withdraw
	chosen     *selectCase // the case a waiter chose while Select blocked
	value      any         // what a chosen receive case got
	more       bool
	waits      []wait // registrations to withdraw when Select returns
}

// Ready is the dispatcher's wake-up condition for a blocked Select.
func (r *selectRun) Ready() bool { return r.chosen != nil }

// choose records that sc became ready; false if another case already did.
// While Select runs its default function, its waiters are still
// registered, as in the official SDK: a value given to one then is parked
// in its channel rather than lost, and its case function does not run.
func (r *selectRun) choose(sc *selectCase, v any, more bool) bool {
	if r.fired {
		return false
	}
	r.fired = true
	if r.hasDefault {
		if sc.recv != nil && more {
			sc.recv.parked.push(v)
		}
		return true
	}
	r.chosen, r.value, r.more = sc, v, more
	return true
}

// dispatch runs the chosen case's function in the selecting coroutine.
func (r *selectRun) dispatch() {
	sc := r.chosen
	switch {
	case sc.recv != nil:
		if r.more {
			sc.recv.parked.pushFront(r.value) // for f's Receive to take
		}
		sc.recvFunc(sc.recv, r.more)
	case sc.send != nil:
		sc.sendFunc()
	default:
		sc.disabled = true
		sc.futureFunc(sc.futureArg)
	}
}

// wait is a registration of a case's waiter on a channel or a future.
type wait struct {
	ch *channel
	f  *future
	r  receiver
	s  sender
}

func (r *selectRun) withdraw() {
	for _, w := range r.waits {
		switch {
		case w.f != nil:
			w.f.removeWaiter(w.r)
		case w.r != nil:
			w.ch.receivers.remove(w.r)
		default:
			w.ch.senders.remove(w.s)
		}
	}
}

// selectReceive waits for a value on a receive case's channel, or for a
// future case's future.
type selectReceive struct {
	run *selectRun
	sc  *selectCase
}

func (w *selectReceive) give(v any, more bool) bool { return w.run.choose(w.sc, v, more) }

// selectSend offers a send case's value.
type selectSend struct {
	run *selectRun
	sc  *selectCase
}

func (w *selectSend) take() (any, bool) {
	if !w.run.choose(w.sc, nil, false) {
		return nil, false
	}
	return w.sc.sendValue, true
}
