package internal

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	commonpb "go.temporal.io/api/common/v1"
)

// signalBufferSize bounds the signals a run buffers for one name before a
// reader takes them, as in go.temporal.io/sdk.
const signalBufferSize = 100000

// SignalChannelOptions configure a signal channel.
type SignalChannelOptions struct {
	// Description documents the signal in the workflow's metadata.
	Description string
}

// signalChannels are a run's signal channels by signal name, made when a
// signal arrives or the code asks for one, whichever comes first.
type signalChannels struct {
	byName    map[string]*channel
	requested map[string]string // names the code asked for, with descriptions
}

func (s *signalChannels) get(name string) *channel {
	if s.byName == nil {
		s.byName = make(map[string]*channel)
	}
	c := s.byName[name]
	if c == nil {
		c = newChannel(name, signalBufferSize)
		s.byName[name] = c
	}
	return c
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

// bufferSignal buffers a signal on its channel, to be decoded when
// received.
func (r *workflowRun) bufferSignal(name string, input *commonpb.Payloads) error {
	if !r.signals.get(name).SendAsync(newEncodedValue(input, r.env.dc)) {
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
	if r.signals.requested == nil {
		r.signals.requested = make(map[string]string)
	}
	if d, seen := r.signals.requested[signalName]; !seen || options.Description != "" {
		r.signals.requested[signalName] = cmp.Or(options.Description, d)
	}
	return r.signals.get(signalName)
}

// warnOfUnhandledSignals logs the signals a completing run leaves unread
// in its channels, as go.temporal.io/sdk does. A run that continues as new
// gets a warning of its own, with the counts, since the docs' own samples
// lose signals that way: they are lost with the run unless drained (with
// ReceiveAsync) and passed to the next one.
func (r *workflowRun) warnOfUnhandledSignals(err error) {
	var names, counts []string
	for _, name := range slices.Sorted(maps.Keys(r.signals.byName)) {
		if n := r.signals.byName[name].Len(); n > 0 {
			names = append(names, name)
			counts = append(counts, fmt.Sprintf("%s (%d)", name, n))
		}
	}
	if len(names) == 0 {
		return
	}
	var can *ContinueAsNewError
	if errors.As(err, &can) {
		r.logger.Warn("the workflow continues as new with signals it has not received: they are lost with this run; "+
			"drain them with ReceiveAsync and pass them to the next run before returning the ContinueAsNewError",
			"UnreadSignals", strings.Join(counts, ", "))
		return
	}
	r.logger.Warn("Workflow has unhandled signals", "SignalNames", names)
}
