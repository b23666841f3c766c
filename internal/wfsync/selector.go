package wfsync

import "fmt"

// MakeSelector returns a Selector named "selector-N", N counting the run's
// unnamed selectors from 1. F is the type of the futures its cases take:
// package internal's Future, which this package cannot name.
func MakeSelector[F Future](ctx Context) Selector[F] {
	rt := RuntimeOf(ctx)
	rt.selectorSeq++
	return newSelector[F](fmt.Sprintf("selector-%d", rt.selectorSeq))
}

// MakeNamedSelector returns a Selector with a name, which shows in stack
// traces of a coroutine blocked in its Select.
func MakeNamedSelector[F Future](ctx Context, name string) Selector[F] {
	RuntimeOf(ctx)
	return newSelector[F](name)
}

func newSelector[F Future](name string) Selector[F] {
	return Selector[F]{name: name, reason: "blocked on " + name + ".Select"}
}

// Selector is the workflow's select statement (package internal's
// Selector, which wraps it): cases are added once and Select runs the
// function of one ready case each time it is called. Its Add methods
// return it, for chaining.
type Selector[F Future] struct {
	name        string
	reason      string
	cases       []*selectCase[F]
	defaultFunc func()
}

// selectCase is one case; exactly one of recv, send and future is set.
type selectCase[F Future] struct {
	recv     *Chan
	recvFunc func(c ReceiveChannel, more bool)

	send      *Chan
	sendValue any
	sendFunc  func()

	future     *SettableFuture
	futureArg  F // what the case function receives: the Future as added
	futureFunc func(f F)

	// disabled cases are skipped: a future case that fired, and a receive
	// case that found its channel closed without waiting.
	disabled bool
}

// AddReceive adds a case that is ready when c has a value or is closed.
// f must receive the value from c itself: Select only guarantees that a
// Receive in f will not block.
func (s *Selector[F]) AddReceive(c ReceiveChannel, f func(c ReceiveChannel, more bool)) *Selector[F] {
	s.cases = append(s.cases, &selectCase[F]{recv: asChannel(c), recvFunc: f})
	return s
}

// AddSend adds a case that is ready when c takes v.
func (s *Selector[F]) AddSend(c SendChannel, v any, f func()) *Selector[F] {
	s.cases = append(s.cases, &selectCase[F]{send: asChannel(c), sendValue: v, sendFunc: f})
	return s
}

// AddFuture adds a case that is ready when future is; it fires at most
// once per Selector.
func (s *Selector[F]) AddFuture(future F, f func(f F)) *Selector[F] {
	af, ok := any(future).(asyncFuture)
	if !ok {
		panic(fmt.Sprintf("workflow: Selector.AddFuture needs a Future made by the workflow package, not a %T", future))
	}
	s.cases = append(s.cases, &selectCase[F]{future: af.futureState(), futureArg: future, futureFunc: f})
	return s
}

// AddDefault sets the function Select runs when no case is ready; a later
// call replaces it.
func (s *Selector[F]) AddDefault(f func()) { s.defaultFunc = f }

func asChannel(c any) *Chan {
	ch, ok := c.(*Chan)
	if !ok {
		panic(fmt.Sprintf("workflow: Selector needs a Channel made by the workflow package, not a %T", c))
	}
	return ch
}

// HasPending reports whether a case is ready now.
func (s *Selector[F]) HasPending() bool {
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

// Select blocks until a case is ready and runs its function; the package
// doc states which case it picks.
func (s *Selector[F]) Select(ctx Context) {
	run := &selectRun[F]{hasDefault: s.defaultFunc != nil}
	defer run.withdraw()
	for _, sc := range s.cases {
		if sc.disabled {
			continue
		}
		switch {
		case sc.recv != nil:
			w := &selectReceive[F]{run: run, sc: sc}
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
			w := &selectSend[F]{run: run, sc: sc}
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
			w := &selectReceive[F]{run: run, sc: sc}
			sc.future.waiters = append(sc.future.waiters, w)
			run.waits = append(run.waits, wait{f: sc.future, r: w})
		}
	}
	if s.defaultFunc != nil {
		s.defaultFunc()
		return
	}
	RuntimeOf(ctx).dispatcher.Block(s.reason, run)
	run.dispatch()
}

// selectRun is one call of Select, shared by the waiters of its cases.
type selectRun[F Future] struct {
	hasDefault bool
	fired      bool           // a case was chosen: the other waiters withdraw
	chosen     *selectCase[F] // the case a waiter chose while Select blocked
	value      any            // what a chosen receive case got
	more       bool
	waits      []wait // registrations to withdraw when Select returns
}

// Ready is the dispatcher's wake-up condition for a blocked Select.
func (r *selectRun[F]) Ready() bool { return r.chosen != nil }

// choose records that sc became ready; false if another case already did.
// While Select runs its default function, its waiters are still
// registered, as in the official SDK: a value given to one then is parked
// in its channel rather than lost, and its case function does not run.
func (r *selectRun[F]) choose(sc *selectCase[F], v any, more bool) bool {
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
func (r *selectRun[F]) dispatch() {
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
	ch *Chan
	f  *SettableFuture
	r  receiver
	s  sender
}

func (r *selectRun[F]) withdraw() {
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
type selectReceive[F Future] struct {
	run *selectRun[F]
	sc  *selectCase[F]
}

func (w *selectReceive[F]) give(v any, more bool) bool { return w.run.choose(w.sc, v, more) }

// selectSend offers a send case's value.
type selectSend[F Future] struct {
	run *selectRun[F]
	sc  *selectCase[F]
}

func (w *selectSend[F]) take() (any, bool) {
	if !w.run.choose(w.sc, nil, false) {
		return nil, false
	}
	return w.sc.sendValue, true
}
