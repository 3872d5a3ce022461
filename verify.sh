#!/usr/bin/env bash
# Usage: ./verify.sh          quick: typecheck + tests
#        ./verify.sh --full   format, lint, typecheck, tests+coverage,
#                             architecture-drift, behavior-boundaries (build, bundle size, exports)
set -euo pipefail
cd "$(dirname "$0")"

mode="quick"
case "${1:-}" in
  "") ;;
  --full) mode="full" ;;
  -h | --help)
    sed -n '2,4p' "$0"
    exit 0
    ;;
  *)
    echo "verify.sh: unknown argument '$1' (expected --full or nothing)" >&2
    exit 2
    ;;
esac

current_step=""
on_exit() {
  local rc=$?
  if [ "$rc" -ne 0 ] && [ -n "$current_step" ]; then
    echo "" >&2
    echo "verify.sh ($mode): FAILED at step '$current_step' (exit $rc)" >&2
  fi
}
trap on_exit EXIT

step() {
  current_step="$1"
  shift
  echo ""
  echo "==> [$current_step] $*"
  "$@"
}

if [ "$mode" = "quick" ]; then
  step typecheck npm run --silent typecheck
  step tests npm test --silent
else
  step format-check npm run --silent format:check
  step lint npm run --silent lint
  step typecheck npm run --silent typecheck
  step tests-coverage npm run --silent test:coverage
  step architecture-drift npm run --silent check:arch
  step behavior-boundaries:build npm run --silent build
  step bundle-size npm run --silent check:size
  step behavior-boundaries:exports npm run --silent verify:exports
fi

current_step=""
echo ""
echo "verify.sh ($mode): all steps passed"
