package clientapi

import (
	"errors"
	"fmt"
	"reflect"
	"time"
)

// The rule-based build-ID versioning API of servers 1.24 to 1.27:
// Client.UpdateWorkerVersioningRules and GetWorkerVersioningRules. The
// server deprecates it for Worker Deployment Versioning and serves it only
// where the namespace's dynamic config enables it
// (frontend.workerVersioningRuleAPIs); it answers PermissionDenied
// otherwise.

type (
	// VersioningRamp is how much of the new workflows an assignment rule
	// takes; *VersioningRampByPercentage is the only one.
	VersioningRamp interface {
		// checkRamp says what is wrong with the ramp, if anything.
		checkRamp() error
	}

	// VersioningRampByPercentage sends Percentage, in [0, 100), of the new
	// workflows to the rule's build ID.
	VersioningRampByPercentage struct {
		Percentage float32
	}

	// VersioningAssignmentRule assigns new workflows to TargetBuildID, all
	// of them or, with a Ramp, some.
	VersioningAssignmentRule struct {
		TargetBuildID string
		// Ramp is nil for a rule that takes every new workflow.
		Ramp VersioningRamp
	}

	// VersioningAssignmentRuleWithTimestamp is an assignment rule and when
	// the server created it.
	VersioningAssignmentRuleWithTimestamp struct {
		Rule       VersioningAssignmentRule
		CreateTime time.Time
	}

	// VersioningRedirectRule moves the workflows of SourceBuildID,
	// running ones included, to TargetBuildID.
	VersioningRedirectRule struct {
		SourceBuildID string
		TargetBuildID string
	}

	// VersioningRedirectRuleWithTimestamp is a redirect rule and when the
	// server created it.
	VersioningRedirectRuleWithTimestamp struct {
		Rule       VersioningRedirectRule
		CreateTime time.Time
	}

	// VersioningConflictToken is the version of a task queue's rules that
	// an update is based on: an update whose token is no longer the
	// current one fails with a *serviceerror.FailedPrecondition.
	VersioningConflictToken struct {
		token []byte
	}

	// UpdateWorkerVersioningRulesOptions are the arguments of
	// Client.UpdateWorkerVersioningRules.
	UpdateWorkerVersioningRulesOptions struct {
		// TaskQueue whose rules change. Required.
		TaskQueue string
		// ConflictToken from the last GetWorkerVersioningRules or update;
		// the zero token is accepted only while the task queue has no rules.
		ConflictToken VersioningConflictToken
		// Operation is one of the VersioningOperation types of this
		// package, as a pointer. Required.
		Operation VersioningOperation
	}

	// VersioningOperation is a change of a task queue's versioning rules;
	// only the VersioningOperation types of this package are one.
	VersioningOperation interface {
		// checkOperation says what is wrong with the operation, if anything.
		checkOperation() error
	}

	// VersioningOperationInsertAssignmentRule inserts Rule at RuleIndex
	// (0, the first, by default; past the end appends it).
	VersioningOperationInsertAssignmentRule struct {
		RuleIndex int32
		Rule      VersioningAssignmentRule
	}

	// VersioningOperationReplaceAssignmentRule replaces the assignment rule
	// at RuleIndex. The server refuses to leave the task queue without an
	// unconditional rule unless Force is set.
	VersioningOperationReplaceAssignmentRule struct {
		RuleIndex int32
		Rule      VersioningAssignmentRule
		Force     bool
	}

	// VersioningOperationDeleteAssignmentRule deletes the assignment rule
	// at RuleIndex. The server refuses to delete the last unconditional
	// rule unless Force is set.
	VersioningOperationDeleteAssignmentRule struct {
		RuleIndex int32
		Force     bool
	}

	// VersioningOperationAddRedirectRule adds Rule; a source build ID has
	// at most one redirect rule.
	VersioningOperationAddRedirectRule struct {
		Rule VersioningRedirectRule
	}

	// VersioningOperationReplaceRedirectRule replaces the redirect rule of
	// Rule.SourceBuildID.
	VersioningOperationReplaceRedirectRule struct {
		Rule VersioningRedirectRule
	}

	// VersioningOperationDeleteRedirectRule deletes the redirect rule of
	// SourceBuildID.
	VersioningOperationDeleteRedirectRule struct {
		SourceBuildID string
	}

	// VersioningOperationCommitBuildID ends the rollout of TargetBuildID:
	// in one step, the server appends a full assignment rule for it and
	// removes the earlier rules that target it and the full rules of other
	// build IDs. It refuses a build ID no worker has polled with lately,
	// unless Force is set.
	VersioningOperationCommitBuildID struct {
		TargetBuildID string
		Force         bool
	}

	// GetWorkerVersioningOptions are the arguments of
	// Client.GetWorkerVersioningRules.
	GetWorkerVersioningOptions struct {
		// TaskQueue whose rules to read. Required.
		TaskQueue string
	}

	// WorkerVersioningRules are a task queue's versioning rules, the
	// answer of GetWorkerVersioningRules and UpdateWorkerVersioningRules.
	WorkerVersioningRules struct {
		// AssignmentRules in the order the server applies them.
		AssignmentRules []*VersioningAssignmentRuleWithTimestamp
		RedirectRules   []*VersioningRedirectRuleWithTimestamp
		// ConflictToken to pass to the next update.
		ConflictToken VersioningConflictToken
	}
)

// NewVersioningConflictToken wraps the token a server returned; the client
// implementation makes them, users get them from the answers.
func NewVersioningConflictToken(token []byte) VersioningConflictToken {
	return VersioningConflictToken{token: token}
}

// Token returns the token's bytes as the server gave them, for logs and
// debugging.
func (t *VersioningConflictToken) Token() []byte {
	return t.token
}

// check says what is wrong with a rule, if anything: a missing build ID or
// a ramp out of range.
func (r *VersioningAssignmentRule) check() error {
	if r.TargetBuildID == "" {
		return errors.New("the assignment rule has no TargetBuildID: name the build ID it assigns workflows to")
	}
	if r.Ramp != nil {
		if reflect.ValueOf(r.Ramp).IsNil() {
			return errors.New("the assignment rule's Ramp is a nil pointer: leave Ramp nil for a rule that takes every workflow, or give a *VersioningRampByPercentage")
		}
		return r.Ramp.checkRamp()
	}
	return nil
}

// check says what is wrong with a rule, if anything: a missing build ID.
func (r *VersioningRedirectRule) check() error {
	if r.SourceBuildID == "" {
		return errors.New("the redirect rule has no SourceBuildID: name the build ID whose workflows it moves")
	}
	if r.TargetBuildID == "" {
		return fmt.Errorf("the redirect rule from %q has no TargetBuildID: name the build ID it moves workflows to", r.SourceBuildID)
	}
	return nil
}

// CheckVersioningOperation says what is wrong with op, if anything.
func CheckVersioningOperation(op VersioningOperation) error {
	if op == nil || reflect.ValueOf(op).IsNil() {
		return errors.New("no Operation: set it to one of the VersioningOperation types, such as *VersioningOperationInsertAssignmentRule")
	}
	return op.checkOperation()
}

func (r *VersioningRampByPercentage) checkRamp() error {
	if r.Percentage < 0 || r.Percentage >= 100 {
		return fmt.Errorf("the ramp's Percentage is %v: it must be at least 0 and below 100 (a rule without Ramp takes every workflow)", r.Percentage)
	}
	return nil
}

func (op *VersioningOperationInsertAssignmentRule) checkOperation() error  { return op.Rule.check() }
func (op *VersioningOperationReplaceAssignmentRule) checkOperation() error { return op.Rule.check() }
func (op *VersioningOperationDeleteAssignmentRule) checkOperation() error  { return nil }
func (op *VersioningOperationAddRedirectRule) checkOperation() error       { return op.Rule.check() }
func (op *VersioningOperationReplaceRedirectRule) checkOperation() error   { return op.Rule.check() }

func (op *VersioningOperationDeleteRedirectRule) checkOperation() error {
	if op.SourceBuildID == "" {
		return errors.New("VersioningOperationDeleteRedirectRule has no SourceBuildID: name the build ID whose redirect rule to delete")
	}
	return nil
}

func (op *VersioningOperationCommitBuildID) checkOperation() error {
	if op.TargetBuildID == "" {
		return errors.New("VersioningOperationCommitBuildID has no TargetBuildID: name the build ID to commit")
	}
	return nil
}
