package typed_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/durable-go/sdk/typed"
	"github.com/durable-go/sdk/workflow"
)

type Config struct {
	Limit int
	Mode  string
}

// configAt is what the workflow "reads" on its n-th look: the limit
// changes once, on the third.
func configAt(n int) Config {
	if n >= 3 {
		return Config{Limit: 20, Mode: "fast"}
	}
	return Config{Limit: 10, Mode: "fast"}
}

func sideEffectsTyped(ctx workflow.Context) (string, error) {
	var log []string
	token, err := typed.SideEffect(ctx, func(workflow.Context) string { return "token-42" })
	if err != nil {
		return "", err
	}
	log = append(log, token)
	looks := 0
	for range 4 {
		looks++
		n := looks
		config, err := typed.MutableSideEffect(ctx, "config",
			func(workflow.Context) Config { return configAt(n) },
			func(a, b Config) bool { return a == b })
		if err != nil {
			return "", err
		}
		log = append(log, fmt.Sprint(config))
	}
	return strings.Join(log, " "), nil
}

func sideEffectsUntyped(ctx workflow.Context) (string, error) {
	var log []string
	var token string
	if err := workflow.SideEffect(ctx, func(workflow.Context) any { return "token-42" }).Get(&token); err != nil {
		return "", err
	}
	log = append(log, token)
	looks := 0
	for range 4 {
		looks++
		n := looks
		var config Config
		err := workflow.MutableSideEffect(ctx, "config",
			func(workflow.Context) any { return configAt(n) },
			func(a, b any) bool { return a.(Config) == b.(Config) }).Get(&config)
		if err != nil {
			return "", err
		}
		log = append(log, fmt.Sprint(config))
	}
	return strings.Join(log, " "), nil
}

func TestSideEffectsWriteTheSameHistoryTypedAndUntyped(t *testing.T) {
	typedRun := runAs(t, "SideEffects", sideEffectsTyped, nil)
	untypedRun := runAs(t, "SideEffects", sideEffectsUntyped, nil)
	requireSameHistory(t, typedRun, untypedRun)
	var got string
	if err := typedRun.GetWorkflowResult(&got); err != nil {
		t.Fatal(err)
	}
	if want := "token-42 {10 fast} {10 fast} {20 fast} {20 fast}"; got != want {
		t.Errorf("typed side effects gave %q, want %q", got, want)
	}
	// One marker for the side effect, one per change of the mutable one.
	if n := strings.Count(eventTypes(historyOf(t, typedRun)), "MarkerRecorded"); n != 3 {
		t.Errorf("%d markers, want 3", n)
	}
}
