package s3driver_test

import (
	"bytes"
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/proto"

	"github.com/durable-go/sdk/client"
	"github.com/durable-go/sdk/contrib/aws/s3driver"
	"github.com/durable-go/sdk/contrib/aws/s3driver/awssdkv2"
	"github.com/durable-go/sdk/converter"
	"github.com/durable-go/sdk/internal/testharness"
	"github.com/durable-go/sdk/worker"
	"github.com/durable-go/sdk/workflow"
)

func TestMain(m *testing.M) { testharness.Main(m) }

const bucket = "payloads"

// fakeS3 starts an in-memory S3 server with the bucket, and returns a
// client of it and its backend.
func fakeS3(t *testing.T) (*s3.Client, *s3mem.Backend) {
	t.Helper()
	backend := s3mem.New()
	if err := backend.CreateBucket(bucket); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	t.Cleanup(srv.Close)
	c := s3.New(s3.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(srv.URL),
		UsePathStyle: true,
		Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return aws.Credentials{AccessKeyID: "test", SecretAccessKey: "test"}, nil
		}),
	})
	return c, backend
}

func newDriver(t *testing.T, c *s3.Client) converter.StorageDriver {
	t.Helper()
	d, err := s3driver.NewDriver(s3driver.Options{Client: awssdkv2.NewClient(c), Bucket: s3driver.StaticBucket(bucket)})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestStoreAndRetrieve(t *testing.T) {
	c, backend := fakeS3(t)
	d := newDriver(t, c)
	if d.Name() != "aws.s3driver" || d.Type() != "aws.s3driver" {
		t.Errorf("name %q, type %q", d.Name(), d.Type())
	}
	ctx := context.Background()
	payloads := []*commonpb.Payload{
		{Metadata: map[string][]byte{"encoding": []byte("json/plain")}, Data: []byte(`"one"`)},
		{Metadata: map[string][]byte{"encoding": []byte("json/plain")}, Data: []byte(`"two"`)},
	}
	target := converter.StorageDriverWorkflowInfo{Namespace: "default", WorkflowType: "Flow", WorkflowID: "orders/42"}
	claims, err := d.Store(converter.StorageDriverStoreContext{Context: ctx, Target: target}, payloads)
	if err != nil {
		t.Fatal(err)
	}
	if len(claims) != 2 {
		t.Fatalf("%d claims", len(claims))
	}
	claim := claims[0].ClaimData
	if claim["bucket"] != bucket || claim["hash_algorithm"] != "sha256" || len(claim["hash_value"]) != 64 {
		t.Errorf("claim %v", claim)
	}
	if want := "v0/ns/default/wt/Flow/wi/orders%2F42/ri/null/d/sha256/" + claim["hash_value"]; claim["key"] != want {
		t.Errorf("key %q, want %q", claim["key"], want)
	}
	obj, err := backend.GetObject(bucket, claim["key"], nil)
	if err != nil {
		t.Fatalf("the object is not in the bucket: %v", err)
	}
	defer obj.Contents.Close()

	got, err := d.Retrieve(converter.StorageDriverRetrieveContext{Context: ctx}, claims)
	if err != nil {
		t.Fatal(err)
	}
	for i := range payloads {
		if !proto.Equal(got[i], payloads[i]) {
			t.Errorf("payload %d came back as %v", i, got[i])
		}
	}

	// A standalone activity's payload, and one stored for no target.
	for _, tc := range []struct {
		target converter.StorageDriverTargetInfo
		prefix string
	}{
		{converter.StorageDriverActivityInfo{Namespace: "default", ActivityType: "Fetch", ActivityID: "a 1", RunID: "r"}, "v0/ns/default/at/Fetch/ai/a%201/ri/r/d/sha256/"},
		{nil, "v0/d/sha256/"},
	} {
		claims, err := d.Store(converter.StorageDriverStoreContext{Context: ctx, Target: tc.target}, payloads[:1])
		if err != nil || !strings.HasPrefix(claims[0].ClaimData["key"], tc.prefix) {
			t.Errorf("target %v: claim %v, %v; want a key under %q", tc.target, claims, err, tc.prefix)
		}
	}
}

func TestRetrieveChecksTheObject(t *testing.T) {
	c, _ := fakeS3(t)
	d := newDriver(t, c)
	ctx := context.Background()
	claims, err := d.Store(converter.StorageDriverStoreContext{Context: ctx}, []*commonpb.Payload{{Data: []byte("original")}})
	if err != nil {
		t.Fatal(err)
	}
	changed, _ := proto.Marshal(&commonpb.Payload{Data: []byte("changed!")})
	key := claims[0].ClaimData["key"]
	if _, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(bucket), Key: &key, Body: bytes.NewReader(changed)}); err != nil {
		t.Fatal(err)
	}
	_, err = d.Retrieve(converter.StorageDriverRetrieveContext{Context: ctx}, claims)
	if err == nil || !strings.Contains(err.Error(), "changed since it was stored") {
		t.Errorf("retrieving a changed object: %v", err)
	}
	missing := []converter.StorageDriverClaim{{ClaimData: map[string]string{"bucket": bucket, "key": "v0/d/sha256/none"}}}
	if _, err := d.Retrieve(converter.StorageDriverRetrieveContext{Context: ctx}, missing); err == nil || !strings.Contains(err.Error(), "v0/d/sha256/none") {
		t.Errorf("retrieving a missing object: %v", err)
	}
}

func TestOptionsAreChecked(t *testing.T) {
	c, _ := fakeS3(t)
	if _, err := s3driver.NewDriver(s3driver.Options{Bucket: s3driver.StaticBucket(bucket)}); err == nil || !strings.Contains(err.Error(), "Client") {
		t.Errorf("no client: %v", err)
	}
	if _, err := s3driver.NewDriver(s3driver.Options{Client: awssdkv2.NewClient(c)}); err == nil || !strings.Contains(err.Error(), "Bucket") {
		t.Errorf("no bucket: %v", err)
	}
	d, err := s3driver.NewDriver(s3driver.Options{Client: awssdkv2.NewClient(c), Bucket: s3driver.StaticBucket(bucket), MaxPayloadSize: 10})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Store(converter.StorageDriverStoreContext{Context: context.Background()}, []*commonpb.Payload{{Data: []byte("more than ten bytes")}}); err == nil || !strings.Contains(err.Error(), "MaxPayloadSize") {
		t.Errorf("a payload above MaxPayloadSize: %v", err)
	}
}

func echoLarge(_ workflow.Context, in string) (string, error) { return "echo " + in, nil }

// On the dev server: a client and worker storing in S3 run a workflow
// whose input and result are stored there.
func TestWorkflowPayloadsInS3(t *testing.T) {
	c, backend := fakeS3(t)
	tc, err := client.Dial(client.Options{HostPort: testharness.HostPort(t), ExternalStorage: converter.ExternalStorage{
		Drivers: []converter.StorageDriver{newDriver(t, c)}, PayloadSizeThreshold: 1024}})
	if err != nil {
		t.Fatal(err)
	}
	defer tc.Close()
	tq := "s3-" + time.Now().Format("150405.000000000")
	w := worker.New(tc, tq, worker.Options{})
	w.RegisterWorkflow(echoLarge)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	in := strings.Repeat("s3 ", 1000)
	run, err := tc.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: tq, TaskQueue: tq}, echoLarge, in)
	if err != nil {
		t.Fatal(err)
	}
	var out string
	if err := run.Get(ctx, &out); err != nil || out != "echo "+in {
		t.Fatalf("result %.20q, %v", out, err)
	}
	list, err := backend.ListBucket(bucket, &gofakes3.Prefix{Prefix: "v0/ns/default/wt/echoLarge/wi/" + tq + "/", HasPrefix: true}, gofakes3.ListBucketPage{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Contents) != 2 {
		t.Errorf("the bucket holds %d objects of the workflow, want 2 (input, result)", len(list.Contents))
	}
	resp, err := tc.WorkflowService().GetWorkflowExecutionHistory(ctx, &workflowservice.GetWorkflowExecutionHistoryRequest{
		Namespace: "default", Execution: &commonpb.WorkflowExecution{WorkflowId: tq}})
	if err != nil {
		t.Fatal(err)
	}
	started := resp.GetHistory().GetEvents()[0].GetWorkflowExecutionStartedEventAttributes().GetInput().GetPayloads()[0]
	if !strings.Contains(string(started.GetData()), `"aws.s3driver"`) {
		t.Errorf("the history's input is not a reference to the S3 driver: %.80q", started.GetData())
	}
}
