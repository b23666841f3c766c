package wfsync

import (
	"github.com/durable-go/sdk/internal/failure"
	"github.com/durable-go/sdk/internal/wfctx"
)

// The types of workflow code this package works with. Package internal
// declares the same names for the public API; Context and the channels
// are one type there and here, Future is declared in both with the same
// methods.

// Context is the context of workflow code (see package wfctx).
type Context = wfctx.Context

// Channel is a deterministic channel for workflow code; see the package
// doc for its rules.
type Channel = wfctx.Channel

// SendChannel is the sending half of a Channel.
type SendChannel = wfctx.SendChannel

// ReceiveChannel is the receiving half of a Channel.
type ReceiveChannel = wfctx.ReceiveChannel

// Future is what this package needs of a future of workflow code:
// package internal's Future, which has these methods and which this
// package cannot name. Selector and SettableFuture.Chain take one, and
// accept only those made by this package (see asyncFuture).
type Future interface {
	Get(ctx Context, valuePtr any) error
	IsReady() bool
}

// CancelFunc cancels a context. It does not wait for the work to stop;
// calls after the first do nothing. It is a plain func, so that package
// internal's CancelFunc takes it as it is.
type CancelFunc = func()

// ErrCanceled is the error Context.Err returns once the context is
// canceled (internal.ErrCanceled).
var ErrCanceled = failure.NewCanceledError()
