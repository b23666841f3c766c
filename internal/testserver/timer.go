package testserver

import (
	commandpb "go.temporal.io/api/command/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
)

// startTimer makes a TimerStarted event; once written, the timer is set
// on the clock.
func (s *Server) startTimer(r *run, completedID int64, a *commandpb.StartTimerCommandAttributes) (*historypb.HistoryEvent, func(int64)) {
	ev := newEvent(enumspb.EVENT_TYPE_TIMER_STARTED, &historypb.HistoryEvent_TimerStartedEventAttributes{TimerStartedEventAttributes: &historypb.TimerStartedEventAttributes{
		TimerId: a.GetTimerId(), StartToFireTimeout: a.GetStartToFireTimeout(), WorkflowTaskCompletedEventId: completedID}})
	return ev, func(startedID int64) {
		id := a.GetTimerId()
		rt := &runTimer{startedID: startedID}
		r.timers[id] = rt
		rt.timer = s.clock.AfterFunc(a.GetStartToFireTimeout().AsDuration(), func() {
			s.lock()
			defer s.unlock()
			if r.closed || r.timers[id] != rt {
				return
			}
			delete(r.timers, id)
			s.deliver(r, enumspb.EVENT_TYPE_TIMER_FIRED, &historypb.HistoryEvent_TimerFiredEventAttributes{
				TimerFiredEventAttributes: &historypb.TimerFiredEventAttributes{TimerId: id, StartedEventId: startedID}}, true)
		})
	}
}

// cancelTimer makes a TimerCanceled event. A timer that fired while the
// workflow task ran (its TimerFired still buffered) is canceled all the
// same: the fired event is dropped, as the server does.
func (s *Server) cancelTimer(r *run, completedID int64, id string, identity string) *historypb.HistoryEvent {
	var startedID int64
	if rt := r.timers[id]; rt != nil {
		s.clock.Stop(rt.timer)
		delete(r.timers, id)
		startedID = rt.startedID
	} else {
		for i, ev := range r.buffer {
			if f := ev.GetTimerFiredEventAttributes(); f != nil && f.GetTimerId() == id {
				startedID = f.GetStartedEventId()
				r.buffer = append(r.buffer[:i], r.buffer[i+1:]...)
				break
			}
		}
	}
	return newEvent(enumspb.EVENT_TYPE_TIMER_CANCELED, &historypb.HistoryEvent_TimerCanceledEventAttributes{TimerCanceledEventAttributes: &historypb.TimerCanceledEventAttributes{
		TimerId: id, StartedEventId: startedID, WorkflowTaskCompletedEventId: completedID, Identity: identity}})
}
