package main

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/suite"

	"github.com/durable-go/sdk/activity"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/temporal"
	"github.com/durable-go/sdk/testsuite"
)

type BookTripSuite struct {
	suite.Suite
	testsuite.WorkflowTestSuite
}

func TestBookTrip(t *testing.T) { suite.Run(t, new(BookTripSuite)) }

var trip = Trip{Traveller: "Grace", Destination: "Lisbon"}

func (s *BookTripSuite) TestBooksEverythingAndUndoesNothing() {
	env := s.NewTestWorkflowEnvironment()
	for _, a := range []any{ReserveCar, ReserveHotel, ReserveFlight} {
		env.OnActivity(a, mock.Anything, trip).Return(nil).Once()
	}

	env.ExecuteWorkflow(BookTrip, trip)

	s.True(env.IsWorkflowCompleted())
	s.NoError(env.GetWorkflowError())
	env.AssertExpectations(s.T())
	for _, undo := range []string{"CancelCar", "CancelHotel", "CancelFlight"} {
		env.AssertActivityNotCalled(s.T(), undo, mock.Anything, mock.Anything)
	}
}

func (s *BookTripSuite) TestAFailedFlightUndoesTheHotelThenTheCar() {
	env := s.NewTestWorkflowEnvironment()
	env.OnActivity(ReserveCar, mock.Anything, trip).Return(nil).Once()
	env.OnActivity(ReserveHotel, mock.Anything, trip).Return(nil).Once()
	env.OnActivity(ReserveFlight, mock.Anything, trip).
		Return(temporal.NewNonRetryableApplicationError("sold out", "SoldOut", nil)).Once()
	undoHotel := env.OnActivity(CancelHotel, mock.Anything, trip).Return(nil).Once()
	env.OnActivity(CancelCar, mock.Anything, trip).Return(nil).Once().NotBefore(undoHotel)

	env.ExecuteWorkflow(BookTrip, trip)

	var appErr *temporal.ApplicationError
	s.True(errors.As(env.GetWorkflowError(), &appErr), "got %v", env.GetWorkflowError())
	s.Equal("SoldOut", appErr.Type())
	env.AssertExpectations(s.T())
	env.AssertActivityNotCalled(s.T(), "CancelFlight", mock.Anything, mock.Anything)
}

func (s *BookTripSuite) TestACanceledBookingIsUndoneToo() {
	env := s.NewTestWorkflowEnvironment()
	env.OnActivity(ReserveCar, mock.Anything, trip).Return(nil).Once()
	// The hotel takes five seconds to answer; the trip is canceled
	// meanwhile.
	env.OnActivity(ReserveHotel, mock.Anything, trip).After(5 * time.Second).Return(nil).Once()
	env.OnActivity(CancelCar, mock.Anything, trip).Return(nil).Once()
	env.RegisterDelayedCallback(env.CancelWorkflow, time.Second)

	env.ExecuteWorkflow(BookTrip, trip)

	s.True(temporal.IsCanceledError(env.GetWorkflowError()), "got %v", env.GetWorkflowError())
	env.AssertExpectations(s.T())
	env.AssertActivityNotCalled(s.T(), "CancelHotel", mock.Anything, mock.Anything)
}

// The real activities: an unserved destination fails the flight at once,
// and the car and hotel are released.
func (s *BookTripSuite) TestTheRealActivitiesCompensate() {
	env := s.NewTestWorkflowEnvironment()
	for _, a := range []any{ReserveCar, ReserveHotel, ReserveFlight, CancelCar, CancelHotel, CancelFlight} {
		env.RegisterActivity(a)
	}
	var undone []string
	env.SetOnActivityCompletedListener(func(info *activity.Info, _ converter.EncodedValue, _ error) {
		undone = append(undone, info.ActivityType.Name)
	})

	env.ExecuteWorkflow(BookTrip, Trip{Traveller: "Ada", Destination: "Atlantis"})

	s.ErrorContains(env.GetWorkflowError(), "no airline flies to Atlantis")
	s.Equal([]string{"ReserveCar", "ReserveHotel", "ReserveFlight", "CancelHotel", "CancelCar"}, undone)
}
