package compat

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	commonpb "go.temporal.io/api/common/v1"
	officials3driver "go.temporal.io/sdk/contrib/aws/s3driver"
	officialawssdkv2 "go.temporal.io/sdk/contrib/aws/s3driver/awssdkv2"
	officialconverter "go.temporal.io/sdk/converter"
	"google.golang.org/protobuf/proto"

	"github.com/durable-go/sdk/contrib/aws/s3driver"
	"github.com/durable-go/sdk/contrib/aws/s3driver/awssdkv2"
	"github.com/durable-go/sdk/converter"
)

// Our S3 driver and go.temporal.io/sdk/contrib/aws/s3driver, on one
// in-memory S3: the same payload stored for the same target makes the
// same claim (bucket, key, digest), and what either stores the other
// retrieves.
func TestS3DriverMatchesTheOfficialOne(t *testing.T) {
	backend := s3mem.New()
	if err := backend.CreateBucket("payloads"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	defer srv.Close()
	s3Client := s3.New(s3.Options{Region: "us-east-1", BaseEndpoint: aws.String(srv.URL), UsePathStyle: true,
		Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return aws.Credentials{AccessKeyID: "test", SecretAccessKey: "test"}, nil
		})})
	ours, err := s3driver.NewDriver(s3driver.Options{Client: awssdkv2.NewClient(s3Client), Bucket: s3driver.StaticBucket("payloads")})
	if err != nil {
		t.Fatal(err)
	}
	official, err := officials3driver.NewDriver(officials3driver.Options{Client: officialawssdkv2.NewClient(s3Client), Bucket: officials3driver.StaticBucket("payloads")})
	if err != nil {
		t.Fatal(err)
	}
	if ours.Name() != official.Name() || ours.Type() != official.Type() {
		t.Errorf("name %q type %q, official's %q %q", ours.Name(), ours.Type(), official.Name(), official.Type())
	}
	ctx := context.Background()
	for _, tc := range []struct {
		name     string
		ours     converter.StorageDriverTargetInfo
		official officialconverter.StorageDriverTargetInfo
	}{
		{"workflow", converter.StorageDriverWorkflowInfo{Namespace: "default", WorkflowType: "Order Flow", WorkflowID: "orders/42", RunID: "r1"},
			officialconverter.StorageDriverWorkflowInfo{Namespace: "default", WorkflowType: "Order Flow", WorkflowID: "orders/42", RunID: "r1"}},
		{"activity", converter.StorageDriverActivityInfo{Namespace: "default", ActivityType: "Fetch", ActivityID: "a-1"},
			officialconverter.StorageDriverActivityInfo{Namespace: "default", ActivityType: "Fetch", ActivityID: "a-1"}},
		{"none", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			payloads := []*commonpb.Payload{{Metadata: map[string][]byte{"encoding": []byte("json/plain")}, Data: []byte(`"` + tc.name + `"`)}}
			ourClaims, err := ours.Store(converter.StorageDriverStoreContext{Context: ctx, Target: tc.ours}, payloads)
			if err != nil {
				t.Fatal(err)
			}
			officialClaims, err := official.Store(officialconverter.StorageDriverStoreContext{Context: ctx, Target: tc.official}, payloads)
			if err != nil {
				t.Fatal(err)
			}
			if len(ourClaims[0].ClaimData) != len(officialClaims[0].ClaimData) {
				t.Errorf("claims differ: ours %v, official %v", ourClaims[0].ClaimData, officialClaims[0].ClaimData)
			}
			for k, v := range officialClaims[0].ClaimData {
				if ourClaims[0].ClaimData[k] != v {
					t.Errorf("claim %q: ours %q, official %q", k, ourClaims[0].ClaimData[k], v)
				}
			}
			fromOfficial, err := ours.Retrieve(converter.StorageDriverRetrieveContext{Context: ctx}, []converter.StorageDriverClaim{{ClaimData: officialClaims[0].ClaimData}})
			if err != nil || !proto.Equal(fromOfficial[0], payloads[0]) {
				t.Errorf("ours retrieving the official claim: %v, %v", fromOfficial, err)
			}
			fromOurs, err := official.Retrieve(officialconverter.StorageDriverRetrieveContext{Context: ctx}, []officialconverter.StorageDriverClaim{{ClaimData: ourClaims[0].ClaimData}})
			if err != nil || !proto.Equal(fromOurs[0], payloads[0]) {
				t.Errorf("the official driver retrieving our claim: %v, %v", fromOurs, err)
			}
		})
	}
}
