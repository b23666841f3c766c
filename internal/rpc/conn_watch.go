package rpc

import (
	"context"
	"time"

	"google.golang.org/grpc/connectivity"
)

// idleReconnectWindow tells a lost connection from an idle one. gRPC
// moves a channel from Ready to Idle both when its connection breaks and
// when nothing used it for a while (30 minutes); only after a break do
// the calls that were in flight, retried, make it connect again at once.
const idleReconnectWindow = 5 * time.Second

// quietReconnect is how long a connection may take to come back before
// its loss is logged. Servers close connections in the normal course of
// things (the Temporal frontend ends each one after five minutes, with a
// GOAWAY), and gRPC reconnects within milliseconds: that is not news.
const quietReconnect = 2 * time.Second

// watchConnection logs when the connection to the server is lost and when
// it is back, until ctx ends. Calls in flight during an outage are retried
// without a word (see retryInterceptor), so without this a worker's logs
// would not show an outage at all, only its effects. A loss is logged once
// a reconnect attempt has failed or quietReconnect has passed without one
// succeeding; a connection the server closed and gRPC at once replaced is
// only a debug line.
func (c *Conn) watchConnection(ctx context.Context) {
	state := c.cc.GetState()
	var leftReady, lostAt time.Time
	warned := false
	warn := func() {
		warned = true
		c.opts.Logger.Warn("lost the connection to the Temporal server; reconnecting, and retrying the calls it was carrying",
			"HostPort", c.opts.HostPort)
	}
	for {
		waitCtx, cancel := ctx, context.CancelFunc(func() {})
		if !lostAt.IsZero() && !warned {
			waitCtx, cancel = context.WithDeadline(ctx, lostAt.Add(quietReconnect))
		}
		changed := c.cc.WaitForStateChange(waitCtx, state)
		cancel()
		if ctx.Err() != nil {
			return
		}
		if !changed { // quietReconnect passed while still reconnecting
			warn()
			continue
		}
		next := c.cc.GetState()
		if state == connectivity.Ready {
			leftReady = time.Now()
		}
		connecting := next == connectivity.Connecting || next == connectivity.TransientFailure
		switch {
		case connecting && lostAt.IsZero() && !leftReady.IsZero() &&
			(state == connectivity.Ready || time.Since(leftReady) < idleReconnectWindow):
			lostAt = leftReady
			if next == connectivity.TransientFailure {
				warn()
			}
		case next == connectivity.TransientFailure && !lostAt.IsZero() && !warned:
			warn()
		case next == connectivity.Ready && !lostAt.IsZero():
			outage := time.Since(lostAt).Round(time.Millisecond)
			if warned {
				c.opts.Logger.Info("reconnected to the Temporal server", "HostPort", c.opts.HostPort, "Outage", outage)
			} else {
				c.opts.Logger.Debug("the connection to the Temporal server closed and was replaced at once",
					"HostPort", c.opts.HostPort, "Outage", outage)
			}
			lostAt, warned = time.Time{}, false
		}
		state = next
	}
}
