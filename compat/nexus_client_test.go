package compat

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	officialclient "go.temporal.io/sdk/client"
	officialtemporal "go.temporal.io/sdk/temporal"
	officialworker "go.temporal.io/sdk/worker"
	official "go.temporal.io/sdk/workflow"

	oursclient "github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/internal/devserver"
	"github.com/durable-go/sdk/internal/testharness"
	ourstemporal "github.com/durable-go/sdk/temporal"
)

// The standalone Nexus operations of a client (client.NewNexusClient),
// one source run with each SDK's client: the Official half below is the
// Ours half with the SDK renamed (TestNexusClientSourceIsOneSource).

// TestNexusClientSourceIsOneSource: the Official half of this file, with
// the SDK renamed, is its Ours half.
func TestNexusClientSourceIsOneSource(t *testing.T) {
	src, err := os.ReadFile("nexus_client_test.go")
	if err != nil {
		t.Fatal(err)
	}
	code := string(src)
	// The markers are split so that this function does not hold them.
	start := strings.Index(code, "// NexusClientScenarios"+"Ours")
	split := strings.Index(code, "// NexusClientScenarios"+"Official")
	if start < 0 || split < start {
		t.Fatal("nexus_client_test.go: the Ours half must come first, then the Official half")
	}
	renamed := strings.NewReplacer("official", "ours", "Official", "Ours").Replace(code[split:])
	if strings.TrimSpace(renamed) != strings.TrimSpace(code[start:split]) {
		t.Error("the two halves of nexus_client_test.go differ in more than the SDK they use; make them one source again")
	}
}

// TestNexusClientMatchesTheOfficialSDK starts standalone operations of
// the handler service of nexus_handlers_test.go (served by
// go.temporal.io/sdk's worker) from each SDK's client, each through an
// endpoint of its own: results, error chains (types and messages),
// descriptions, handles by ID, the ID conflict policy, lists and counts
// must be the same.
func TestNexusClientMatchesTheOfficialSDK(t *testing.T) {
	if os.Getenv(devserver.TargetEnv) == "1.29" {
		t.Skipf("%s=1.29: server 1.29 has no standalone Nexus operations; durable-devserver (server %s) has them", devserver.TargetEnv, devserver.DevServerVersion)
	}
	c, oc := dialBoth(t)
	stamp := time.Now().UnixNano()
	queue := fmt.Sprintf("nexus-client-handler-%d", stamp)
	w := officialworker.New(oc, queue, officialworker.Options{})
	w.RegisterNexusService(NexusHandlerServiceOfficial())
	w.RegisterWorkflowWithOptions(NexusHandlerSideWorkflowOfficial, official.RegisterOptions{Name: "NexusHandlerSideWorkflow"})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	seen := map[string]map[string]string{}
	for _, sdk := range []string{"official", "ours"} {
		endpoint := fmt.Sprintf("nexus-client-%s-%d", sdk, stamp)
		createHandlerSideEndpoint(t, oc, endpoint, testharness.Namespace(t), queue)
		prefix := fmt.Sprintf("nexus-client-%s-%d", sdk, stamp)
		if sdk == "ours" {
			seen[sdk] = NexusClientScenariosOurs(t, c, endpoint, prefix)
		} else {
			seen[sdk] = NexusClientScenariosOfficial(t, oc, endpoint, prefix)
		}
	}
	var names []string
	for name := range seen["official"] {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if seen["ours"][name] != seen["official"][name] {
			t.Errorf("%s:\n  ours:     %s\n  official: %s", name, seen["ours"][name], seen["official"][name])
		} else {
			t.Logf("%s: %s", name, seen["ours"][name])
		}
	}
	if len(seen["ours"]) != len(seen["official"]) {
		t.Errorf("ours saw %d scenarios, official %d", len(seen["ours"]), len(seen["official"]))
	}
}

// nexusClientEndpointReady reports whether err, from the first start
// through a new endpoint, says the frontend does not know the endpoint
// yet (it refreshes its registry in the background).
func nexusClientEndpointReady(err error) bool {
	var notFound *serviceerror.NotFound
	return !errors.As(err, &notFound)
}

// nexusClientWait sleeps a moment, or fails t when ctx is done.
func nexusClientWait(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	select {
	case <-ctx.Done():
		t.Fatalf("waiting for %s: %v", what, ctx.Err())
	case <-time.After(50 * time.Millisecond):
	}
}

// NexusClientScenariosOurs runs the scenarios with a client of this SDK
// and says what each gave, without the IDs and times that differ per run.
func NexusClientScenariosOurs(t *testing.T, c oursclient.Client, endpoint, prefix string) map[string]string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	seen := map[string]string{}
	nc, err := c.NewNexusClient(oursclient.NexusClientOptions{Endpoint: endpoint, Service: handlerServiceName})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.NewNexusClient(oursclient.NexusClientOptions{Endpoint: endpoint})
	seen["no-service"] = fmt.Sprintf("error set %v", err != nil)
	_, err = nc.ExecuteOperation(ctx, "echo", "hi", oursclient.StartNexusOperationOptions{})
	seen["no-id"] = fmt.Sprintf("error set %v", err != nil)

	start := func(name, operation, input string, opts oursclient.StartNexusOperationOptions) oursclient.NexusOperationHandle {
		opts.ID = prefix + "-" + name
		for {
			h, err := nc.ExecuteOperation(ctx, operation, input, opts)
			if nexusClientEndpointReady(err) {
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				return h
			}
			nexusClientWait(t, ctx, "the endpoint")
		}
	}
	describe := func(h oursclient.NexusOperationHandle) *oursclient.NexusOperationExecutionDescription {
		d, err := h.Describe(ctx, oursclient.DescribeNexusOperationOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	render := func(d *oursclient.NexusOperationExecutionDescription) string {
		m := d.ClientNexusOperationMetadata
		summary, summaryErr := d.GetSummary()
		out := fmt.Sprintf("%s/%s at own endpoint %v, id %v, run set %v, status %v, state %v, timeouts %v/%v/%v, attempt %d, token set %v, identity set %v, "+
			"summary %q (%v), scheduled set %v, closed set %v, duration set %v, expiration set %v, raw set %v, list info set %v, last failure %s, blocked %q",
			m.Service, m.Operation, m.Endpoint == endpoint, strings.TrimPrefix(m.OperationID, prefix), m.OperationRunID != "", m.Status, d.State,
			d.ScheduleToCloseTimeout, d.ScheduleToStartTimeout, d.StartToCloseTimeout, d.Attempt, d.OperationToken != "", d.Identity != "",
			summary, summaryErr, !m.ScheduledTime.IsZero() && m.ScheduledTime.Unix() > 0, m.CloseTime.Unix() > 0, m.ExecutionDuration > 0,
			d.ExpirationTime.Unix() > 0, d.RawInfo != nil, m.RawExecutionListInfo != nil, describeNexusClientErrorOurs(d.GetLastAttemptFailure()), d.BlockedReason)
		if ci := d.CancellationInfo; ci != nil {
			// (not the State: the handler's workflow may complete before the
			// answer to the cancel request is recorded)
			out += fmt.Sprintf("; cancellation state set %v, reason %q, requested set %v, raw set %v, failure %s",
				ci.State != enumspb.NEXUS_OPERATION_CANCELLATION_STATE_UNSPECIFIED, ci.Reason, ci.RequestedTime.Unix() > 0, ci.RawInfo != nil, describeNexusClientErrorOurs(ci.GetLastAttemptFailure()))
		}
		return out
	}
	get := func(h oursclient.NexusOperationHandle) string {
		var result string
		err := h.Get(ctx, &result)
		return fmt.Sprintf("result %q, error %s", result, describeNexusClientErrorOurs(err))
	}
	waitStarted := func(h oursclient.NexusOperationHandle) {
		for describe(h).OperationToken == "" {
			nexusClientWait(t, ctx, "the operation's start")
		}
	}

	h := start("sync", "echo", "hi", oursclient.StartNexusOperationOptions{ScheduleToCloseTimeout: time.Minute,
		ScheduleToStartTimeout: 30 * time.Second, StartToCloseTimeout: 40 * time.Second, Summary: "an echo"})
	seen["sync"] = get(h) + "; " + render(describe(h))
	seen["sync-get-again"] = get(h)

	h = start("workflow", "run", "hi", oursclient.StartNexusOperationOptions{})
	seen["workflow"] = get(h) + "; " + render(describe(h))
	for _, runID := range []string{"", h.GetRunID()} {
		byID := c.GetNexusOperationHandle(oursclient.GetNexusOperationHandleOptions{OperationID: h.GetID(), RunID: runID})
		seen[fmt.Sprintf("by-id (run set %v)", runID != "")] = fmt.Sprintf("%s; id kept %v, run kept %v", get(byID), byID.GetID() == h.GetID(), byID.GetRunID() == runID)
	}

	for _, op := range []string{"fail", "refuse", "stop"} {
		h = start(op, op, "tea", oursclient.StartNexusOperationOptions{})
		seen[op] = get(h) + "; " + render(describe(h))
	}

	h = start("cancel", "run", "wait", oursclient.StartNexusOperationOptions{})
	waitStarted(h)
	err = h.Cancel(ctx, oursclient.CancelNexusOperationOptions{Reason: "no longer needed"})
	seen["cancel"] = fmt.Sprintf("cancel error %s; %s; %s", describeNexusClientErrorOurs(err), get(h), render(describe(h)))

	h = start("terminate", "run", "wait", oursclient.StartNexusOperationOptions{})
	waitStarted(h)
	err = h.Terminate(ctx, oursclient.TerminateNexusOperationOptions{Reason: "enough"})
	seen["terminate"] = fmt.Sprintf("terminate error %s; %s; %s", describeNexusClientErrorOurs(err), get(h), render(describe(h)))
	err = h.Cancel(ctx, oursclient.CancelNexusOperationOptions{Reason: "too late"})
	seen["cancel-closed"] = describeNexusClientErrorOurs(err)

	h = start("conflict", "run", "wait", oursclient.StartNexusOperationOptions{})
	_, err = nc.ExecuteOperation(ctx, "run", "wait", oursclient.StartNexusOperationOptions{ID: h.GetID()})
	seen["conflict-fail"] = describeNexusClientErrorOurs(err)
	existing, err := nc.ExecuteOperation(ctx, "run", "wait", oursclient.StartNexusOperationOptions{ID: h.GetID(),
		IDConflictPolicy: enumspb.NEXUS_OPERATION_ID_CONFLICT_POLICY_USE_EXISTING})
	seen["conflict-use-existing"] = fmt.Sprintf("same run %v, error %s", err == nil && existing.GetRunID() == h.GetRunID(), describeNexusClientErrorOurs(err))
	if err := h.Terminate(ctx, oursclient.TerminateNexusOperationOptions{}); err != nil {
		t.Fatal(err)
	}
	_, err = nc.ExecuteOperation(ctx, "echo", "again", oursclient.StartNexusOperationOptions{ID: h.GetID(),
		IDReusePolicy: enumspb.NEXUS_OPERATION_ID_REUSE_POLICY_REJECT_DUPLICATE})
	seen["reuse-reject"] = describeNexusClientErrorOurs(err)

	missing := c.GetNexusOperationHandle(oursclient.GetNexusOperationHandleOptions{OperationID: prefix + "-missing"})
	_, err = missing.Describe(ctx, oursclient.DescribeNexusOperationOptions{})
	seen["describe-missing"] = describeNexusClientErrorOurs(err)

	// 8 operations started; visibility follows by a moment.
	query := fmt.Sprintf("Endpoint = '%s'", endpoint)
	for {
		count, err := c.CountNexusOperations(ctx, oursclient.CountNexusOperationsOptions{Query: query + " AND ExecutionStatus != 'Running'"})
		if err != nil {
			t.Fatal(err)
		}
		if count.Count == 8 {
			seen["count"] = fmt.Sprintf("%d, groups %v", count.Count, count.Groups)
			break
		}
		nexusClientWait(t, ctx, "the count")
	}
	grouped, err := c.CountNexusOperations(ctx, oursclient.CountNexusOperationsOptions{Query: query + " GROUP BY ExecutionStatus"})
	if err != nil {
		t.Fatal(err)
	}
	var groups []string
	for _, g := range grouped.Groups {
		groups = append(groups, fmt.Sprintf("%v=%d", g.GroupValues, g.Count))
	}
	slices.Sort(groups)
	seen["count-grouped"] = fmt.Sprintf("%d: %v", grouped.Count, groups)
	list, err := c.ListNexusOperations(ctx, oursclient.ListNexusOperationsOptions{Query: query})
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for m, err := range list.Results {
		if err != nil {
			t.Fatal(err)
		}
		listed = append(listed, fmt.Sprintf("%s %s/%s %v run set %v raw set %v closed set %v", strings.TrimPrefix(m.OperationID, prefix), m.Service, m.Operation,
			m.Status, m.OperationRunID != "", m.RawExecutionListInfo != nil, m.CloseTime.Unix() > 0))
	}
	slices.Sort(listed)
	seen["list"] = strings.Join(listed, "; ")
	return seen
}

// describeNexusClientErrorOurs renders an error chain by what this SDK's
// types say of each link.
func describeNexusClientErrorOurs(err error) string {
	if err == nil {
		return "none"
	}
	var parts []string
	for e := err; e != nil; e = errors.Unwrap(e) {
		switch x := e.(type) {
		case *ourstemporal.NexusOperationError:
			parts = append(parts, fmt.Sprintf("NexusOperationError{%q, %s/%s}", x.Message, x.Service, x.Operation))
		case *ourstemporal.ApplicationError:
			parts = append(parts, fmt.Sprintf("ApplicationError{%q, type %q, non-retryable %v}", x.Message(), x.Type(), x.NonRetryable()))
		case *ourstemporal.CanceledError:
			parts = append(parts, fmt.Sprintf("CanceledError{%q}", x.Error()))
		case *ourstemporal.TerminatedError:
			parts = append(parts, fmt.Sprintf("TerminatedError{%q}", x.Error()))
		case *ourstemporal.TimeoutError:
			parts = append(parts, fmt.Sprintf("TimeoutError{%s}", x.TimeoutType()))
		case *serviceerror.NexusOperationExecutionAlreadyStarted:
			parts = append(parts, fmt.Sprintf("NexusOperationExecutionAlreadyStarted{run set %v}", x.RunId != ""))
		case *serviceerror.NotFound:
			parts = append(parts, "NotFound")
		case *serviceerror.FailedPrecondition:
			parts = append(parts, "FailedPrecondition")
		default:
			parts = append(parts, fmt.Sprintf("%T", e))
		}
	}
	return strings.Join(parts, " <- ")
}

// NexusClientScenariosOfficial runs the scenarios with a client of this SDK
// and says what each gave, without the IDs and times that differ per run.
func NexusClientScenariosOfficial(t *testing.T, c officialclient.Client, endpoint, prefix string) map[string]string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	seen := map[string]string{}
	nc, err := c.NewNexusClient(officialclient.NexusClientOptions{Endpoint: endpoint, Service: handlerServiceName})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.NewNexusClient(officialclient.NexusClientOptions{Endpoint: endpoint})
	seen["no-service"] = fmt.Sprintf("error set %v", err != nil)
	_, err = nc.ExecuteOperation(ctx, "echo", "hi", officialclient.StartNexusOperationOptions{})
	seen["no-id"] = fmt.Sprintf("error set %v", err != nil)

	start := func(name, operation, input string, opts officialclient.StartNexusOperationOptions) officialclient.NexusOperationHandle {
		opts.ID = prefix + "-" + name
		for {
			h, err := nc.ExecuteOperation(ctx, operation, input, opts)
			if nexusClientEndpointReady(err) {
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				return h
			}
			nexusClientWait(t, ctx, "the endpoint")
		}
	}
	describe := func(h officialclient.NexusOperationHandle) *officialclient.NexusOperationExecutionDescription {
		d, err := h.Describe(ctx, officialclient.DescribeNexusOperationOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	render := func(d *officialclient.NexusOperationExecutionDescription) string {
		m := d.ClientNexusOperationMetadata
		summary, summaryErr := d.GetSummary()
		out := fmt.Sprintf("%s/%s at own endpoint %v, id %v, run set %v, status %v, state %v, timeouts %v/%v/%v, attempt %d, token set %v, identity set %v, "+
			"summary %q (%v), scheduled set %v, closed set %v, duration set %v, expiration set %v, raw set %v, list info set %v, last failure %s, blocked %q",
			m.Service, m.Operation, m.Endpoint == endpoint, strings.TrimPrefix(m.OperationID, prefix), m.OperationRunID != "", m.Status, d.State,
			d.ScheduleToCloseTimeout, d.ScheduleToStartTimeout, d.StartToCloseTimeout, d.Attempt, d.OperationToken != "", d.Identity != "",
			summary, summaryErr, !m.ScheduledTime.IsZero() && m.ScheduledTime.Unix() > 0, m.CloseTime.Unix() > 0, m.ExecutionDuration > 0,
			d.ExpirationTime.Unix() > 0, d.RawInfo != nil, m.RawExecutionListInfo != nil, describeNexusClientErrorOfficial(d.GetLastAttemptFailure()), d.BlockedReason)
		if ci := d.CancellationInfo; ci != nil {
			// (not the State: the handler's workflow may complete before the
			// answer to the cancel request is recorded)
			out += fmt.Sprintf("; cancellation state set %v, reason %q, requested set %v, raw set %v, failure %s",
				ci.State != enumspb.NEXUS_OPERATION_CANCELLATION_STATE_UNSPECIFIED, ci.Reason, ci.RequestedTime.Unix() > 0, ci.RawInfo != nil, describeNexusClientErrorOfficial(ci.GetLastAttemptFailure()))
		}
		return out
	}
	get := func(h officialclient.NexusOperationHandle) string {
		var result string
		err := h.Get(ctx, &result)
		return fmt.Sprintf("result %q, error %s", result, describeNexusClientErrorOfficial(err))
	}
	waitStarted := func(h officialclient.NexusOperationHandle) {
		for describe(h).OperationToken == "" {
			nexusClientWait(t, ctx, "the operation's start")
		}
	}

	h := start("sync", "echo", "hi", officialclient.StartNexusOperationOptions{ScheduleToCloseTimeout: time.Minute,
		ScheduleToStartTimeout: 30 * time.Second, StartToCloseTimeout: 40 * time.Second, Summary: "an echo"})
	seen["sync"] = get(h) + "; " + render(describe(h))
	seen["sync-get-again"] = get(h)

	h = start("workflow", "run", "hi", officialclient.StartNexusOperationOptions{})
	seen["workflow"] = get(h) + "; " + render(describe(h))
	for _, runID := range []string{"", h.GetRunID()} {
		byID := c.GetNexusOperationHandle(officialclient.GetNexusOperationHandleOptions{OperationID: h.GetID(), RunID: runID})
		seen[fmt.Sprintf("by-id (run set %v)", runID != "")] = fmt.Sprintf("%s; id kept %v, run kept %v", get(byID), byID.GetID() == h.GetID(), byID.GetRunID() == runID)
	}

	for _, op := range []string{"fail", "refuse", "stop"} {
		h = start(op, op, "tea", officialclient.StartNexusOperationOptions{})
		seen[op] = get(h) + "; " + render(describe(h))
	}

	h = start("cancel", "run", "wait", officialclient.StartNexusOperationOptions{})
	waitStarted(h)
	err = h.Cancel(ctx, officialclient.CancelNexusOperationOptions{Reason: "no longer needed"})
	seen["cancel"] = fmt.Sprintf("cancel error %s; %s; %s", describeNexusClientErrorOfficial(err), get(h), render(describe(h)))

	h = start("terminate", "run", "wait", officialclient.StartNexusOperationOptions{})
	waitStarted(h)
	err = h.Terminate(ctx, officialclient.TerminateNexusOperationOptions{Reason: "enough"})
	seen["terminate"] = fmt.Sprintf("terminate error %s; %s; %s", describeNexusClientErrorOfficial(err), get(h), render(describe(h)))
	err = h.Cancel(ctx, officialclient.CancelNexusOperationOptions{Reason: "too late"})
	seen["cancel-closed"] = describeNexusClientErrorOfficial(err)

	h = start("conflict", "run", "wait", officialclient.StartNexusOperationOptions{})
	_, err = nc.ExecuteOperation(ctx, "run", "wait", officialclient.StartNexusOperationOptions{ID: h.GetID()})
	seen["conflict-fail"] = describeNexusClientErrorOfficial(err)
	existing, err := nc.ExecuteOperation(ctx, "run", "wait", officialclient.StartNexusOperationOptions{ID: h.GetID(),
		IDConflictPolicy: enumspb.NEXUS_OPERATION_ID_CONFLICT_POLICY_USE_EXISTING})
	seen["conflict-use-existing"] = fmt.Sprintf("same run %v, error %s", err == nil && existing.GetRunID() == h.GetRunID(), describeNexusClientErrorOfficial(err))
	if err := h.Terminate(ctx, officialclient.TerminateNexusOperationOptions{}); err != nil {
		t.Fatal(err)
	}
	_, err = nc.ExecuteOperation(ctx, "echo", "again", officialclient.StartNexusOperationOptions{ID: h.GetID(),
		IDReusePolicy: enumspb.NEXUS_OPERATION_ID_REUSE_POLICY_REJECT_DUPLICATE})
	seen["reuse-reject"] = describeNexusClientErrorOfficial(err)

	missing := c.GetNexusOperationHandle(officialclient.GetNexusOperationHandleOptions{OperationID: prefix + "-missing"})
	_, err = missing.Describe(ctx, officialclient.DescribeNexusOperationOptions{})
	seen["describe-missing"] = describeNexusClientErrorOfficial(err)

	// 8 operations started; visibility follows by a moment.
	query := fmt.Sprintf("Endpoint = '%s'", endpoint)
	for {
		count, err := c.CountNexusOperations(ctx, officialclient.CountNexusOperationsOptions{Query: query + " AND ExecutionStatus != 'Running'"})
		if err != nil {
			t.Fatal(err)
		}
		if count.Count == 8 {
			seen["count"] = fmt.Sprintf("%d, groups %v", count.Count, count.Groups)
			break
		}
		nexusClientWait(t, ctx, "the count")
	}
	grouped, err := c.CountNexusOperations(ctx, officialclient.CountNexusOperationsOptions{Query: query + " GROUP BY ExecutionStatus"})
	if err != nil {
		t.Fatal(err)
	}
	var groups []string
	for _, g := range grouped.Groups {
		groups = append(groups, fmt.Sprintf("%v=%d", g.GroupValues, g.Count))
	}
	slices.Sort(groups)
	seen["count-grouped"] = fmt.Sprintf("%d: %v", grouped.Count, groups)
	list, err := c.ListNexusOperations(ctx, officialclient.ListNexusOperationsOptions{Query: query})
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for m, err := range list.Results {
		if err != nil {
			t.Fatal(err)
		}
		listed = append(listed, fmt.Sprintf("%s %s/%s %v run set %v raw set %v closed set %v", strings.TrimPrefix(m.OperationID, prefix), m.Service, m.Operation,
			m.Status, m.OperationRunID != "", m.RawExecutionListInfo != nil, m.CloseTime.Unix() > 0))
	}
	slices.Sort(listed)
	seen["list"] = strings.Join(listed, "; ")
	return seen
}

// describeNexusClientErrorOfficial renders an error chain by what this SDK's
// types say of each link.
func describeNexusClientErrorOfficial(err error) string {
	if err == nil {
		return "none"
	}
	var parts []string
	for e := err; e != nil; e = errors.Unwrap(e) {
		switch x := e.(type) {
		case *officialtemporal.NexusOperationError:
			parts = append(parts, fmt.Sprintf("NexusOperationError{%q, %s/%s}", x.Message, x.Service, x.Operation))
		case *officialtemporal.ApplicationError:
			parts = append(parts, fmt.Sprintf("ApplicationError{%q, type %q, non-retryable %v}", x.Message(), x.Type(), x.NonRetryable()))
		case *officialtemporal.CanceledError:
			parts = append(parts, fmt.Sprintf("CanceledError{%q}", x.Error()))
		case *officialtemporal.TerminatedError:
			parts = append(parts, fmt.Sprintf("TerminatedError{%q}", x.Error()))
		case *officialtemporal.TimeoutError:
			parts = append(parts, fmt.Sprintf("TimeoutError{%s}", x.TimeoutType()))
		case *serviceerror.NexusOperationExecutionAlreadyStarted:
			parts = append(parts, fmt.Sprintf("NexusOperationExecutionAlreadyStarted{run set %v}", x.RunId != ""))
		case *serviceerror.NotFound:
			parts = append(parts, "NotFound")
		case *serviceerror.FailedPrecondition:
			parts = append(parts, "FailedPrecondition")
		default:
			parts = append(parts, fmt.Sprintf("%T", e))
		}
	}
	return strings.Join(parts, " <- ")
}
