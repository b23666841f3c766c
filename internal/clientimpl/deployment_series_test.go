package clientimpl

import (
	"errors"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	deploymentpb "go.temporal.io/api/deployment/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/chk"
	"github.com/durable-go/sdk/internal/clientapi"
)

func TestDeploymentInfoFromTheAnswer(t *testing.T) {
	created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	metadata := map[string]*commonpb.Payload{"owner": {Data: []byte(`"ops"`)}}
	info := seriesDeploymentInfoFromProto(&deploymentpb.DeploymentInfo{
		Deployment: &deploymentpb.Deployment{SeriesName: "orders", BuildId: "2.0"},
		CreateTime: timestamppb.New(created),
		IsCurrent:  true,
		TaskQueueInfos: []*deploymentpb.DeploymentInfo_TaskQueueInfo{
			{Name: "tq", Type: enumspb.TASK_QUEUE_TYPE_ACTIVITY, FirstPollerTime: timestamppb.New(created)},
		},
		Metadata: metadata,
	})
	if info.Deployment != (clientapi.Deployment{SeriesName: "orders", BuildID: "2.0"}) || !info.CreateTime.Equal(created) || !info.IsCurrent || info.Metadata["owner"] != metadata["owner"] {
		t.Errorf("info %+v", info)
	}
	if tqs := info.TaskQueuesInfos; len(tqs) != 1 || tqs[0].Name != "tq" || tqs[0].Type != clientapi.TaskQueueTypeActivity || !tqs[0].FirstPollerTime.Equal(created) {
		t.Errorf("task queues %+v", tqs)
	}
	// A series without a current deployment answers without one.
	none := seriesDeploymentInfoFromProto(nil)
	if none.Deployment != (clientapi.Deployment{}) || !none.CreateTime.IsZero() || none.TaskQueuesInfos == nil || len(none.TaskQueuesInfos) != 0 {
		t.Errorf("nil info read as %+v", none)
	}
}

func TestDeploymentMetadataUpdateEncodesWithTheDataConverter(t *testing.T) {
	ready := &commonpb.Payload{Metadata: map[string][]byte{"encoding": []byte("binary/plain")}, Data: []byte("as is")}
	update, err := deploymentMetadataUpdateToProto(converter.GetDefaultDataConverter(), clientapi.DeploymentMetadataUpdate{
		UpsertEntries: map[string]any{"owner": "ops", "raw": ready},
		RemoveEntries: []string{"old"},
	})
	chk.NoErr(t, err)
	if string(update.UpsertEntries["owner"].GetData()) != `"ops"` || string(update.UpsertEntries["owner"].GetMetadata()["encoding"]) != "json/plain" {
		t.Errorf("owner encoded as %v", update.UpsertEntries["owner"])
	}
	if update.UpsertEntries["raw"] != ready || strings.Join(update.RemoveEntries, ",") != "old" {
		t.Errorf("update %v", update)
	}
	// Nothing to change still sends the (empty) message.
	empty, err := deploymentMetadataUpdateToProto(converter.GetDefaultDataConverter(), clientapi.DeploymentMetadataUpdate{})
	if err != nil || empty == nil || len(empty.UpsertEntries) != 0 {
		t.Errorf("empty update: %v, %v", empty, err)
	}
	_, err = deploymentMetadataUpdateToProto(converter.GetDefaultDataConverter(), clientapi.DeploymentMetadataUpdate{UpsertEntries: map[string]any{"ch": make(chan int)}})
	if err == nil || !strings.Contains(err.Error(), `UpsertEntries["ch"]: the data converter cannot encode the chan int`) {
		t.Errorf("an unencodable value: %v", err)
	}
}

func TestDeploymentChecksNameWhatIsMissing(t *testing.T) {
	if err := checkDeployment(clientapi.Deployment{BuildID: "1"}, "DeploymentDescribeOptions"); err == nil || !strings.Contains(err.Error(), "DeploymentDescribeOptions.Deployment.SeriesName is empty") {
		t.Errorf("no series: %v", err)
	}
	if err := checkDeployment(clientapi.Deployment{SeriesName: "s"}, "DeploymentSetCurrentOptions"); err == nil || !strings.Contains(err.Error(), "DeploymentSetCurrentOptions.Deployment.BuildID is empty") {
		t.Errorf("no build ID: %v", err)
	}
	if err := checkDeployment(clientapi.Deployment{SeriesName: "s", BuildID: "1"}, "x"); err != nil {
		t.Errorf("a whole deployment: %v", err)
	}
}

func TestDeploymentListIteratorPagesAndStopsAtAnError(t *testing.T) {
	entry := func(buildID string) *deploymentpb.DeploymentListInfo {
		return &deploymentpb.DeploymentListInfo{Deployment: &deploymentpb.Deployment{SeriesName: "s", BuildId: buildID}}
	}
	pages := map[string]*workflowservice.ListDeploymentsResponse{
		"":      {Deployments: []*deploymentpb.DeploymentListInfo{entry("1")}, NextPageToken: []byte("p2")},
		"p2":    {NextPageToken: []byte("p3")}, // an empty page in between
		"p3":    {Deployments: []*deploymentpb.DeploymentListInfo{entry("2"), entry("3")}, NextPageToken: []byte("fails")},
		"fails": nil,
	}
	var tokens []string
	it := newDeploymentListIterator(func(token []byte) (*workflowservice.ListDeploymentsResponse, error) {
		tokens = append(tokens, string(token))
		if page := pages[string(token)]; page != nil {
			return page, nil
		}
		return nil, errors.New("listing failed")
	})
	var got []string
	var lastErr error
	for it.HasNext() {
		e, err := it.Next()
		if err != nil {
			lastErr = err
			break
		}
		got = append(got, e.Deployment.BuildID)
	}
	if strings.Join(got, ",") != "1,2,3" || lastErr == nil || lastErr.Error() != "listing failed" {
		t.Errorf("listed %v, then %v", got, lastErr)
	}
	if strings.Join(tokens, "|") != "|p2|p3|fails" {
		t.Errorf("page tokens asked %q", tokens)
	}
	// The error ends the listing, without asking again.
	if it.HasNext() || len(tokens) != 4 {
		t.Errorf("HasNext after an error is true, or asked again (%d requests)", len(tokens))
	}

	done := newDeploymentListIterator(func([]byte) (*workflowservice.ListDeploymentsResponse, error) {
		return &workflowservice.ListDeploymentsResponse{}, nil
	})
	if done.HasNext() {
		t.Error("an empty listing has a next")
	}
	if _, err := done.Next(); err == nil || !strings.Contains(err.Error(), "check HasNext first") {
		t.Errorf("Next past the end: %v", err)
	}
}
