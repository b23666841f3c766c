#!/usr/bin/env bash
# Builds durable-devserver (cmd/durable-devserver: Temporal server 1.32.1
# in one process, the server the SDK's integration tests run against) from
# this checkout into Go's bin directory, unless the binary there was built
# from the same sources, and prints where it is. The first build takes
# 5-15 minutes on a small machine; while it runs, a line every 15 seconds
# (TEMPORAL_CLI_PROGRESS_SECONDS) says how far it got.
set -euo pipefail
cd "$(dirname "$0")/.."

gobin=$(go env GOBIN)
if [ -z "$gobin" ]; then
	gopath=$(go env GOPATH)
	gobin="${gopath%%:*}/bin"
fi
mkdir -p "$gobin"

# shellcheck source=go-build-progress.sh
. scripts/go-build-progress.sh

binary="$gobin/durable-devserver"
# The binary's sources: a build from other sources is rebuilt.
sources=$(cd cmd/durable-devserver && find . -name '*.go' -o -name go.mod -o -name go.sum | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -d' ' -f1)
if [ -x "$binary" ] && [ "$(cat "$binary.sources" 2>/dev/null)" = "$sources" ]; then
	:
else
	echo "building durable-devserver into $gobin: the first build takes 5-15 minutes, later ones come from Go's build cache" >&2
	(cd cmd/durable-devserver && go_with_progress durable-devserver build -o "$binary" .)
	echo "$sources" >"$binary.sources"
fi
server=$(go version -m "$binary" | awk '$1 == "dep" && $2 == "go.temporal.io/server" { print $3 }')
echo "durable-devserver: $binary (go.temporal.io/server $server)"
