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

// watchConnection logs when the connection to the server is lost and when
// it is back, until ctx ends. Calls in flight during an outage are retried
// without a word (see retryInterceptor), so without this a worker's logs
// would not show an outage at all, only its effects.
func (c *Conn) watchConnection(ctx context.Context) {
	state := c.cc.GetState()
	var leftReady, lostAt time.Time
	for c.cc.WaitForStateChange(ctx, state) {
		next := c.cc.GetState()
		if state == connectivity.Ready {
			leftReady = time.Now()
		}
		connecting := next == connectivity.Connecting || next == connectivity.TransientFailure
		switch {
		case connecting && lostAt.IsZero() && !leftReady.IsZero() &&
			(state == connectivity.Ready || time.Since(leftReady) < idleReconnectWindow):
			lostAt = leftReady
			c.opts.Logger.Warn("lost the connection to the Temporal server; reconnecting, and retrying the calls it was carrying",
				"HostPort", c.opts.HostPort)
		case next == connectivity.Ready && !lostAt.IsZero():
			c.opts.Logger.Info("reconnected to the Temporal server",
				"HostPort", c.opts.HostPort, "Outage", time.Since(lostAt).Round(time.Millisecond))
			lostAt = time.Time{}
		}
		state = next
	}
}
