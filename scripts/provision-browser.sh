#!/usr/bin/env bash
# Provision the headless browser that the dashboard's browser tests drive
# (tests/e2e/test_dashboard_browser.py): Debian's `chromium` and `chromium-driver`.
#
# - Idempotent and fast when both are already there.
# - As root with apt: installs what is missing from Debian's packages (never a browser
#   build downloaded by a tool of its own: `playwright install` / selenium-manager fail
#   offline and are not used).
# - Without root or apt: prints one loud line and exits 0; the browser tests then skip
#   with the reason (or fail under COGNIMEM_REQUIRE_SERVICES=1).
#
# Environment: COGNIMEM_SKIP_PROVISION=1 skips everything.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

say() { printf 'provision-browser: %s\n' "$*"; }
loud() { printf '\n*** provision-browser: %s ***\n\n' "$*" >&2; }

have_chromium() { command -v chromium >/dev/null 2>&1; }
have_driver() { command -v chromedriver >/dev/null 2>&1; }

if [ "${COGNIMEM_SKIP_PROVISION:-0}" = "1" ]; then
    say "COGNIMEM_SKIP_PROVISION=1: skipped"
    exit 0
fi
if have_chromium && have_driver; then
    say "chromium + chromedriver already present"
    exit 0
fi

PKGS=()
have_chromium || PKGS+=(chromium)
have_driver || PKGS+=(chromium-driver)
if [ "$(id -u)" -ne 0 ]; then
    loud "BROWSER UNAVAILABLE: ${PKGS[*]} missing -- not root, cannot install; browser tests will SKIP"
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    loud "BROWSER UNAVAILABLE: ${PKGS[*]} missing -- apt-get not available; browser tests will SKIP"
    exit 0
fi

LOG="$(mktemp /tmp/provision-browser.XXXXXX)"
trap 'rm -f -- "$LOG"' EXIT
APT_OPTS=(-q -y -o DPkg::Lock::Timeout=300 -o Dpkg::Options::=--force-confdef
    -o Dpkg::Options::=--force-confold)
apt_install() { apt-get install "${APT_OPTS[@]}" --no-install-recommends "${PKGS[@]}"; }
apt_update() { apt-get update -q -o DPkg::Lock::Timeout=300; }

need_update=0
for p in "${PKGS[@]}"; do
    if ! apt-cache policy "$p" 2>/dev/null | grep -q 'Candidate: [0-9]'; then need_update=1; fi
done
if [ "$need_update" = 1 ] && ! apt_update >"$LOG" 2>&1; then
    loud "FAILED: apt-get update; output follows"
    tail -n 60 "$LOG" >&2 || true
    exit 1
fi
say "installing: ${PKGS[*]}"
if ! apt_install >"$LOG" 2>&1; then
    # stale package lists (a mirror that moved on): refresh once and retry
    if ! { apt_update && apt_install; } >"$LOG" 2>&1; then
        loud "FAILED: apt-get install ${PKGS[*]}; output follows"
        tail -n 60 "$LOG" >&2 || true
        exit 1
    fi
fi
if ! have_chromium || ! have_driver; then
    loud "FAILED: chromium or chromedriver still missing after apt-get install ${PKGS[*]}"
    exit 1
fi
say "installed $(chromium --version 2>/dev/null || echo chromium) and chromedriver"
