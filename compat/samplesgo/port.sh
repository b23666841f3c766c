#!/usr/bin/env bash
# Ports samples of temporalio/samples-go to this SDK the way a user would:
# copies them from a samples-go checkout at a known commit and rewrites the
# imports of go.temporal.io/sdk to github.com/durable-go/sdk. Nothing else
# changes, except the edits listed under "Edits" below, each for a reason
# this SDK cannot remove (they are printed as the script applies them).
#
#   bash compat/samplesgo/port.sh /path/to/samples-go [commit]
#
# The ported files are committed, since CI reaches only the Go module
# proxy, which does not serve samples-go; run this again to port a newer
# commit and review the diff.
set -euo pipefail

src=${1:?usage: port.sh /path/to/samples-go [commit]}
commit=${2:-3c8a12e}
here=$(cd "$(dirname "$0")" && pwd)

# The samples ported: every Nexus sample, the standalone activity sample,
# the external storage sample, and ctxpropagation, which
# nexus-context-propagation imports.
samples=(
	nexus
	nexus-cancelation
	nexus-context-propagation
	nexus-messaging
	nexus-multiple-arguments
	nexus-standalone-operations
	nexus-standalone-activity
	standalone-activity
	external-storage
	ctxpropagation
)

git_src() { git -C "$src" "$@"; }
if git_src rev-parse --is-bare-repository >/dev/null 2>&1; then :; else
	echo "$src is not a git repository" >&2
	exit 1
fi

for s in "${samples[@]}"; do
	rm -rf "${here:?}/$s"
	while IFS= read -r f; do
		mkdir -p "$here/$(dirname "$f")"
		git_src show "$commit:$f" >"$here/$f"
	done < <(git_src ls-tree -r --name-only "$commit" -- "$s")
done
git_src show "$commit:LICENSE" >"$here/LICENSE"

# The import rewrite: the only change a user makes to port.
find "$here" -name '*.go' -print0 | xargs -0 sed -i \
	-e 's#"go\.temporal\.io/sdk/contrib/envconfig"#"github.com/durable-go/sdk/contrib/envconfig"#' \
	-e 's#"go\.temporal\.io/sdk/\([a-z0-9/]*\)"#"github.com/durable-go/sdk/\1"#' \
	-e 's#"go\.temporal\.io/sdk"#"github.com/durable-go/sdk"#'

# Edits.
# 1. The tests that start a dev server name a Temporal CLI pre-release
#    with CachedDownload (one with standalone Nexus operations, one with
#    standalone activities); this SDK builds CLIs with go install, and
#    those pre-releases are not on the module proxy. The server they carry
#    is what durable-devserver (server 1.32.1) is, so the tests run that:
#    CachedDownload becomes ExistingPath, and a file of this port's,
#    devserver_test.go, finds the binary.
use_durable_devserver() {
	local f="$here/$1" pkg=$2
	echo "edit 1: $1: CachedDownload -> ExistingPath durable-devserver"
	perl -0pi -e 's/CachedDownload: testsuite\.CachedDownload\{\s*Version: "[^"]*",\s*\},/ExistingPath: durableDevServer(t),/' "$f"
	grep -q 'ExistingPath: durableDevServer(t),' "$f"
	cat >"$(dirname "$f")/devserver_test.go" <<GO
package $pkg

import (
	"os/exec"
	"testing"
)

// durableDevServer is the server the ported test starts in place of the
// Temporal CLI pre-release the sample names (port.sh, edit 1):
// durable-devserver, Temporal server 1.32.1. scripts/install-devserver.sh
// installs it into Go's bin directory, which the test scripts put on PATH.
func durableDevServer(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("durable-devserver")
	if err != nil {
		t.Fatalf("durable-devserver is not on PATH (%v): run scripts/install-devserver.sh and put Go's bin directory on PATH", err)
	}
	return path
}
GO
}
use_durable_devserver nexus-standalone-operations/handler_test.go nexus_standalone_operations_test
use_durable_devserver nexus-standalone-activity/handler_test.go nexus_standalone_activity_test
use_durable_devserver standalone-activity/helloworld/activity_test.go helloworld

gofmt -w "$here"
echo "ported ${samples[*]} at $commit"
