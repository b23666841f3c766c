package compat

import (
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	officialworker "go.temporal.io/sdk/worker"

	"github.com/durable-go/sdk/internal/devserver"
	"github.com/durable-go/sdk/worker"
)

// TestStandaloneActivityScenariosAreOneSource: the Official half of
// standalone_activities_scenarios_test.go, with the SDK renamed, is its
// Ours half.
func TestStandaloneActivityScenariosAreOneSource(t *testing.T) {
	src, err := os.ReadFile("standalone_activities_scenarios_test.go")
	if err != nil {
		t.Fatal(err)
	}
	code := string(src)
	start := strings.Index(code, "// StandaloneActivitiesOurs")
	split := strings.Index(code, "// StandaloneActivitiesOfficial")
	if start < 0 || split < start {
		t.Fatal("standalone_activities_scenarios_test.go: the Ours half must come first, then the Official half")
	}
	oursHalf, officialHalf := code[start:split], code[split:]
	renamed := strings.NewReplacer("officialtemporal.", "ourstemporal.", "officialactivity.", "oursactivity.", "official.", "ours.", "Official", "Ours").Replace(officialHalf)
	if strings.TrimSpace(renamed) != strings.TrimSpace(oursHalf) {
		t.Error("the two halves of standalone_activities_scenarios_test.go differ in more than the SDK they use; make them one source again")
	}
}

// Standalone activities, started, awaited, described, canceled,
// terminated, paused, unpaused, updated, completed by ID, listed and
// counted on each SDK's client against a worker of the same SDK: the
// callers and the activities see the same results, the same error chains
// (types and messages) and the same descriptions.
func TestStandaloneActivitiesMatchTheOfficialSDK(t *testing.T) {
	if os.Getenv(devserver.TargetEnv) == "1.29" {
		t.Skipf("%s=1.29: server 1.29 has no standalone activities (1.31 and later)", devserver.TargetEnv)
	}
	c, oc := dialBoth(t)
	stamp := time.Now().UnixNano()
	oursQueue, officialQueue := fmt.Sprintf("standalone-ours-%d", stamp), fmt.Sprintf("standalone-official-%d", stamp)
	oursActs, officialActs := &StandaloneActivitiesOurs{}, &StandaloneActivitiesOfficial{}
	w := worker.New(c, oursQueue, worker.Options{})
	w.RegisterActivity(oursActs)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ow := officialworker.New(oc, officialQueue, officialworker.Options{})
	ow.RegisterActivity(officialActs)
	if err := ow.Start(); err != nil {
		t.Fatal(err)
	}
	defer ow.Stop()

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var lines [2][]string
	var wg sync.WaitGroup
	for i, queue := range []string{oursQueue, officialQueue} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := 0
			var ids []string
			newID := func() string {
				n++
				id := fmt.Sprintf("%s-%d", queue, n)
				ids = append(ids, id)
				return id
			}
			say := func(format string, args ...any) {
				line := fmt.Sprintf(format, args...)
				for j := len(ids) - 1; j >= 0; j-- { // the latest first: "q-1" is a prefix of "q-10"
					line = strings.ReplaceAll(line, ids[j], fmt.Sprintf("<id %d>", j+1))
				}
				line = requestIDs.ReplaceAllString(strings.ReplaceAll(line, queue, "<queue>"), "<uuid>")
				lines[i] = append(lines[i], line)
			}
			if i == 0 {
				StandaloneActivityScenariosOurs(ctx, c, oursActs, queue, newID, say)
			} else {
				StandaloneActivityScenariosOfficial(ctx, oc, officialActs, queue, newID, say)
			}
		}()
	}
	wg.Wait()
	compareLines(t, lines[0], lines[1])
}

// requestIDs are the request IDs of the server's messages.
var requestIDs = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// describeChain describes an error chain, link by link, by the type's name
// (without its package, which differs between the SDKs) and message.
func describeChain(err error) string {
	if err == nil {
		return "none"
	}
	var parts []string
	for e := err; e != nil; e = errors.Unwrap(e) {
		name := reflect.TypeOf(e).String()
		name = name[strings.LastIndexByte(name, '.')+1:]
		parts = append(parts, fmt.Sprintf("%s{%q}", name, e.Error()))
	}
	return strings.Join(parts, " <- ")
}
