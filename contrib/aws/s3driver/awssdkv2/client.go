// Package awssdkv2 makes an s3driver.Client of an AWS SDK for Go v2 S3
// client.
//
// NOTE: Experimental
package awssdkv2

import (
	"bytes"
	"context"
	"errors"
	"io"

	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"

	"github.com/durable-go/sdk/contrib/aws/s3driver"
)

// NewClient returns an s3driver.Client that calls S3 with client.
//
// NOTE: Experimental
func NewClient(client *s3.Client) s3driver.Client { return sdkClient{client} }

type sdkClient struct{ s3 *s3.Client }

func (c sdkClient) PutObject(ctx context.Context, bucket, key string, data []byte) error {
	_, err := c.s3.PutObject(ctx, &s3.PutObjectInput{Bucket: &bucket, Key: &key, Body: bytes.NewReader(data)})
	return err
}

func (c sdkClient) ObjectExists(ctx context.Context, bucket, key string) (bool, error) {
	_, err := c.s3.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &bucket, Key: &key})
	if err == nil {
		return true, nil
	}
	var notFound *types.NotFound
	var apiErr smithy.APIError
	if errors.As(err, &notFound) || errors.As(err, &apiErr) && (apiErr.ErrorCode() == "NotFound" || apiErr.ErrorCode() == "NoSuchKey") {
		return false, nil
	}
	return false, err
}

func (c sdkClient) GetObject(ctx context.Context, bucket, key string) ([]byte, error) {
	out, err := c.s3.GetObject(ctx, &s3.GetObjectInput{Bucket: &bucket, Key: &key})
	if err != nil {
		return nil, err
	}
	defer out.Body.Close()
	return io.ReadAll(out.Body)
}

func (c sdkClient) Describe() map[string]string {
	o := c.s3.Options()
	facts := map[string]string{}
	if o.Region != "" {
		facts["client_region"] = o.Region
	}
	if o.BaseEndpoint != nil {
		facts["client_endpoint"] = *o.BaseEndpoint
	}
	return facts
}
