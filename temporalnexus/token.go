package temporalnexus

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
)

// An operation token says what backs an asynchronous operation, so that a
// cancel request (and the server, which reads workflow-run tokens) finds
// it. It is base64url (no padding) of a JSON object whose fields are
// those go.temporal.io/sdk writes: "t" the kind, "ns" the namespace, "wid"
// the workflow ID; "v" (a version) is reserved and must be absent.
type tokenKind int

const (
	tokenKindWorkflowRun       tokenKind = 1
	tokenKindActivityExecution tokenKind = 2
	tokenKindUpdateWorkflow    tokenKind = 3
)

// anyToken is any operation token, read for its kind and fields: "rid" a
// run ID, "uid" an update ID, "aid" an activity ID.
type anyToken struct {
	Version    int       `json:"v,omitempty"`
	Kind       tokenKind `json:"t"`
	Namespace  string    `json:"ns"`
	WorkflowID string    `json:"wid,omitempty"`
	RunID      string    `json:"rid,omitempty"`
	UpdateID   string    `json:"uid,omitempty"`
	ActivityID string    `json:"aid,omitempty"`
}

// parseOperationToken reads a token of any kind, checking what every
// kind needs.
func parseOperationToken(token string) (anyToken, error) {
	t, err := decodeToken[anyToken](token, "invalid operation token: token is empty")
	if err != nil {
		return t, err
	}
	switch {
	case t.Kind < tokenKindWorkflowRun || t.Kind > tokenKindUpdateWorkflow:
		return t, fmt.Errorf("invalid operation token: %d", t.Kind)
	case t.Version != 0:
		return t, errors.New(`invalid token: "v" field should not be present`)
	case t.Kind == tokenKindWorkflowRun && t.WorkflowID == "":
		return t, errors.New("invalid workflow run token: missing workflow ID (wid)")
	case t.Kind == tokenKindUpdateWorkflow && (t.WorkflowID == "" || t.UpdateID == ""):
		return t, errors.New("invalid token: missing workflow ID (wid) or update ID (uid)")
	case t.Kind == tokenKindActivityExecution && t.ActivityID == "":
		return t, errors.New("invalid activity execution token: missing activity ID (aid)")
	case t.Kind != tokenKindActivityExecution && t.Namespace == "":
		return t, errors.New("invalid token: missing namespace")
	}
	return t, nil
}

type workflowRunToken struct {
	Version   int       `json:"v,omitempty"`
	Kind      tokenKind `json:"t"`
	Namespace string    `json:"ns"`
	// WorkflowID is the ID of the workflow the operation started.
	WorkflowID string `json:"wid"`
}

var tokenEncoding = base64.URLEncoding.WithPadding(base64.NoPadding)

// workflowRunOperationToken is the token of the operation that started
// workflowID in namespace.
func workflowRunOperationToken(namespace, workflowID string) (string, error) {
	data, err := json.Marshal(workflowRunToken{Kind: tokenKindWorkflowRun, Namespace: namespace, WorkflowID: workflowID})
	if err != nil {
		return "", fmt.Errorf("encoding the workflow run operation token: %w", err)
	}
	return tokenEncoding.EncodeToString(data), nil
}

type updateToken struct {
	Version    int       `json:"v,omitempty"`
	Kind       tokenKind `json:"t"`
	Namespace  string    `json:"ns"`
	WorkflowID string    `json:"wid"`
	RunID      string    `json:"rid"`
	UpdateID   string    `json:"uid"`
}

// updateOperationToken is the token of an UpdateWorkflow operation.
func updateOperationToken(namespace, workflowID, runID, updateID string) (string, error) {
	if namespace == "" || workflowID == "" || updateID == "" {
		return "", fmt.Errorf("missing required param[s]: ns %s, wid: %s, uid: %s", namespace, workflowID, updateID)
	}
	data, err := json.Marshal(updateToken{Kind: tokenKindUpdateWorkflow, Namespace: namespace, WorkflowID: workflowID, RunID: runID, UpdateID: updateID})
	if err != nil {
		return "", fmt.Errorf("failed to marshal operation token: %w", err)
	}
	return tokenEncoding.EncodeToString(data), nil
}

// parseWorkflowRunOperationToken reads a workflow-run operation token.
func parseWorkflowRunOperationToken(token string) (workflowRunToken, error) {
	t, err := decodeToken[workflowRunToken](token, "invalid token: token is empty")
	if err != nil {
		return t, err
	}
	switch {
	case t.Version != 0:
		return t, errors.New(`invalid token: "v" field should not be present`)
	case t.Namespace == "":
		return t, errors.New("invalid token: missing namespace")
	case t.Kind != tokenKindWorkflowRun:
		return t, fmt.Errorf("invalid token type: %v, expected: %v", t.Kind, tokenKindWorkflowRun)
	case t.WorkflowID == "":
		return t, errors.New("invalid workflow run token: missing workflow ID (wid)")
	}
	return t, nil
}

// decodeToken reads the JSON object of a token into a T, with the errors
// go.temporal.io/sdk gives (empty is its text for an empty token).
func decodeToken[T any](token, empty string) (T, error) {
	var t T
	if token == "" {
		return t, errors.New(empty)
	}
	data, err := tokenEncoding.DecodeString(token)
	if err != nil {
		return t, fmt.Errorf("failed to decode token: %w", err)
	}
	if err := json.Unmarshal(data, &t); err != nil {
		return t, fmt.Errorf("failed to unmarshal operation token: %w", err)
	}
	return t, nil
}

type activityToken struct {
	Version    int       `json:"v,omitempty"`
	Kind       tokenKind `json:"t"`
	Namespace  string    `json:"ns"`
	ActivityID string    `json:"aid"`
	RunID      string    `json:"rid,omitempty"`
}

// activityExecutionOperationToken is the token of an operation that
// started activityID in namespace (runID empty in the callback's token,
// made before the activity starts).
func activityExecutionOperationToken(namespace, activityID, runID string) (string, error) {
	data, err := json.Marshal(activityToken{Kind: tokenKindActivityExecution, Namespace: namespace, ActivityID: activityID, RunID: runID})
	if err != nil {
		return "", fmt.Errorf("encoding the activity execution operation token: %w", err)
	}
	return tokenEncoding.EncodeToString(data), nil
}
