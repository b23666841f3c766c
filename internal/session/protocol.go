package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"
)

// Names and defaults of the protocol, as go.temporal.io/sdk has them.
const (
	// CreationActivity is the activity type that creates a session.
	CreationActivity = "internalSessionCreationActivity"
	// CompletionActivity is the activity type that completes one.
	CompletionActivity = "internalSessionCompletionActivity"

	creationQueueSuffix = "__internal_session_creation"

	// DefaultHeartbeatTimeout is the creation activity's heartbeat timeout
	// when SessionOptions set none.
	DefaultHeartbeatTimeout = 20 * time.Second
	// maxHeartbeatInterval caps the time between a creation activity's
	// heartbeats; it heartbeats thrice per timeout otherwise.
	maxHeartbeatInterval = 10 * time.Second

	// DefaultMaxConcurrentSessions is how many sessions a worker runs at
	// once unless told otherwise.
	DefaultMaxConcurrentSessions = 1000

	// tooManySessions is the (retryable) failure of a creation activity
	// that found no free slot on its worker.
	tooManySessions = "too many outstanding sessions"
	// workerShutdownType is the type of the failure of a creation activity
	// whose worker stopped.
	workerShutdownType = "SessionWorkerShutdown"
)

// CreationTaskQueue is where sessions for workers of taskQueue are created.
func CreationTaskQueue(taskQueue string) string { return taskQueue + creationQueueSuffix }

// ResourceTaskQueue is the task queue only the worker with resourceID on
// host polls.
func ResourceTaskQueue(resourceID, host string) string { return resourceID + "@" + host }

// HostName is the name sessions report for this machine.
func HostName() string {
	host, err := os.Hostname()
	if err != nil {
		return "Unknown"
	}
	return host
}

// CreationResponse is what a creation activity signals to the workflow.
// Its JSON field names are the Go field names, as go.temporal.io/sdk
// encodes the same struct.
type CreationResponse struct {
	Taskqueue  string
	HostName   string
	ResourceID string
}

// recreateParams is the JSON of a recreate token.
type recreateParams struct {
	Taskqueue string
}

// RecreateToken is the token that recreates a session on the worker that
// polls taskQueue.
func RecreateToken(taskQueue string) []byte {
	b, _ := json.Marshal(recreateParams{Taskqueue: taskQueue}) // a struct of one string always encodes
	return b
}

// ParseRecreateToken returns the task queue a recreate token names.
func ParseRecreateToken(token []byte) (string, error) {
	var p recreateParams
	if err := json.Unmarshal(token, &p); err != nil {
		return "", fmt.Errorf("the recreate token is not the JSON that SessionInfo.GetRecreateToken returns: %w", err)
	}
	if p.Taskqueue == "" {
		return "", errors.New(`the recreate token names no task queue: pass what SessionInfo.GetRecreateToken returns ({"Taskqueue": ...})`)
	}
	return p.Taskqueue, nil
}

// IsProtocolActivity reports the activity types this package runs.
func IsProtocolActivity(activityType string) bool {
	return activityType == CreationActivity || activityType == CompletionActivity
}
