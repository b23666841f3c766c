#!/usr/bin/env bash
# The SDK's main job, end to end: installs the pinned Temporal CLI if it is
# missing, then runs examples/hello, which starts a local dev server, runs a
# worker and a workflow, prints the workflow's result and stops the server.
set -euo pipefail
cd "$(dirname "$0")/.."
gobin=$(go env GOBIN)
if [ -z "$gobin" ]; then
	gopath=$(go env GOPATH)
	gobin="${gopath%%:*}/bin"
fi
export PATH="$PATH:$gobin"
bash scripts/install-temporal-cli.sh >&2
exec go run ./examples/hello
