package engine

import (
	"context"
	"fmt"

	enumspb "go.temporal.io/api/enums/v1"
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

	lastID int64 // the highest event ID received so far
	// stalledPages counts the pages in a row that brought no event past
	// lastID: a server whose tokens lead in circles would otherwise keep
	// a task reading forever.
	stalledPages int

	// replayed is the task's Replayed hook, until called (see
	// noteReplayed). It is kept here, with the task's events, rather than
	// in the Run that the sticky cache keeps between tasks.
	replayed func()
}

// maxStalledPages is how many pages in a row may bring nothing new before
// the server's paging is declared broken. A server may send an empty page
// now and then; never this many in a row.
const maxStalledPages = 10

// NewEventSource serves first, then the pages that token and fetch lead to.
// fetch may be nil when first is the whole history.
func NewEventSource(ctx context.Context, first []*historypb.HistoryEvent, token []byte, fetch PageFetcher) *EventSource {
	s := &EventSource{ctx: ctx, buf: first, token: token, fetch: fetch}
	s.noteProgress(first)
	return s
}

// noteProgress counts a page that brings no event past the last one.
func (s *EventSource) noteProgress(page []*historypb.HistoryEvent) {
	progressed := false
	for _, ev := range page {
		if ev.GetEventId() > s.lastID {
			s.lastID, progressed = ev.GetEventId(), true
		}
	}
	if progressed {
		s.stalledPages = 0
	} else {
		s.stalledPages++
	}
}

// fill makes at least n unread events available, if history has them.
func (s *EventSource) fill(n int) error {
	for len(s.buf)-s.pos < n && len(s.token) > 0 {
		if s.fetch == nil {
			return fmt.Errorf("history has more pages but no way to fetch them was given")
		}
		page, next, err := s.fetch(s.ctx, s.token)
		if err != nil {
			if len(s.buf) == 0 {
				return fmt.Errorf("fetching the next page of history: %w", err)
			}
			return fmt.Errorf("fetching the page of history after event %d: %w", s.buf[len(s.buf)-1].GetEventId(), err)
		}
		// Drop what was read so a long history is not held twice.
		s.buf = append(s.buf[:0:0], s.buf[s.pos:]...)
		s.pos = 0
		s.buf = append(s.buf, page.GetEvents()...)
		s.token = next
		if s.noteProgress(page.GetEvents()); s.stalledPages >= maxStalledPages && len(next) > 0 {
			return fmt.Errorf("the server sent %d pages of history in a row with no event after event %d, and still a next page token: its paging goes in circles", s.stalledPages, s.lastID)
		}
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

// ClosesRun reports an event that ends a run: no workflow task follows
// it. Continue-as-new ends the run too; the next one has a history of its
// own.
func ClosesRun(t enumspb.EventType) bool {
	switch t {
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED,
		enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED,
		enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW:
		return true
	}
	return false
}
