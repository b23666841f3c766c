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

# progress_every is how often, in seconds, a build in progress says so.
progress_every=${TEMPORAL_CLI_PROGRESS_SECONDS:-15}

# install_cli builds the CLI with `go install -x`, whose log of the
# commands it runs says which package it is compiling, and prints a line
# from it every progress_every seconds until the build ends.
install_cli() {
	local started last_report now compiled current
	build_log=$(mktemp)
	# GOFLAGS meant for this repository's module must not leak into an
	# install of another module.
	GOFLAGS= go install -x "github.com/temporalio/cli/cmd/temporal@$version" 2>"$build_log" &
	build_pid=$!
	# Background jobs of a script ignore Ctrl-C: stop the build with it.
	trap 'kill "$build_pid" 2>/dev/null; rm -f "$build_log"; exit 130' INT TERM
	started=$SECONDS
	last_report=$SECONDS
	while kill -0 "$build_pid" 2>/dev/null; do
		sleep 1
		now=$SECONDS
		if [ $((now - last_report)) -lt "$progress_every" ]; then
			continue
		fi
		last_report=$now
		compiled=$(grep -c '/compile ' "$build_log" || true)
		current=$(grep -o ' -p [^ ]*' "$build_log" | tail -n 1 | cut -c5- || true)
		if grep -q '/link ' "$build_log"; then
			echo "  still building the temporal CLI ($((now - started))s): linking the binary" >&2
		elif [ "$compiled" -gt 0 ]; then
			echo "  still building the temporal CLI ($((now - started))s): $compiled packages compiled, now $current" >&2
		elif grep -q '^go: downloading' "$build_log"; then
			echo "  still downloading the temporal CLI's modules ($((now - started))s): $(grep '^go: downloading' "$build_log" | tail -n 1 | cut -c16-)" >&2
		else
			echo "  still preparing the temporal CLI's build ($((now - started))s)" >&2
		fi
	done
	if ! wait "$build_pid"; then
		trap - INT TERM
		rm -f "$build_log"
		# The -x log is thousands of commands; build again without it (what
		# was built comes from the cache) to show go's errors alone.
		echo "installing temporal CLI $version failed:" >&2
		GOFLAGS= go install "github.com/temporalio/cli/cmd/temporal@$version" >&2 || true
		return 1
	fi
	trap - INT TERM
	echo "built the temporal CLI in $((SECONDS - started))s" >&2
	rm -f "$build_log"
}

if path=$(command -v temporal); then
	:
elif [ -x "$gobin/temporal" ]; then
	path="$gobin/temporal"
else
	echo "installing temporal CLI $version into $gobin: the first build takes 5-15 minutes, later ones come from Go's build cache" >&2
	install_cli
	path="$gobin/temporal"
fi

# `go install` does not stamp the CLI's own version string; the module
# version recorded in the binary is the reliable one.
installed=$(go version -m "$path" 2>/dev/null | awk '$1 == "mod" { print $3 }')
echo "temporal CLI: $path (${installed:-version unknown})"
if [ -n "$installed" ] && [ "$installed" != "$version" ]; then
	echo "warning: integration tests are pinned to temporal CLI $version" >&2
fi
