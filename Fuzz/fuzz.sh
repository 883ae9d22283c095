#!/usr/bin/env bash
# The fuzz targets of fallback-site: build, seed, run. Called by `make fuzz` and `make fuzz-smoke`.
#
#   Fuzz/fuzz.sh build            build every target (release, libFuzzer + AddressSanitizer)
#   Fuzz/fuzz.sh seed             (re)fill the working corpora from Tests/, Examples/, Templates/ and docs/
#   Fuzz/fuzz.sh run              fuzz each target for FUZZ_SECONDS (default 60) seconds
#   Fuzz/fuzz.sh smoke            replay Fuzz/Regressions, then a short run of each target (CI)
#   Fuzz/fuzz.sh replay TARGET FILE...   run a target once on each file (to reproduce a finding)
#
# FUZZ_TARGETS picks targets (default: json mustache markdown build). Findings (crash-*, timeout-*,
# oom-*) land in Fuzz/Findings/<target>/; the corpora grow in Fuzz/Corpus/<target>/ (both git-ignored).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

SWIFT=${SWIFT:-swift}
TARGETS=${FUZZ_TARGETS:-json mustache markdown build}
SECONDS_EACH=${FUZZ_SECONDS:-60}
SCRATCH=.build/fuzz
BIN=$SCRATCH/release
# Swift's backtracer, started on a crash, trips AddressSanitizer and buries libFuzzer's report.
export SWIFT_BACKTRACE=enable=no

# Longest input per target: snapshots up to the largest example with its baseline; texts smaller.
max_len() {
    case "$1" in
    json) echo 65536 ;;
    build) echo 131072 ;;
    *) echo 32768 ;;
    esac
}

build() {
    local flags=(-Xswiftc -sanitize=fuzzer,address)
    # gold fails to link AddressSanitizer builds of the theme embedder; lld (in the toolchain) does.
    if [ "$(uname -s)" = Linux ]; then flags+=(-Xswiftc -use-ld=lld); fi
    "$SWIFT" build -c release --package-path Fuzz --scratch-path "$SCRATCH" "${flags[@]}"
}

# Copies files into a corpus folder, each named by its content's hash so re-seeding adds no duplicate.
add() {
    local folder=$1
    shift
    mkdir -p "$folder"
    local file
    for file in "$@"; do
        [ -f "$file" ] || continue
        cp "$file" "$folder/seed-$(sha1sum <"$file" | cut -c1-16)"
    done
}

seed() {
    local corpus=Fuzz/Corpus
    local work
    work=$(mktemp -d)
    trap 'rm -rf "$work"' RETURN
    for target in $TARGETS; do mkdir -p "$corpus/$target" "Fuzz/Findings/$target"; done
    add "$corpus/json" Tests/*/Fixtures/*.json Examples/*.json Tests/Golden/check/*.json Fuzz/Regressions/json/*
    add "$corpus/markdown" docs/*.md README.md Examples/README.md Templates/*.md Templates/partials/* Fuzz/Regressions/markdown/*
    # Mustache: each template alone, and each page template with the theme's partials after NUL bytes.
    add "$corpus/mustache" Templates/*.md Templates/layout.html Templates/partials/* Fuzz/Regressions/mustache/*
    local page partial i=0
    for page in Templates/*.md; do
        i=$((i + 1))
        {
            cat "$page"
            for partial in Templates/partials/*; do
                printf '\0%s\n' "$(basename "$partial" .md)"
                cat "$partial"
            done
        } >"$work/mustache-$i"
    done
    printf '{{#a}}{{> p}}{{/a}}\0p\n[{{b}}]{{#c}}{{> p}}{{/c}}\0@context\n{"a":true,"b":"<x>","c":{"c":false}}\0@escape\nmarkdown' >"$work/mustache-context"
    add "$corpus/mustache" "$work"/mustache-*
    # build: each snapshot, and each example with the one before it as the baseline (after a NUL).
    add "$corpus/build" Tests/*/Fixtures/*-fallback.json Examples/*.json Fuzz/Regressions/build/*
    local previous="" example
    for example in Examples/*.json; do
        if [ -n "$previous" ]; then
            { cat "$example"; printf '\0'; cat "$previous"; } >"$work/build-$(basename "$example")"
        fi
        previous=$example
    done
    add "$corpus/build" "$work"/build-*
}

# Runs one target; prints its executions; the status is libFuzzer's (0: nothing found).
fuzz() {
    local target=$1 seconds=$2
    shift 2
    local log="Fuzz/Findings/$target/last-run.log"
    mkdir -p "Fuzz/Findings/$target"
    local status=0
    "$BIN/fuzz-$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len="$(max_len "$target")" \
        -print_final_stats=1 -artifact_prefix="Fuzz/Findings/$target/" "$@" "Fuzz/Corpus/$target" >"$log" 2>&1 || status=$?
    local runs
    runs=$(grep -oE 'stat::number_of_executed_units: [0-9]+' "$log" | grep -oE '[0-9]+$' || echo "?")
    if [ "$status" -eq 0 ]; then
        printf '%-9s %12s executions in %ss: nothing found\n' "$target" "$runs" "$seconds"
    else
        printf '%-9s %12s executions: FOUND something (status %s); see %s and Fuzz/Findings/%s/\n' "$target" "$runs" "$status" "$log" "$target"
        grep -E '^(==[0-9]+==ERROR|SUMMARY|fuzz property failed|Fatal error|artifact_prefix|Test unit written)' "$log" | head -n 8 | sed 's/^/    /'
    fi
    return "$status"
}

run() {
    local failed=0
    for target in $TARGETS; do
        fuzz "$target" "$SECONDS_EACH" "$@" || failed=1
    done
    return "$failed"
}

# Every committed regression input, once per target: a finding that came back fails here.
replay_regressions() {
    local failed=0 target files
    for target in $TARGETS; do
        files=(Fuzz/Regressions/"$target"/*)
        [ -e "${files[0]}" ] || continue
        if "$BIN/fuzz-$target" -timeout=10 -rss_limit_mb=4096 "${files[@]}" >"$SCRATCH/replay-$target.log" 2>&1; then
            echo "$target: ${#files[@]} regression inputs pass"
        else
            echo "$target: a regression input fails; see $SCRATCH/replay-$target.log" >&2
            grep -E '^(Running:|==[0-9]+==ERROR|SUMMARY|fuzz property failed|Fatal error)' "$SCRATCH/replay-$target.log" | tail -n 6 >&2 || true
            failed=1
        fi
    done
    return "$failed"
}

case "${1:-run}" in
build) build ;;
seed) seed ;;
run)
    build
    seed
    run
    ;;
smoke)
    build
    seed
    status=0
    replay_regressions || status=1
    SECONDS_EACH=${FUZZ_SECONDS:-5}
    run -runs=20000 || status=1
    exit "$status"
    ;;
replay)
    target=$2
    shift 2
    "$BIN/fuzz-$target" -timeout=10 -rss_limit_mb=4096 "$@"
    ;;
*)
    sed -n '2,12p' "$0" >&2
    exit 2
    ;;
esac
