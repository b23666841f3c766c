package replayer

import (
	"context"
	"fmt"

	historypb "go.temporal.io/api/history/v1"
	"google.golang.org/protobuf/proto"

	"github.com/durable-go/sdk/internal/extstore"
	"github.com/durable-go/sdk/internal/history"
)

// retrieving is src with the payloads its events hold in external storage
// (WorkflowReplayerOptions.ExternalStorage) retrieved, on copies of the
// events: the caller's history is left as it was.
func retrieving(ctx context.Context, storage *extstore.Storage, src history.Source) (history.Source, error) {
	if storage == nil {
		return src, nil
	}
	events, err := retrieveEvents(ctx, storage, src.Events)
	if err != nil {
		return src, err
	}
	src.Events = events
	if fetch := src.Fetch; fetch != nil {
		src.Fetch = func(ctx context.Context, token []byte) (*historypb.History, []byte, error) {
			page, next, err := fetch(ctx, token)
			if err != nil {
				return nil, nil, err
			}
			events, err := retrieveEvents(ctx, storage, page.GetEvents())
			if err != nil {
				return nil, nil, err
			}
			return &historypb.History{Events: events}, next, nil
		}
	}
	return src, nil
}

func retrieveEvents(ctx context.Context, storage *extstore.Storage, events []*historypb.HistoryEvent) ([]*historypb.HistoryEvent, error) {
	h := &historypb.History{Events: make([]*historypb.HistoryEvent, len(events))}
	for i, e := range events {
		h.Events[i] = proto.Clone(e).(*historypb.HistoryEvent)
	}
	if err := storage.Retrieve(ctx, h); err != nil {
		return nil, fmt.Errorf("replay: retrieving the history's externally stored payloads: %w", err)
	}
	return h.Events, nil
}
