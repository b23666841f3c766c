// Package localstorage is an external storage driver (see
// converter.StorageDriver) that keeps payloads as files in a local
// directory: for development, tests, and workers that share a file
// system. It is not part of go.temporal.io/sdk, which has no such driver.
//
// Each payload is stored once, in a file named by the SHA-256 digest of
// its protobuf encoding, so storing the same payload twice writes one
// file. A claim records the file's name under the key "file"; any
// program that reads the directory can retrieve it (see the external
// storage guide for the format).
//
// NOTE: Experimental, as the external storage it serves.
package localstorage

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	commonpb "go.temporal.io/api/common/v1"
	"google.golang.org/protobuf/proto"

	"github.com/durable-go/sdk/converter"
)

// DriverType is the Type of every driver of this package.
const DriverType = "durable-go.local-directory"

// ClaimKeyFile is the key, in a claim's data, of the stored file's name.
const ClaimKeyFile = "file"

// filePrefix starts the name of each stored file.
const filePrefix = "sha256-"

// Options configure a Driver.
type Options struct {
	// Dir is the directory the payloads are stored in; it is created
	// when missing. Required.
	Dir string
	// Name is the driver's name, which its references record; "local"
	// when empty.
	Name string
}

// Driver stores payloads in a local directory. It is safe for
// concurrent use.
type Driver struct {
	dir, name string
}

var _ converter.StorageDriver = (*Driver)(nil)

// NewDriver returns a driver that stores in opts.Dir, creating it.
func NewDriver(opts Options) (*Driver, error) {
	if opts.Dir == "" {
		return nil, errors.New("localstorage: Options.Dir is empty: name the directory to store payloads in")
	}
	if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("localstorage: creating the storage directory: %w", err)
	}
	name := opts.Name
	if name == "" {
		name = "local"
	}
	return &Driver{dir: opts.Dir, name: name}, nil
}

// Name implements converter.StorageDriver.
func (d *Driver) Name() string { return d.name }

// Type implements converter.StorageDriver: DriverType.
func (d *Driver) Type() string { return DriverType }

// Store implements converter.StorageDriver: it writes each payload to its
// file, through a temporary file, so that a reader never sees part of it.
func (d *Driver) Store(ctx converter.StorageDriverStoreContext, payloads []*commonpb.Payload) ([]converter.StorageDriverClaim, error) {
	claims := make([]converter.StorageDriverClaim, len(payloads))
	for i, p := range payloads {
		err := ctx.GetLimiter().Permit(ctx.Context, p, func() error {
			data, err := proto.MarshalOptions{Deterministic: true}.Marshal(p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(data)
			file := filePrefix + hex.EncodeToString(sum[:])
			claims[i] = converter.StorageDriverClaim{ClaimData: map[string]string{ClaimKeyFile: file}}
			return d.write(file, data)
		})
		if err != nil {
			return nil, fmt.Errorf("localstorage: storing payload %d in %s: %w", i, d.dir, err)
		}
	}
	return claims, nil
}

func (d *Driver) write(file string, data []byte) error {
	path := filepath.Join(d.dir, file)
	if _, err := os.Stat(path); err == nil {
		return nil // the same payload, stored before
	}
	tmp, err := os.CreateTemp(d.dir, ".tmp-"+file+"-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		_ = os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		_ = os.Remove(tmp.Name())
		return err
	}
	return nil
}

// Retrieve implements converter.StorageDriver.
func (d *Driver) Retrieve(ctx converter.StorageDriverRetrieveContext, claims []converter.StorageDriverClaim) ([]*commonpb.Payload, error) {
	payloads := make([]*commonpb.Payload, len(claims))
	for i, c := range claims {
		file := c.ClaimData[ClaimKeyFile]
		if !strings.HasPrefix(file, filePrefix) || strings.ContainsAny(file, `/\`) {
			return nil, fmt.Errorf("localstorage: claim %v names no file of this driver (key %q)", c.ClaimData, ClaimKeyFile)
		}
		err := ctx.GetLimiter().Permit(ctx.Context, c, func() error {
			data, err := os.ReadFile(filepath.Join(d.dir, file))
			if err != nil {
				return err
			}
			var p commonpb.Payload
			if err := proto.Unmarshal(data, &p); err != nil {
				return fmt.Errorf("file %s is not a stored payload: %w", file, err)
			}
			payloads[i] = &p
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("localstorage: retrieving %s from %s: %w", file, d.dir, err)
		}
	}
	return payloads, nil
}
