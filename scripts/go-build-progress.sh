# go_with_progress LABEL SUBCOMMAND ARGS...: runs `go SUBCOMMAND -x ARGS...` (a build or an
# install of something large, such as a Temporal server) and, every
# progress_every seconds (TEMPORAL_CLI_PROGRESS_SECONDS, 15 by default)
# until it ends, prints a line saying how far it got: go's -x log of the
# commands it runs says which package it is compiling. On failure it runs
# the command once more without -x (what was built comes from the cache) so
# that go's errors show alone. Sourced by the install scripts.
go_with_progress() {
	local label=$1 subcommand=$2
	shift 2
	local progress_every=${TEMPORAL_CLI_PROGRESS_SECONDS:-15}
	local started last_report now compiled current build_log build_pid
	build_log=$(mktemp)
	# GOFLAGS meant for this repository's module must not leak into a
	# build of another module.
	GOFLAGS= go "$subcommand" -x "$@" 2>"$build_log" &
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
			echo "  still building $label ($((now - started))s): linking the binary" >&2
		elif [ "$compiled" -gt 0 ]; then
			echo "  still building $label ($((now - started))s): $compiled packages compiled, now $current" >&2
		elif grep -q '^go: downloading' "$build_log"; then
			echo "  still downloading the modules of $label ($((now - started))s): $(grep '^go: downloading' "$build_log" | tail -n 1 | cut -c16-)" >&2
		else
			echo "  still preparing the build of $label ($((now - started))s)" >&2
		fi
	done
	if ! wait "$build_pid"; then
		trap - INT TERM
		rm -f "$build_log"
		echo "building $label failed:" >&2
		GOFLAGS= go "$subcommand" "$@" >&2 || true
		return 1
	fi
	trap - INT TERM
	echo "built $label in $((SECONDS - started))s" >&2
	rm -f "$build_log"
}
