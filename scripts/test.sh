#!/usr/bin/env bash
# Every check: lint, typecheck, then the unit, integration and end-to-end tiers on real services.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/prepare.sh"
ensure_pnpm
install_dependencies
ensure_services
ensure_ops_tools
build_all

mkdir -p test-results
rm -f test-results/*.json
status=0
# Type-aware lint holds every project's types at once: more heap than Node's default.
log "lint"; NODE_OPTIONS=--max-old-space-size=6144 pnpm exec eslint . --max-warnings=0 || status=1
log "format"; pnpm exec prettier --check . || status=1
log "unused exports"; pnpm exec knip --include exports,types || status=1
log "typecheck"; pnpm exec turbo run typecheck --output-logs=errors-only || status=1
log "unit + integration tests"
pnpm exec vitest run --project unit --project integration \
  --reporter=default --reporter=json --outputFile.json=test-results/unit-integration.json || status=1
log "stress tests (bounded)"
pnpm exec vitest run --project stress \
  --reporter=default --reporter=json --outputFile.json=test-results/stress.json || status=1
log "end-to-end tests"
pnpm exec vitest run --project e2e \
  --reporter=default --reporter=json --outputFile.json=test-results/e2e.json || status=1
node scripts/test-summary.mjs test-results/unit-integration.json test-results/stress.json test-results/e2e.json || status=1
exit $status
