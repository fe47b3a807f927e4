#!/usr/bin/env bash
# One command to go from a fresh clone to a running IDE on http://127.0.0.1:3000:
# installs npm dependencies, Debian's Chromium where missing (for the tests), builds, starts.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

if ! command -v chromium >/dev/null 2>&1; then
  echo "Installing Chromium from Debian (used by the end-to-end tests and benchmarks)…"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq chromium
fi

npm ci --no-audit --no-fund
npx next build
if [ "${TABULA_SETUP_NO_START:-}" = "1" ]; then exit 0; fi
echo "Starting Tabula on http://127.0.0.1:3000"
exec node scripts/serve.mjs -p "${PORT:-3000}" -H 127.0.0.1
