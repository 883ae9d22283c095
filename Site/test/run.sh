#!/usr/bin/env bash
# Tests for the site theme (Site/assets): run from anywhere.
#
#   Site/test/run.sh
#
# 1. bucketing.test.js   Node, no DOM: site.js's §5 functions against all 44 cross-language
#                        vectors (Tests/RovenueFallbackTests/Fixtures) and the rounding cases.
# 2. contrast.test.js    Node: WCAG AA contrast of the colour tokens, light and dark.
# 3. browser.test.js     headless Chromium on the mocks from file:// under their CSP: filters,
#                        ?q=, the subscriber lookup with ?subscriber=, no CSP violation or script
#                        error, the 44 vectors in the browser, light/dark screenshots (kept in
#                        $SITE_TEST_OUT when set).
# 4. built-site.test.js  the same browser checks on sites the built tool makes from Templates/
#                        (Examples/2026-06-23-release-3.3.json, and the Examples folder as a
#                        series), so the mocks cannot drift from the real pages.
# 5. checks.test.js      the checks page of the series site: infos collapsed, permalinks into
#                        collapsed groups, ?severity= and ?rule= filters, rule pages.
# 6. search.test.js      the header's site search on those two sites (?search=…): each kind of
#                        thing found, its link's file and anchor exist, ranking, the cap, the
#                        keyboard, and a site built from a hostile snapshot showing its text as text.
#
# 7. overview-verdict.test.js  the overview of the Examples series: the verdict (1 error, 2
#                        breaking changes, linked), problems first, sorting by clicking a header.
# 8. mobile.test.js      the Examples series at 390 px, light and dark: no page scrolls sideways,
#                        nothing wider than the screen outside a scrolling drawing or chart (the
#                        history chart keeps labels of 10 px or more), tables as cards; and a site
#                        of a hostile snapshot whose ids and remote URLs are long with no space in
#                        them (its funnel and checks pages also at 1280 px).
# 9. copydiff.test.js    the changes page's copy diffs: each locale's old and new text whole, the
#                        changed words in <del>/<ins> with non-colour cues, locale labels, the link
#                        to the funnel page's row; plus a site built from two snapshots it writes.
# 10. experiments.test.js  experiment pages (releases 3.0–3.3 as a series: onboarding's variant
#                        cards, funnels compared, allocation history, ?subscriber= marker label and
#                        copy link) and the Examples series' skipped experiment (paywall_settings):
#                        its page says why the whole entry fails and is linked from everywhere.
# 11. graph.test.js      a funnel page of the Examples series at 1280 and 390 px: page boxes link
#                        to rows, focus lights the way on, zoom + / − / Fit, the outline.
# 12. history-walk.test.js  the Examples series' history: rows lead to each snapshot's page and
#                        each pair's changes page (files and anchors exist), the chart's release
#                        labels and legend, new / still present / fixed badges, ?status= on checks.
# 13. previews.test.js   phone previews: rows link to previews and back, the locale switch shows
#                        each locale's copy and the missing-copy marks, hostile text, paywalls.
# 14. axe.test.js        the accessibility gate: axe-core (axe.min.js, `make browser-deps`; set
#                        AXE_JS to use another) on one page of every kind of both built sites, the
#                        kinds only a 510-placement sample's site has (the overview's later pages),
#                        and the mocks, light and dark: no serious or critical violation.
# 15. page-weight.test.js Node, no browser: the site of a 1,000-placement sample (`sample
#                        --placements 1000 --seed 2`) has no page over 1 MiB and an average page
#                        under 25 KB; prints the figures (pages, average, heaviest, per folder).
#
# Needs Node 20+, Chromium (`make browser-deps`; set CHROMIUM to use another binary) and the
# built tool (`swift build`; set FALLBACK_SITE to use another binary). A part whose program is
# missing is SKIPPED on a developer's machine, and FAILS when CI=true: in CI a skipped part would
# read as passed. Everything is written inside one temporary folder, removed at the end.
# The last line is "N passed, M failed, K skipped"; the exit status is non-zero on any failure.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
fixtures="${VECTORS_DIR:-$repo/Tests/RovenueFallbackTests/Fixtures}"
vectors=("$fixtures/bucketing-vectors.json" "$fixtures/bucketing-parity-vectors.json")
tool="${FALLBACK_SITE:-$repo/.build/debug/fallback-site}"

case "${CI:-}" in true | TRUE | True | 1) ci=1 ;; *) ci=0 ;; esac

passed=0
failed=0
skipped=0

note() { printf '\n==> %s\n' "$*"; }

work="$(mktemp -d "${TMPDIR:-/tmp}/fallback-site-theme-tests.XXXXXX")" || { echo "error: cannot make a temporary folder" >&2; exit 1; }
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

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

# What each part needs, looked up before anything runs.
have_node=0
command -v node >/dev/null 2>&1 && have_node=1
have_chromium=0
if [ -n "${CHROMIUM:-}" ]; then
    command -v "$CHROMIUM" >/dev/null 2>&1 && have_chromium=1
else
    for name in chromium chromium-browser google-chrome; do
        if command -v "$name" >/dev/null 2>&1; then CHROMIUM="$name"; have_chromium=1; break; fi
    done
fi
have_tool=0
[ -x "$tool" ] && have_tool=1
axe="${AXE_JS:-$repo/.build/axe-core/axe.min.js}"
have_axe=0
[ -f "$axe" ] && have_axe=1

# A part cannot run because `what` is missing: skipped here, a failure in CI.
missing() {
    local part="$1" what="$2"
    if [ "$ci" -eq 1 ]; then
        echo "error: $part cannot run: $what" >&2
        failed=$((failed + 1))
    else
        echo "SKIPPED: $part: $what" >&2
        skipped=$((skipped + 1))
    fi
}

[ "$have_node" -eq 1 ] || missing "every theme test" "node is not on PATH (Node 20 or later is needed)"
if [ "$have_chromium" -eq 0 ]; then
    if [ -n "${CHROMIUM:-}" ]; then
        echo "error: CHROMIUM=$CHROMIUM is not executable" >&2
        failed=$((failed + 1))
    else
        missing "the browser tests (mocks and built sites)" "Chromium is not on PATH (make browser-deps, or set CHROMIUM)"
    fi
fi
[ "$have_tool" -eq 1 ] || missing "the built-site tests" "no fallback-site executable at $tool (swift build, or set FALLBACK_SITE)"
[ "$have_axe" -eq 1 ] || missing "the accessibility gate (axe-core)" "no axe.min.js at $axe (make browser-deps, or set AXE_JS)"
if [ "$failed" -ne 0 ] && [ "$ci" -eq 1 ]; then
    # In CI every part must run: stop before running any, so the cause is the last thing said.
    echo "error: CI=true and a part of the theme's tests cannot run; nothing was run" >&2
    echo
    echo "$passed passed, $failed failed, $skipped skipped"
    exit 1
fi

if [ "$have_node" -eq 1 ]; then
    for v in "${vectors[@]}"; do
        if [ ! -f "$v" ]; then
            echo "error: missing vector file $v" >&2
            failed=$((failed + 1))
        fi
    done

    run_node "bucketing (Node, no DOM)" "$here/bucketing.test.js" "${vectors[@]}"
    run_node "contrast (WCAG AA, light and dark)" "$here/contrast.test.js"

    if [ "$have_chromium" -eq 1 ]; then
        export CHROMIUM
        version="$("$CHROMIUM" --version 2>/dev/null | head -n 1)"
        run_node "browser, mocks (headless $version)" "$here/browser.test.js" "${vectors[@]}"
        if [ "$have_tool" -eq 1 ]; then
            note "building sites from Templates/ with $tool"
            if "$tool" build "$repo/Examples/2026-06-23-release-3.3.json" --out "$work/snapshot-site" --quiet &&
                "$tool" build "$repo/Examples" --out "$work/series-site" --quiet; then
                run_node "browser, sites built from Templates/ (headless $version)" \
                    "$here/built-site.test.js" "$work/snapshot-site" "$work/series-site"
                run_node "checks page and rule pages (headless $version)" "$here/checks.test.js" "$work/series-site"
                run_node "browser, site search on the built sites (headless $version)" \
                    "$here/search.test.js" "$work/snapshot-site" "$work/series-site" "$tool"
                run_node "browser, the overview's verdict and sorting (headless $version)" \
                    "$here/overview-verdict.test.js" "$work/series-site"
                run_node "browser, the series site at 390 px (headless $version)" \
                    "$here/mobile.test.js" "$work/series-site" "$tool"
                run_node "browser, copy diffs on the changes page (headless $version)" \
                    "$here/copydiff.test.js" "$work/series-site" "$tool"
                # Experiment pages (issue 9, point 7): releases 3.0–3.3 run onboarding's experiment.
                if "$tool" build "$repo/Examples/2026-03-03-release-3.0.json" "$repo/Examples/2026-04-14-release-3.1.json" \
                    "$repo/Examples/2026-05-19-release-3.2.json" "$repo/Examples/2026-06-23-release-3.3.json" \
                    --out "$work/experiment-site" --quiet; then
                    run_node "browser, experiment pages (headless $version)" \
                        "$here/experiments.test.js" "$work/series-site" "$work/experiment-site"
                else
                    echo "error: fallback-site build of releases 3.0–3.3 failed" >&2
                    failed=$((failed + 1))
                fi
                run_node "browser, the funnel graph: links, focus, zoom, outline (headless $version)" \
                    "$here/graph.test.js" "$work/series-site"
                run_node "browser, walking the series' history (headless $version)" \
                    "$here/history-walk.test.js" "$work/series-site"
                run_node "browser, phone previews and their locale switch (headless $version)" \
                    "$here/previews.test.js" "$work/series-site" "$tool"
                if [ "$have_axe" -eq 1 ]; then
                    # The experiment pages with variant cards live in the releases 3.0–3.3 site.
                    axe_extra=()
                    [ -f "$work/experiment-site/index.html" ] && axe_extra=("$work/experiment-site")
                    # Past 500 placements the overview has more pages (index-2.html, …): a sample that
                    # size gives the gate those kinds too.
                    if "$tool" sample --placements 510 --out "$work/sample.json" >/dev/null &&
                        "$tool" build "$work/sample.json" --out "$work/sample-site" --quiet; then
                        run_node "accessibility: axe-core on every page kind, light and dark (headless $version)" \
                            "$here/axe.test.js" "$axe" "$work/series-site" "$work/snapshot-site" "${axe_extra[@]}" --new-kinds "$work/sample-site" --mocks "$here/mock"
                    else
                        echo "error: fallback-site sample or build failed" >&2
                        failed=$((failed + 1))
                    fi
                fi
            else
                echo "error: fallback-site build failed" >&2
                failed=$((failed + 1))
            fi
        fi
    fi
fi

# Page weight needs no browser: the site of a 1,000-placement sample, every page under 1 MiB, the average under 25 KB.
if [ "$have_node" -eq 1 ] && [ "$have_tool" -eq 1 ]; then
    run_node "page weight of a 1,000-placement site (Node)" "$here/page-weight.test.js" "$tool"
fi

echo
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
