#!/usr/bin/env bash
# Install Debian's Chromium for the browser tests (Playwright drives it; it never
# downloads a browser of its own). Prints the browser's path.
set -euo pipefail
if ! command -v chromium > /dev/null 2>&1; then
  apt-get update -qq > /dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium > /dev/null
fi
command -v chromium
