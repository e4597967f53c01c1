#!/usr/bin/env bash
# Runs end-to-end tests on a private copy of the build, so parallel work on one machine does not
# trip over a rebuild. usage: scripts/e2e-local.sh NAME PORT [playwright args...]
set -euo pipefail
cd "$(dirname "$0")/.."
name=$1 port=$2; shift 2
dir=$PWD/.e2e-builds/$name
flock /tmp/portal-build.lock bash -c "npm run build >/tmp/e2e-build-$name.log 2>&1 && rm -rf '$dir' && mkdir -p '$dir' && cp -r apps/web/dist '$dir/web' && cp -r apps/server/dist '$dir/server'" \
  || { tail -30 /tmp/e2e-build-$name.log; exit 1; }
E2E_BUILD_DIR=$dir E2E_PORT=$port E2E_DATA_DIR=/tmp/portal-e2e-$name npx playwright test --reporter=list --output="/tmp/e2e-results-$name" "$@"
