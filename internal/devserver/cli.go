package devserver

import (
	"errors"
	"fmt"
	"go/build"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// CLIVersion is the Temporal CLI release this SDK is tested against.
const CLIVersion = "v1.5.1"

// InstallCommand installs the pinned Temporal CLI into $(go env GOPATH)/bin.
const InstallCommand = "go install github.com/temporalio/cli/cmd/temporal@" + CLIVersion

// ErrCLINotFound is wrapped by the error FindCLI returns when there is no
// temporal binary.
var ErrCLINotFound = errors.New("temporal CLI not found")

// FindCLI returns the path of the temporal binary: existingPath if given,
// else the first of "temporal" on PATH, $GOBIN/temporal and
// $GOPATH/bin/temporal (where go install puts it) that exists.
func FindCLI(existingPath string) (string, error) {
	if existingPath != "" {
		if isExecutable(existingPath) {
			return existingPath, nil
		}
		return "", fmt.Errorf("%w at %s; install it with: %s", ErrCLINotFound, existingPath, InstallCommand)
	}
	if path, err := exec.LookPath(exeName("temporal")); err == nil {
		return path, nil
	}
	var searched []string
	for _, dir := range goBinDirs() {
		path := filepath.Join(dir, exeName("temporal"))
		if isExecutable(path) {
			return path, nil
		}
		searched = append(searched, dir)
	}
	return "", fmt.Errorf("%w on PATH or in %s; install it with: %s", ErrCLINotFound, strings.Join(searched, ", "), InstallCommand)
}

// goBinDirs lists where go install puts binaries, as the go command
// decides it: $GOBIN if set, else bin under each GOPATH entry.
func goBinDirs() []string {
	if gobin := os.Getenv("GOBIN"); gobin != "" {
		return []string{gobin}
	}
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		gopath = build.Default.GOPATH // $HOME/go
	}
	var dirs []string
	for _, p := range filepath.SplitList(gopath) {
		dirs = append(dirs, filepath.Join(p, "bin"))
	}
	return dirs
}

func isExecutable(path string) bool {
	info, err := os.Stat(path)
	if err != nil || info.IsDir() {
		return false
	}
	return runtime.GOOS == "windows" || info.Mode()&0o111 != 0
}

func exeName(name string) string {
	if runtime.GOOS == "windows" {
		return name + ".exe"
	}
	return name
}
