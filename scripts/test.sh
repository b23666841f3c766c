#!/usr/bin/env bash
# Runs the whole test suite: installs the servers the integration tests
# run against (durable-devserver, Temporal server 1.32.1, for the suite; the
# Temporal CLI's dev server, server 1.29.1, the older target), checks
# formatting and that go.mod files are tidy, runs go vet and staticcheck,
# and runs `go test -race` in the root module and in every nested module on
# server 1.32.1, then the client and worker integration tests once more
# without -race, on the transport production uses (raw socket I/O), on
# server 1.29.1, and the root module's integration tests on the embedded
# server (temporaltest). Every step runs even after a failure, so one run
# shows everything that is wrong; the script exits non-zero if anything
# failed and ends with a line of totals.
set -uo pipefail

cd "$(dirname "$0")/.."
root=$(pwd)

# staticcheck 2026.2.2 (module version v0.8.2) supports Go 1.26.
staticcheck_version=v0.8.2

gobin=$(go env GOBIN)
if [ -z "$gobin" ]; then
	gopath=$(go env GOPATH)
	gobin="${gopath%%:*}/bin"
fi
export PATH="$PATH:$gobin"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
counts="$work/counts"
: >"$counts"
failed_steps=()

step() { printf '\n==> %s\n' "$*"; }
failed() {
	failed_steps+=("$1")
	echo "FAILED: $1"
}

step "Temporal CLI"
bash scripts/install-temporal-cli.sh || failed "install temporal CLI"

# The integration tests' server (internal/devserver.FindTestServer): Temporal
# server 1.32.1, built from cmd/durable-devserver.
step "durable-devserver"
bash scripts/install-devserver.sh || failed "install durable-devserver"

step "gofmt"
unformatted=$(find . -name '*.go' -not -path './.git/*' -not -path './.cache/*' \
	-not -path '*/vendor/*' -not -path '*/testdata/*' -print0 | xargs -0 -r gofmt -l)
if [ -n "$unformatted" ]; then
	echo "not gofmt-ed (run gofmt -w on them):"
	echo "$unformatted"
	failed "gofmt"
fi

step "staticcheck $staticcheck_version"
have_staticcheck=false
if command -v staticcheck >/dev/null && staticcheck -version | grep -q "(${staticcheck_version#v})"; then
	have_staticcheck=true
elif GOFLAGS= go install "honnef.co/go/tools/cmd/staticcheck@$staticcheck_version"; then
	have_staticcheck=true
else
	echo "WARNING: could not install staticcheck; skipping it"
fi

if ! go build -o "$work/testsummary" ./scripts/testsummary; then
	failed "build scripts/testsummary"
fi

# The root module first, then every nested module.
modules=(.)
while IFS= read -r mod; do
	modules+=("$(dirname "$mod")")
done < <(find . -name go.mod -not -path ./go.mod -not -path './.git/*' -not -path './.cache/*' \
	-not -path '*/vendor/*' -not -path '*/testdata/*' | sort)

for mod in "${modules[@]}"; do
	name=${mod#./}
	[ "$mod" = . ] && name="root module"
	cd "$root/$mod" || { failed "cd $mod"; continue; }

	step "go mod tidy ($name)"
	# -diff changes nothing; it prints what tidy would change and fails.
	go mod tidy -diff || failed "go mod tidy ($name): run go mod tidy in $mod"

	step "go vet ($name)"
	go vet ./... || failed "go vet ($name)"

	if $have_staticcheck && [ "$name" = cmd/durable-devserver ]; then
		# staticcheck analyses every package a program links: for this one
		# the whole Temporal server, ten minutes on a new machine. Its own
		# code is small; check it by hand after changing it.
		echo "skipping staticcheck ($name): run it by hand, cd $name && staticcheck ./..."
	elif $have_staticcheck; then
		step "staticcheck ($name)"
		staticcheck ./... || failed "staticcheck ($name)"
	fi

	step "go test -race ($name)"
	# -timeout 20m: internal/resilience's load tests take most of go test's
	# default 10 minutes per package on a loaded 2-core machine.
	if [ -x "$work/testsummary" ]; then
		go test -race -count=1 -timeout 20m -json ./... 2>&1 | "$work/testsummary" -counts "$counts" -label "$name" ||
			failed "go test ($name)"
	else
		go test -race -count=1 -timeout 20m ./... || failed "go test ($name)"
	fi
done
cd "$root"

# The race detector turns raw socket I/O off (internal/rpc/rawsocket_builds*.go),
# so the runs above test the plain transport, and a production worker on
# Linux takes the raw one. The client and worker integration tests and
# internal/rpc (TestProductionConnectionsTakeTheRawPath checks the path is
# taken) run once more on it, without the race detector: about 4 minutes,
# mostly the worker's tests waiting on the dev server.
# This run is on the older server target, the Temporal CLI v1.5.1's dev
# server (server 1.29.1): the same tests on both servers, at no extra cost.
step "go test, without the race detector (production transport: client, worker, internal/rpc; server 1.29.1)"
production_transport=(./client ./worker ./internal/rpc)
if [ -x "$work/testsummary" ]; then
	DURABLE_TEST_SERVER=1.29 DURABLE_RAW_SOCKET=on go test -count=1 -json "${production_transport[@]}" 2>&1 |
		"$work/testsummary" -counts "$counts" -label "production transport" ||
		failed "go test (production transport)"
else
	DURABLE_TEST_SERVER=1.29 DURABLE_RAW_SOCKET=on go test -count=1 "${production_transport[@]}" || failed "go test (production transport)"
fi

# The root module's integration tests once more, on the embedded server,
# switched as a user switches them (DURABLE_TEST_SERVER=embedded): those
# that need what it does not serve skip, saying what
# (testharness.NeedsDevServer). About 2.5 minutes without the race
# detector, where the same packages take about 6.5 minutes on the dev
# server (docs/guide/embedded-server.md, "In this repository").
step "go test, on the embedded server (DURABLE_TEST_SERVER=embedded: client, worker, typed, replaytool, resilience, examples)"
embedded_tests=(./client ./worker ./typed ./worker/replaytool ./internal/resilience ./examples/...)
if [ -x "$work/testsummary" ]; then
	DURABLE_TEST_SERVER=embedded go test -count=1 -json "${embedded_tests[@]}" 2>&1 |
		"$work/testsummary" -counts "$counts" -label "embedded server" ||
		failed "go test (embedded server)"
else
	DURABLE_TEST_SERVER=embedded go test -count=1 "${embedded_tests[@]}" || failed "go test (embedded server)"
fi

# Tests of stack sizes skip themselves under the race detector, whose
# instrumentation makes frames larger; they run once more without it.
step "go test, without the race detector (stack sizes)"
go test -count=1 -run 'TestAWaitingWorkflowKeepsATwoKiBStack' ./internal/ || failed "go test (stack sizes)"

read -r passed fail skipped < <(awk '{p+=$1; f+=$2; s+=$3} END {print p+0, f+0, s+0}' "$counts")
echo
if [ ${#failed_steps[@]} -gt 0 ]; then
	echo "failed steps: ${failed_steps[*]}"
	echo "total: $passed passed, $fail failed, $skipped skipped"
	exit 1
fi
echo "total: $passed passed, $fail failed, $skipped skipped"
