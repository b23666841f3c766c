package internal

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/sdkmetrics"
	"github.com/durable-go/sdk/internal/wfsync"
)

// signalBufferSize bounds the signals a run buffers for one name before a
// reader takes them, as in go.temporal.io/sdk.
const signalBufferSize = 100000

// SignalChannelOptions configure a signal channel.
type SignalChannelOptions struct {
	// Description documents the signal in the workflow's metadata.
	Description string
}

// signalChannels are a run's signal channels, made when a signal arrives
// or the code asks for one, whichever comes first. A run has a few: they
// are found by a scan of a list, and by a map only once they are many (a
// map costs a cached run a few hundred bytes).
type signalChannels struct {
	list []*signalChannel
	// first holds list's first channel until there is a second: a run
	// asks for its first channel on its coroutine's stack, where an
	// allocation may make that stack grow (see requestSignalChannel), so
	// list starts on first (see init) and the first channel costs no
	// slice.
	first  [1]*signalChannel
	byName map[string]*signalChannel // when list is longer than signalScanLimit
	// dropCorrupt is told of a signal dropped because it cannot be decoded.
	dropCorrupt func(name string, err error)
}

// signalScanLimit is the most channels found by a scan.
const signalScanLimit = 8

// signalChannel is a signal's channel and what the code said of it.
type signalChannel struct {
	wfsync.Chan
	requested   bool   // the code asked for the channel
	description string // SignalChannelOptions.Description
}

// init readies s, in place: list's storage is s.first.
func (s *signalChannels) init(dropCorrupt func(name string, err error)) {
	s.list, s.dropCorrupt = s.first[:0], dropCorrupt
}

// get returns the channel named name, made if there is none. The code
// asks for its channels on its coroutine's stack, which must stay small
// (see requestSignalChannel): get's own frame is small, and the channel is
// made in add's.
func (s *signalChannels) get(name string) *signalChannel {
	if c := s.find(name); c != nil {
		return c
	}
	return s.add(name)
}

// find returns the channel named name, or nil.
func (s *signalChannels) find(name string) *signalChannel {
	if s.byName != nil {
		return s.byName[name]
	}
	for _, c := range s.list {
		if c.Name() == name {
			return c
		}
	}
	return nil
}

// add makes the channel named name.
//
//go:noinline
func (s *signalChannels) add(name string) *signalChannel {
	c := new(signalChannel)
	c.Init(name, signalBufferSize, s.dropCorrupt)
	s.list = append(s.list, c)
	if s.byName != nil || len(s.list) > signalScanLimit {
		s.index(c)
	}
	return c
}

// index adds c to byName, made from list when the channels outgrow a
// scan.
//
//go:noinline
func (s *signalChannels) index(c *signalChannel) {
	if s.byName == nil {
		s.byName = make(map[string]*signalChannel, len(s.list))
		for _, c := range s.list {
			s.byName[c.Name()] = c
		}
	}
	s.byName[c.Name()] = c
}

// Signal delivers a signal through the run's inbound interceptors, which
// end by buffering it on its channel. A panic in an interceptor or a
// propagator fails the workflow task rather than the worker.
func (r *workflowRun) Signal(name string, input *commonpb.Payloads, header *commonpb.Header) (err error) {
	defer recoverInto(&err, "a workflow interceptor or context propagator handling a signal")
	ctx, err := r.incomingContext(header)
	if err != nil {
		return fmt.Errorf("signal %q: %w", name, err)
	}
	return r.inbound.HandleSignal(ctx, &HandleSignalInput{SignalName: name, Arg: input})
}

// dropCorruptSignal logs and counts a signal whose payload cannot be
// decoded into the value the code receives it in: the channel drops it
// and goes on to the next signal, as go.temporal.io/sdk does, so one bad
// sender cannot wedge the workflow.
func (r *workflowRun) dropCorruptSignal(name string, err error) {
	r.log().Error("dropped a corrupt signal: its payload cannot be decoded into the value the workflow receives it in; the workflow goes on with the next signal",
		"SignalName", name, "Error", err)
	r.metricsHandler().Counter(sdkmetrics.CorruptedSignals).Inc(1)
}

// bufferSignal buffers a signal on its channel, to be decoded when
// received.
func (r *workflowRun) bufferSignal(name string, input *commonpb.Payloads) error {
	if !r.signals.get(name).Chan.SendAsync(failure.NewEncodedValue(input, r.dc)) {
		return fmt.Errorf("signal %q: %d signals are waiting to be received already; the workflow must read its signals (workflow.GetSignalChannel(ctx, %q).Receive)",
			name, signalBufferSize, name)
	}
	return nil
}

// GetSignalChannel returns the channel on which the workflow receives the
// signals named signalName. Signals sent before the code asks for the
// channel wait in it, in the order they arrived.
func GetSignalChannel(ctx Context, signalName string) ReceiveChannel {
	return runOf(ctx).outbound.GetSignalChannel(ctx, signalName)
}

// GetSignalChannelWithOptions is GetSignalChannel with options.
func GetSignalChannelWithOptions(ctx Context, signalName string, options SignalChannelOptions) ReceiveChannel {
	return runOf(ctx).outbound.GetSignalChannelWithOptions(ctx, signalName, options)
}

// signalChannel is GetSignalChannelWithOptions at the end of the
// interceptor chain.
func (r *workflowRun) signalChannel(signalName string, options SignalChannelOptions) ReceiveChannel {
	c := r.signals.get(signalName)
	c.requested = true
	c.description = cmp.Or(options.Description, c.description)
	return &c.Chan
}

// requestSignalChannel is GetSignalChannel at the end of the interceptor
// chain. A workflow typically asks for its channel on the first workflow
// task and waits on it, and the deepest its stack went then is the stack it
// keeps while it waits (2 KiB if every frame fits): so this path keeps to
// small frames, without signalChannel's options.
func (r *workflowRun) requestSignalChannel(signalName string) ReceiveChannel {
	c := r.signals.get(signalName)
	c.requested = true
	return &c.Chan
}

// warnOfUnhandledSignals logs the signals a completing run leaves unread
// in its channels, as go.temporal.io/sdk does. A run that continues as new
// gets a warning of its own, with the counts, since the docs' own samples
// lose signals that way: they are lost with the run unless drained (with
// ReceiveAsync) and passed to the next one.
func (r *workflowRun) warnOfUnhandledSignals(err error) {
	var names, counts []string
	unread := slices.SortedFunc(slices.Values(r.signals.list), func(a, b *signalChannel) int { return strings.Compare(a.Name(), b.Name()) })
	for _, c := range unread {
		if n := c.Len(); n > 0 {
			names = append(names, c.Name())
			counts = append(counts, fmt.Sprintf("%s (%d)", c.Name(), n))
		}
	}
	if len(names) == 0 {
		return
	}
	var can *ContinueAsNewError
	if errors.As(err, &can) {
		r.log().Warn("the workflow continues as new with signals it has not received: they are lost with this run; "+
			"drain them with ReceiveAsync and pass them to the next run before returning the ContinueAsNewError",
			"UnreadSignals", strings.Join(counts, ", "))
		return
	}
	r.log().Warn("Workflow has unhandled signals", "SignalNames", names)
}
