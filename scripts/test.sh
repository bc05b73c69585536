#!/usr/bin/env bash
# Every check: lint, typecheck, then the unit, integration and end-to-end tiers on real services.
# Each phase's wall time is printed at the end, so a slow run says where its time went.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/prepare.sh"

status=0
timings=()
# Runs one phase, records its wall time and whether it failed; a failure does not stop the later phases.
phase() {
  local name="$1"
  shift
  local started=$SECONDS
  log "$name"
  "$@" || status=1
  timings+=("$(printf '%6ss  %s' "$((SECONDS - started))" "$name")")
}

prepare() {
  ensure_pnpm
  install_dependencies
  ensure_services
  ensure_ops_tools
  ensure_browser
  build_all
  ensure_userland
}
# Not a `phase`: a failed preparation stops the run here (`set -e` does not apply inside `cmd || …`).
prepared=$SECONDS
prepare
timings+=("$(printf '%6ss  %s' "$((SECONDS - prepared))" "install, services, build, userland")")

mkdir -p test-results
rm -f test-results/*.json
# Lint runs on one core beside the other static checks (the typecheck uses the other); its output and
# time are printed when it is done. Type-aware lint holds every project's types at once: more heap.
lint_log=test-results/lint.log
lint_started=$SECONDS
log "lint (beside the checks below)"
NODE_OPTIONS=--max-old-space-size=6144 pnpm exec eslint . --max-warnings=0 >"$lint_log" 2>&1 &
lint_pid=$!
phase "format" pnpm exec prettier --check .
# Unused exports; the flags are in package.json (docs/decisions.md, "Contracts entry points name what they export").
phase "unused exports" pnpm run --silent knip
# Tests wait for conditions; the few fixed waits left are listed in docs/testing.md, and may not grow.
phase "fixed waits in tests" node scripts/count-sleeps.mjs --max=9
phase "typecheck" pnpm exec turbo run typecheck --output-logs=errors-only
lint_status=0
wait "$lint_pid" || lint_status=$?
log "lint"
cat "$lint_log"
[ "$lint_status" -eq 0 ] || status=1
timings+=("$(printf '%6ss  %s' "$((SECONDS - lint_started))" "lint (beside format, unused exports, fixed waits, typecheck)")")
phase "unit + integration tests" pnpm exec vitest run --project unit --project integration \
  --reporter=default --reporter=json --outputFile.json=test-results/unit-integration.json
phase "stress tests (bounded)" pnpm exec vitest run --project stress \
  --reporter=default --reporter=json --outputFile.json=test-results/stress.json
phase "end-to-end tests" pnpm exec vitest run --project 'e2e*' \
  --reporter=default --reporter=json --outputFile.json=test-results/e2e.json
node scripts/test-summary.mjs test-results/unit-integration.json test-results/stress.json test-results/e2e.json || status=1
log "wall time by phase (${SECONDS}s in all)"
printf '%s\n' "${timings[@]}"
exit $status
