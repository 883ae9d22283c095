#!/usr/bin/env bash
# Tests for the site theme (Site/assets): run from anywhere, as root or with sudo for the
# one-time Chromium install.
#
#   Site/test/run.sh
#
# 1. bucketing.test.js  Node, no DOM: site.js's §5 functions against all 44 cross-language
#                       vectors (Tests/RovenueFallbackTests/Fixtures) and the rounding cases.
# 2. contrast.test.js   Node: WCAG AA contrast of the colour tokens, light and dark.
# 3. browser.test.js    headless Chromium on the mocks from file:// under their CSP: filters,
#                       ?q=, the subscriber lookup with ?subscriber=, no CSP violation or script
#                       error, the 44 vectors in the browser, light/dark screenshots into
#                       Site/test/out/ (or $SITE_TEST_OUT) for a person to look at.
#
# Chromium is installed with apt-get when no `chromium` is on PATH (set CHROMIUM to use another
# binary). The last line is "N passed, M failed"; the exit status is non-zero on any failure.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
fixtures="${VECTORS_DIR:-$repo/Tests/RovenueFallbackTests/Fixtures}"
vectors=("$fixtures/bucketing-vectors.json" "$fixtures/bucketing-parity-vectors.json")

passed=0
failed=0

note() { printf '\n==> %s\n' "$*"; }

# Runs one Node test file, echoes its output, and adds its "RESULT passed=N failed=M" line to
# the totals. A test file that dies before printing RESULT counts as one failure.
run_node() {
    local name="$1"; shift
    note "$name"
    local out status
    out="$(node "$@" 2>&1)"
    status=$?
    printf '%s\n' "$out"
    local result
    result="$(printf '%s\n' "$out" | grep -E '^RESULT passed=[0-9]+ failed=[0-9]+$' | tail -n 1)"
    if [ -z "$result" ]; then
        echo "error: $name ended without a RESULT line (exit $status)" >&2
        failed=$((failed + 1))
        return
    fi
    local p f
    p="$(printf '%s' "$result" | sed -E 's/^RESULT passed=([0-9]+) failed=([0-9]+)$/\1/')"
    f="$(printf '%s' "$result" | sed -E 's/^RESULT passed=([0-9]+) failed=([0-9]+)$/\2/')"
    passed=$((passed + p))
    failed=$((failed + f))
    if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "error: $name exited with status $status" >&2
        failed=$((failed + 1))
    fi
}

ensure_chromium() {
    if [ -n "${CHROMIUM:-}" ]; then
        command -v "$CHROMIUM" >/dev/null 2>&1 && return 0
        echo "error: CHROMIUM=$CHROMIUM is not executable" >&2
        return 1
    fi
    if command -v chromium >/dev/null 2>&1; then
        CHROMIUM=chromium
        return 0
    fi
    note "chromium is missing: installing it with apt-get"
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
            echo "error: chromium is missing and this is not root (no sudo): apt-get install -y chromium" >&2
            return 1
        fi
    fi
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "error: chromium is missing and apt-get is not available; install Chromium and set CHROMIUM" >&2
        return 1
    fi
    $sudo apt-get update -qq &&
        $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null ||
        { echo "error: apt-get install chromium failed" >&2; return 1; }
    command -v chromium >/dev/null 2>&1 && CHROMIUM=chromium
}

if ! command -v node >/dev/null 2>&1; then
    echo "error: node is not on PATH (Node 20 or later is needed)" >&2
    echo "0 passed, 1 failed"
    exit 1
fi

for v in "${vectors[@]}"; do
    if [ ! -f "$v" ]; then
        echo "error: missing vector file $v" >&2
        failed=$((failed + 1))
    fi
done

run_node "bucketing (Node, no DOM)" "$here/bucketing.test.js" "${vectors[@]}"
run_node "contrast (WCAG AA, light and dark)" "$here/contrast.test.js"

if ensure_chromium; then
    export CHROMIUM
    run_node "browser (headless $("$CHROMIUM" --version 2>/dev/null | head -n 1))" \
        "$here/browser.test.js" "${vectors[@]}"
else
    failed=$((failed + 1))
fi

echo
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
