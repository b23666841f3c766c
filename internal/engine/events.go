package engine

import (
	"context"
	"fmt"

	historypb "go.temporal.io/api/history/v1"
)

// PageFetcher returns the page of a run's history that token names, and
// the token of the page after it (empty on the last page).
type PageFetcher func(ctx context.Context, token []byte) (*historypb.History, []byte, error)

// EventSource hands out a task's history events in order, fetching further
// pages only when they are needed, and lets the engine look ahead.
type EventSource struct {
	ctx   context.Context
	buf   []*historypb.HistoryEvent
	pos   int
	token []byte
	fetch PageFetcher
}

// NewEventSource serves first, then the pages that token and fetch lead to.
// fetch may be nil when first is the whole history.
func NewEventSource(ctx context.Context, first []*historypb.HistoryEvent, token []byte, fetch PageFetcher) *EventSource {
	return &EventSource{ctx: ctx, buf: first, token: token, fetch: fetch}
}

// fill makes at least n unread events available, if history has them.
func (s *EventSource) fill(n int) error {
	for len(s.buf)-s.pos < n && len(s.token) > 0 {
		if s.fetch == nil {
			return fmt.Errorf("history has more pages but no way to fetch them was given")
		}
		page, next, err := s.fetch(s.ctx, s.token)
		if err != nil {
			return fmt.Errorf("fetching the next page of history: %w", err)
		}
		// Drop what was read so a long history is not held twice.
		s.buf = append(s.buf[:0:0], s.buf[s.pos:]...)
		s.pos = 0
		s.buf = append(s.buf, page.GetEvents()...)
		s.token = next
	}
	return nil
}

// Peek returns the event k places ahead (0 is the next one), or nil when
// history ends first.
func (s *EventSource) Peek(k int) (*historypb.HistoryEvent, error) {
	if err := s.fill(k + 1); err != nil {
		return nil, err
	}
	if s.pos+k < len(s.buf) {
		return s.buf[s.pos+k], nil
	}
	return nil, nil
}

// Next returns the next event, or nil at the end of history.
func (s *EventSource) Next() (*historypb.HistoryEvent, error) {
	ev, err := s.Peek(0)
	if ev != nil {
		s.pos++
	}
	return ev, err
}
