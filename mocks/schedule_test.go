package mocks_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"
	"go.temporal.io/api/serviceerror"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/mocks"
)

// pauseAll pauses every schedule that is not paused yet and returns their IDs.
func pauseAll(ctx context.Context, schedules client.ScheduleClient, note string) ([]string, error) {
	it, err := schedules.List(ctx, client.ScheduleListOptions{PageSize: 100})
	if err != nil {
		return nil, err
	}
	var paused []string
	for it.HasNext() {
		entry, err := it.Next()
		if err != nil {
			return paused, err
		}
		if entry.Paused {
			continue
		}
		if err := schedules.GetHandle(ctx, entry.ID).Pause(ctx, client.SchedulePauseOptions{Note: note}); err != nil {
			return paused, err
		}
		paused = append(paused, entry.ID)
	}
	return paused, nil
}

func TestScheduleClientListAndGetHandle(t *testing.T) {
	entries := mocks.NewScheduleListIterator(t)
	entries.On("HasNext").Return(true).Twice()
	entries.On("HasNext").Return(false).Once()
	entries.On("Next").Return(&client.ScheduleListEntry{ID: "nightly"}, nil).Once()
	entries.On("Next").Return(&client.ScheduleListEntry{ID: "hourly", Paused: true}, nil).Once()
	nightly := mocks.NewScheduleHandle(t)
	nightly.On("Pause", mock.Anything, client.SchedulePauseOptions{Note: "maintenance"}).Return(nil).Once()
	schedules := mocks.NewScheduleClient(t)
	schedules.On("List", mock.Anything, client.ScheduleListOptions{PageSize: 100}).Return(entries, nil)
	schedules.On("GetHandle", mock.Anything, "nightly").Return(nightly)

	paused, err := pauseAll(t.Context(), schedules, "maintenance")
	require.NoError(t, err)
	require.Equal(t, []string{"nightly"}, paused)
}

func TestScheduleListIteratorErrorStopsTheListing(t *testing.T) {
	entries := mocks.NewScheduleListIterator(t)
	entries.On("HasNext").Return(true).Once()
	entries.On("Next").Return(nil, serviceerror.NewUnavailable("server unavailable")).Once()
	schedules := mocks.NewScheduleClient(t)
	schedules.On("List", mock.Anything, mock.Anything).Return(entries, nil)

	_, err := pauseAll(t.Context(), schedules, "maintenance")
	var unavailable *serviceerror.Unavailable
	require.ErrorAs(t, err, &unavailable)
}

func TestClientScheduleClientCreatesTheMockedHandle(t *testing.T) {
	handle := mocks.NewScheduleHandle(t)
	handle.On("GetID").Return("nightly")
	handle.On("Describe", mock.Anything).Return(&client.ScheduleDescription{
		Schedule: client.Schedule{State: &client.ScheduleState{Paused: true, Note: "created paused"}},
	}, nil)
	handle.On("Trigger", mock.Anything, client.ScheduleTriggerOptions{}).Return(nil)
	handle.On("Delete", mock.Anything).Return(nil)
	schedules := mocks.NewScheduleClient(t)
	schedules.On("Create", mock.Anything, mock.MatchedBy(func(o client.ScheduleOptions) bool {
		return o.ID == "nightly" && o.Paused
	})).Return(handle, nil)
	c := mocks.NewClient(t)
	c.On("ScheduleClient").Return(schedules)

	created, err := c.ScheduleClient().Create(t.Context(), client.ScheduleOptions{ID: "nightly", Paused: true})
	require.NoError(t, err)
	require.Equal(t, "nightly", created.GetID())
	desc, err := created.Describe(t.Context())
	require.NoError(t, err)
	require.Equal(t, "created paused", desc.Schedule.State.Note)
	require.NoError(t, created.Trigger(t.Context(), client.ScheduleTriggerOptions{}))
	require.NoError(t, created.Delete(t.Context()))
}
