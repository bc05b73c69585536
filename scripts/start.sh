#!/usr/bin/env bash
# One command: install, start backing services, migrate, build, and run the five services.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/prepare.sh"
ensure_pnpm
install_dependencies
ensure_services
build_all
ensure_userland
ensure_database
exec node scripts/run-platform.mjs
