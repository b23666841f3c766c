package clientimpl

import (
	"context"
	"testing"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/durable-go/sdk/internal"
	"github.com/durable-go/sdk/internal/chk"
	"github.com/durable-go/sdk/internal/clientapi"
)

func timerEvent(id int64) *historypb.HistoryEvent {
	return &historypb.HistoryEvent{EventId: id, EventType: enumspb.EVENT_TYPE_TIMER_FIRED}
}

func collectEventIDs(t *testing.T, it clientapi.HistoryEventIterator) ([]int64, error) {
	t.Helper()
	var ids []int64
	for it.HasNext() {
		e, err := it.Next()
		if err != nil {
			return ids, err
		}
		ids = append(ids, e.GetEventId())
	}
	return ids, nil
}

func TestHistoryIteratorPages(t *testing.T) {
	pages := map[string]struct {
		events []*historypb.HistoryEvent
		next   string
	}{
		"":   {[]*historypb.HistoryEvent{timerEvent(1), timerEvent(2)}, "p2"},
		"p2": {nil, "p3"}, // an empty page in the middle is skipped
		"p3": {[]*historypb.HistoryEvent{timerEvent(3)}, ""},
	}
	var asked []string
	it := &clientHistoryIterator{fetch: func(token []byte) ([]*historypb.HistoryEvent, []byte, error) {
		asked = append(asked, string(token))
		p := pages[string(token)]
		return p.events, []byte(p.next), nil
	}}
	ids, err := collectEventIDs(t, it)
	chk.NoErr(t, err)
	chk.Equal(t, []int64{1, 2, 3}, ids)
	chk.Equal(t, []string{"", "p2", "p3"}, asked)

	_, err = it.Next()
	chk.ErrIs(t, err, errHistoryNoMoreEvents)
}

func TestHistoryIteratorEmptyHistoryAndErrors(t *testing.T) {
	it := &clientHistoryIterator{fetch: func([]byte) ([]*historypb.HistoryEvent, []byte, error) { return nil, nil, nil }}
	chk.False(t, it.HasNext())

	calls := 0
	it = &clientHistoryIterator{fetch: func([]byte) ([]*historypb.HistoryEvent, []byte, error) {
		calls++
		if calls == 1 {
			return []*historypb.HistoryEvent{timerEvent(1)}, []byte("more"), nil
		}
		return nil, nil, errClientTest
	}}
	ids, err := collectEventIDs(t, it)
	chk.Equal(t, []int64{1}, ids)
	chk.ErrIs(t, err, errClientTest)
	chk.False(t, it.HasNext(), "the iteration ends with its error")
}

func TestGetWorkflowHistoryRequests(t *testing.T) {
	f := startFakeClientFrontend(t)
	f.history["r1"] = []*workflowservice.GetWorkflowExecutionHistoryResponse{closeEventPage(timerEvent(1), timerEvent(2))}
	c := f.client(t, internal.ClientOptions{Namespace: "ns1"})

	ids, err := collectEventIDs(t, c.GetWorkflowHistory(context.Background(), "wf", "r1", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT))
	chk.NoErr(t, err)
	chk.Equal(t, []int64{1, 2}, ids)
	reqs := receivedRequests[*workflowservice.GetWorkflowExecutionHistoryRequest](f)
	chk.Len(t, reqs, 1)
	chk.Equal(t, "ns1", reqs[0].GetNamespace())
	chk.Equal(t, "wf", reqs[0].GetExecution().GetWorkflowId())
	chk.False(t, reqs[0].GetWaitNewEvent())
	chk.False(t, reqs[0].GetSkipArchival())

	_, err = collectEventIDs(t, c.GetWorkflowHistory(context.Background(), "wf", "missing", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT))
	var notFound *serviceerror.NotFound
	chk.ErrAs(t, err, &notFound)
}
