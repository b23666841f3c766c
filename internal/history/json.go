package history

import (
	"fmt"
	"io"
	"os"

	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/temporalproto"
)

// FromJSON reads a history in the JSON that `temporal workflow show
// --output json` writes (either enum spelling is accepted); a lastEventID
// other than 0 drops the events after it (client.HistoryJSONOptions).
func FromJSON(r io.Reader, lastEventID int64) (*historypb.History, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	var h historypb.History
	if err := (temporalproto.CustomJSONUnmarshalOptions{DiscardUnknown: true}).Unmarshal(b, &h); err != nil {
		return nil, fmt.Errorf("reading history JSON: %w", err)
	}
	h.Events = cut(h.Events, lastEventID)
	return &h, nil
}

// ReadFile reads a history file written by `temporal workflow show
// --output json`.
func ReadFile(path string) (*historypb.History, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	defer f.Close()
	h, err := FromJSON(f, 0)
	if err != nil {
		return nil, fmt.Errorf("replay %s: %w", path, err)
	}
	return h, nil
}
