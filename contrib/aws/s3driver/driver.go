package s3driver

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
	"sync"

	commonpb "go.temporal.io/api/common/v1"
	"google.golang.org/protobuf/proto"

	"github.com/durable-go/sdk/converter"
)

// The driver's identity and claim keys, go.temporal.io/sdk's.
const (
	driverType       = "aws.s3driver"
	defaultName      = "aws.s3driver"
	digestAlgorithm  = "sha256"
	keyFormatVersion = "v0"

	claimBucket    = "bucket"
	claimKey       = "key"
	claimAlgorithm = "hash_algorithm"
	claimDigest    = "hash_value"
)

// DefaultMaxPayloadSize is the largest payload encoding the driver stores
// when Options.MaxPayloadSize is zero: 50 MiB.
const DefaultMaxPayloadSize = 50 << 20

// Client is what the driver needs of S3. Its methods may be called
// concurrently.
//
// NOTE: Experimental
type Client interface {
	// PutObject writes data at bucket and key, replacing what is there.
	PutObject(ctx context.Context, bucket, key string, data []byte) error
	// ObjectExists reports whether there is an object at bucket and key;
	// an error only when that cannot be known.
	ObjectExists(ctx context.Context, bucket, key string) (bool, error)
	// GetObject reads the object at bucket and key; an error when there
	// is none.
	GetObject(ctx context.Context, bucket, key string) ([]byte, error)
	// Describe returns facts of the client's configuration (its region,
	// say) that the driver's errors add; nil for none.
	Describe() map[string]string
}

// BucketFunc chooses the bucket of a payload.
//
// NOTE: Experimental
type BucketFunc func(ctx converter.StorageDriverStoreContext, payload *commonpb.Payload) string

// StaticBucket stores every payload in the bucket called name.
//
// NOTE: Experimental
func StaticBucket(name string) BucketFunc {
	return func(converter.StorageDriverStoreContext, *commonpb.Payload) string { return name }
}

// Options configure NewDriver.
//
// NOTE: Experimental
type Options struct {
	// Client talks to S3. Required.
	Client Client
	// Bucket chooses each payload's bucket. Required.
	Bucket BucketFunc
	// DriverName is the driver's name, which references record;
	// "aws.s3driver" when empty.
	DriverName string
	// MaxPayloadSize is the largest payload encoding, in bytes, the
	// driver stores; DefaultMaxPayloadSize when zero.
	MaxPayloadSize int
}

type driver struct {
	client  Client
	bucket  BucketFunc
	name    string
	maxSize int
}

// NewDriver returns an S3 storage driver.
//
// NOTE: Experimental
func NewDriver(opts Options) (converter.StorageDriver, error) {
	switch {
	case opts.Client == nil:
		return nil, errors.New("s3driver: Options.Client is nil: use awssdkv2.NewClient with an AWS SDK v2 S3 client")
	case opts.Bucket == nil:
		return nil, errors.New("s3driver: Options.Bucket is nil: use StaticBucket(\"my-bucket\") for one bucket")
	case opts.MaxPayloadSize < 0:
		return nil, fmt.Errorf("s3driver: Options.MaxPayloadSize is %d: it must not be negative", opts.MaxPayloadSize)
	}
	d := &driver{client: opts.Client, bucket: opts.Bucket, name: opts.DriverName, maxSize: opts.MaxPayloadSize}
	if d.name == "" {
		d.name = defaultName
	}
	if d.maxSize == 0 {
		d.maxSize = DefaultMaxPayloadSize
	}
	return d, nil
}

func (d *driver) Name() string { return d.name }
func (d *driver) Type() string { return driverType }

// Store writes each payload not in S3 already, concurrently within the
// limiter, and returns its claim.
func (d *driver) Store(ctx converter.StorageDriverStoreContext, payloads []*commonpb.Payload) ([]converter.StorageDriverClaim, error) {
	type object struct {
		bucket, key, digest string
		data                []byte
	}
	objects := make([]object, len(payloads))
	for i, p := range payloads {
		data, err := proto.Marshal(p)
		if err != nil {
			return nil, fmt.Errorf("s3driver: encoding payload %d: %w", i, err)
		}
		if len(data) > d.maxSize {
			return nil, fmt.Errorf("s3driver: payload %d is %d bytes, more than MaxPayloadSize (%d)", i, len(data), d.maxSize)
		}
		sum := sha256.Sum256(data)
		digest := hex.EncodeToString(sum[:])
		bucket := d.bucket(ctx, p)
		if bucket == "" {
			return nil, fmt.Errorf("s3driver: Options.Bucket chose no bucket for payload %d", i)
		}
		objects[i] = object{bucket: bucket, key: objectKey(ctx.Target, digest), digest: digest, data: data}
	}
	limiter := ctx.GetLimiter()
	err := each(ctx.Context, len(objects), func(opCtx context.Context, i int) error {
		o := objects[i]
		return limiter.Permit(opCtx, payloads[i], func() error {
			exists, err := d.client.ObjectExists(opCtx, o.bucket, o.key)
			if err != nil {
				return fmt.Errorf("s3driver: checking for [bucket=%s, key=%s%s]: %w", o.bucket, o.key, d.describe(), err)
			}
			if exists {
				return nil // the same payload, stored before
			}
			if err := d.client.PutObject(opCtx, o.bucket, o.key, o.data); err != nil {
				return fmt.Errorf("s3driver: uploading [bucket=%s, key=%s%s]: %w", o.bucket, o.key, d.describe(), err)
			}
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	claims := make([]converter.StorageDriverClaim, len(objects))
	for i, o := range objects {
		claims[i] = converter.StorageDriverClaim{ClaimData: map[string]string{
			claimBucket: o.bucket, claimKey: o.key, claimAlgorithm: digestAlgorithm, claimDigest: o.digest}}
	}
	return claims, nil
}

// Retrieve reads each claim's object, concurrently within the limiter,
// and checks it against the claim's digest.
func (d *driver) Retrieve(ctx converter.StorageDriverRetrieveContext, claims []converter.StorageDriverClaim) ([]*commonpb.Payload, error) {
	payloads := make([]*commonpb.Payload, len(claims))
	limiter := ctx.GetLimiter()
	err := each(ctx.Context, len(claims), func(opCtx context.Context, i int) error {
		c := claims[i].ClaimData
		bucket, key := c[claimBucket], c[claimKey]
		if bucket == "" || key == "" {
			return fmt.Errorf("s3driver: claim %v has no %q or no %q: it is not this driver's", c, claimBucket, claimKey)
		}
		return limiter.Permit(opCtx, claims[i], func() error {
			data, err := d.client.GetObject(opCtx, bucket, key)
			if err != nil {
				return fmt.Errorf("s3driver: downloading [bucket=%s, key=%s%s]: %w", bucket, key, d.describe(), err)
			}
			if algorithm := c[claimAlgorithm]; algorithm != "" {
				if algorithm != digestAlgorithm {
					return fmt.Errorf("s3driver: [bucket=%s, key=%s]: unknown digest algorithm %q", bucket, key, algorithm)
				}
				sum := sha256.Sum256(data)
				if got := hex.EncodeToString(sum[:]); got != c[claimDigest] {
					return fmt.Errorf("s3driver: [bucket=%s, key=%s]: the object's SHA-256 is %s, the claim's %s: it was changed since it was stored", bucket, key, got, c[claimDigest])
				}
			}
			p := &commonpb.Payload{}
			if err := proto.Unmarshal(data, p); err != nil {
				return fmt.Errorf("s3driver: [bucket=%s, key=%s] is not a stored payload: %w", bucket, key, err)
			}
			payloads[i] = p
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	return payloads, nil
}

// each runs fn for 0..n-1 concurrently, and returns the first error; the
// others' context is canceled once one fails.
func each(ctx context.Context, n int, fn func(ctx context.Context, i int) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			if errs[i] = fn(ctx, i); errs[i] != nil {
				cancel()
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return err
		}
	}
	return errors.Join(errs...)
}

// objectKey is where a payload with digest is stored for target.
func objectKey(target converter.StorageDriverTargetInfo, digest string) string {
	var b strings.Builder
	b.WriteString(keyFormatVersion)
	part := func(tag, value string) {
		if value == "" {
			value = "null"
		} else {
			value = url.PathEscape(value)
		}
		b.WriteString("/" + tag + "/" + value)
	}
	switch t := target.(type) {
	case converter.StorageDriverWorkflowInfo:
		part("ns", t.Namespace)
		part("wt", t.WorkflowType)
		part("wi", t.WorkflowID)
		part("ri", t.RunID)
	case converter.StorageDriverActivityInfo:
		part("ns", t.Namespace)
		part("at", t.ActivityType)
		part("ai", t.ActivityID)
		part("ri", t.RunID)
	}
	b.WriteString("/d/" + digestAlgorithm + "/" + digest)
	return b.String()
}

// describe is the client's facts, for an error: ", k=v, ...".
func (d *driver) describe() string {
	facts := d.client.Describe()
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(facts)) {
		b.WriteString(", " + k + "=" + facts[k])
	}
	return b.String()
}
