#!/usr/bin/env bash
# Installs the Temporal CLI release the SDK's integration tests run against,
# unless a temporal binary is already on PATH or in Go's bin directory, and
# prints where it is. The first build takes several minutes.
set -euo pipefail

version=v1.5.1

gobin=$(go env GOBIN)
if [ -z "$gobin" ]; then
	gopath=$(go env GOPATH)
	gobin="${gopath%%:*}/bin"
fi

if path=$(command -v temporal); then
	:
elif [ -x "$gobin/temporal" ]; then
	path="$gobin/temporal"
else
	echo "installing temporal CLI $version into $gobin (takes a few minutes the first time)..." >&2
	# GOFLAGS meant for this repository's module must not leak into an
	# install of another module.
	GOFLAGS= go install "github.com/temporalio/cli/cmd/temporal@$version"
	path="$gobin/temporal"
fi

# `go install` does not stamp the CLI's own version string; the module
# version recorded in the binary is the reliable one.
installed=$(go version -m "$path" 2>/dev/null | awk '$1 == "mod" { print $3 }')
echo "temporal CLI: $path (${installed:-version unknown})"
if [ -n "$installed" ] && [ "$installed" != "$version" ]; then
	echo "warning: integration tests are pinned to temporal CLI $version" >&2
fi
