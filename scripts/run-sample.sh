#!/usr/bin/env bash
# The SDK's main job, end to end: runs examples/hello, which runs a worker
# and a workflow and prints the workflow's result.
#
#	bash scripts/run-sample.sh                          # no server needed (see below)
#	TEMPORAL_ADDRESS=host:port bash scripts/run-sample.sh   # uses a running server
#	bash scripts/run-sample.sh -address host:port       # the same
#	DURABLE_DEV_SERVER=1 bash scripts/run-sample.sh     # a local dev server
#
# With no server address and no dev server installed (neither the
# temporal CLI nor durable-devserver on PATH or in Go's bin directory), it
# runs the example on the embedded server (package temporaltest), in the
# process: nothing to build but the example. With a dev server installed,
# or DURABLE_DEV_SERVER=1, the example starts durable-devserver (Temporal
# server 1.32, the server the tests run on; built first if it is missing
# or stale, which takes minutes the first time and prints progress) as a
# dev server of its own, stopping it at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

address=${TEMPORAL_ADDRESS:-}
while [ $# -gt 0 ]; do
	case $1 in
	-address | --address)
		if [ $# -lt 2 ]; then
			echo "run-sample.sh: $1 needs a host:port" >&2
			exit 2
		fi
		address=$2
		shift 2
		;;
	-address=* | --address=*)
		address=${1#*=}
		shift
		;;
	*)
		echo "run-sample.sh: unknown argument $1; usage: run-sample.sh [-address host:port]" >&2
		exit 2
		;;
	esac
done

if [ -n "$address" ]; then
	exec go run ./examples/hello -address "$address"
fi

gobin=$(go env GOBIN)
if [ -z "$gobin" ]; then
	gopath=$(go env GOPATH)
	gobin="${gopath%%:*}/bin"
fi
export PATH="$PATH:$gobin"
if [ "${DURABLE_DEV_SERVER:-}" != 1 ] && ! command -v temporal >/dev/null && ! command -v durable-devserver >/dev/null; then
	exec go run ./examples/hello -address "" -embedded
fi
bash scripts/install-devserver.sh >&2
# An empty address makes the example start its own dev server, even when
# TEMPORAL_ADDRESS is set to an empty string in the environment.
exec go run ./examples/hello -address "" -dev-server "$gobin/durable-devserver"
