#!/usr/bin/env bash
# Installs the Temporal CLI release the SDK's integration tests run against,
# unless a temporal binary is already on PATH or in Go's bin directory, and
# prints where it is. The first build takes 5-15 minutes on a small machine;
# while it runs, a line every 15 seconds (TEMPORAL_CLI_PROGRESS_SECONDS)
# says how far it got.
set -euo pipefail

version=v1.5.1

gobin=$(go env GOBIN)
if [ -z "$gobin" ]; then
	gopath=$(go env GOPATH)
	gobin="${gopath%%:*}/bin"
fi

# shellcheck source=go-build-progress.sh
. "$(dirname "$0")/go-build-progress.sh"

if path=$(command -v temporal); then
	:
elif [ -x "$gobin/temporal" ]; then
	path="$gobin/temporal"
else
	echo "installing temporal CLI $version into $gobin: the first build takes 5-15 minutes, later ones come from Go's build cache" >&2
	go_with_progress "the temporal CLI" install "github.com/temporalio/cli/cmd/temporal@$version"
	path="$gobin/temporal"
fi

# `go install` does not stamp the CLI's own version string; the module
# version recorded in the binary is the reliable one.
installed=$(go version -m "$path" 2>/dev/null | awk '$1 == "mod" { print $3 }')
echo "temporal CLI: $path (${installed:-version unknown})"
if [ -n "$installed" ] && [ "$installed" != "$version" ]; then
	echo "warning: integration tests are pinned to temporal CLI $version" >&2
fi
