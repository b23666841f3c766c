package policy

import (
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"
)

func TestRetryPolicyConversion(t *testing.T) {
	p := &RetryPolicy{
		InitialInterval:        time.Second,
		BackoffCoefficient:     1.5,
		MaximumInterval:        time.Minute,
		MaximumAttempts:        4,
		NonRetryableErrorTypes: []string{"Fatal"},
	}
	want := &commonpb.RetryPolicy{
		InitialInterval:        durationpb.New(time.Second),
		BackoffCoefficient:     1.5,
		MaximumInterval:        durationpb.New(time.Minute),
		MaximumAttempts:        4,
		NonRetryableErrorTypes: []string{"Fatal"},
	}
	got := RetryPolicyToProto(p)
	if !proto.Equal(got, want) {
		t.Errorf("ToProto = %v", got)
	}
	back := RetryPolicyFromProto(got)
	if back.InitialInterval != p.InitialInterval || back.MaximumInterval != p.MaximumInterval ||
		back.BackoffCoefficient != 1.5 || back.MaximumAttempts != 4 || back.NonRetryableErrorTypes[0] != "Fatal" {
		t.Errorf("FromProto = %+v", back)
	}
	// Zero intervals are sent as zero durations, not left out.
	zero := RetryPolicyToProto(&RetryPolicy{})
	if zero.InitialInterval == nil || zero.MaximumInterval == nil || zero.InitialInterval.AsDuration() != 0 {
		t.Errorf("zero policy = %v", zero)
	}
	if RetryPolicyToProto(nil) != nil || RetryPolicyFromProto(nil) != nil {
		t.Error("nil not kept")
	}
	if fromEmpty := RetryPolicyFromProto(&commonpb.RetryPolicy{}); fromEmpty.InitialInterval != 0 {
		t.Errorf("from empty proto = %+v", fromEmpty)
	}
}

func TestPriorityConversion(t *testing.T) {
	p := Priority{PriorityKey: 2, FairnessKey: "tenant", FairnessWeight: 0.5}
	got := PriorityToProto(p)
	if !proto.Equal(got, &commonpb.Priority{PriorityKey: 2, FairnessKey: "tenant", FairnessWeight: 0.5}) {
		t.Errorf("ToProto = %v", got)
	}
	if PriorityFromProto(got) != p {
		t.Errorf("FromProto = %+v", PriorityFromProto(got))
	}
	if PriorityToProto(Priority{}) != nil {
		t.Error("zero priority sent")
	}
	if PriorityFromProto(nil) != (Priority{}) {
		t.Error("nil priority not zero")
	}
}

func TestInheritBuildID(t *testing.T) {
	tests := []struct {
		intent         VersioningIntent
		worker, target string
		want           bool
	}{
		{VersioningIntentUnspecified, "q", "", true},
		{VersioningIntentUnspecified, "q", "q", true},
		{VersioningIntentUnspecified, "q", "other", false},
		{VersioningIntentCompatible, "q", "other", true},
		{VersioningIntentInheritBuildID, "q", "other", true},
		{VersioningIntentDefault, "q", "q", false},
		{VersioningIntentUseAssignmentRules, "q", "", false},
	}
	for _, tt := range tests {
		if got := InheritBuildID(tt.intent, tt.worker, tt.target); got != tt.want {
			t.Errorf("InheritBuildID(%d, %q, %q) = %v", tt.intent, tt.worker, tt.target, got)
		}
	}
	if VersioningIntentUseAssignmentRules != 4 {
		t.Error("constant values differ from the other Go SDK's")
	}
}
