#!/usr/bin/env bash
# Builds the fuzz targets of Fuzz/Package.swift with libFuzzer and AddressSanitizer, then runs
# each for SECONDS (60 by default) on a copy of its seed corpus (Fuzz/Corpus/<target>/).
#
#   Fuzz/run.sh [SECONDS] [TARGET...]      e.g. Fuzz/run.sh 20, Fuzz/run.sh 300 FuzzJSONValue
#   Fuzz/run.sh --replay [TARGET...]       reruns the recorded findings, Fuzz/Crashes/<target>/*
#
# Extra libFuzzer flags can be given in FUZZ_FLAGS, e.g. FUZZ_FLAGS="-fork=1 -ignore_crashes=1"
# to keep fuzzing past a known finding and collect every crashing input. FUZZ_TIMEOUT (seconds,
# default 10) is libFuzzer's per-input `-timeout`: an input slower than that is reported as a
# hang (CI uses 30, so that a loaded machine is not mistaken for one).
#
# Prints one line per target: runs, coverage (libFuzzer's `cov:`), and FAIL when libFuzzer
# stopped on a crash, a broken invariant, a leak, a timeout or running out of memory, with the
# input that did it. Exits non-zero if any target failed; the scratch folder (working corpora,
# logs, artifacts) is kept then, and its path printed. See Guides/Testing.md, "Fuzzing".
set -uo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
if [ -x /opt/swift/usr/bin/swift ]; then export PATH="/opt/swift/usr/bin:$PATH"; fi

replay=0
if [ "${1:-}" = --replay ]; then replay=1; shift; fi
seconds=60
per_input_timeout="${FUZZ_TIMEOUT:-10}"
if [ $replay -eq 0 ] && [ $# -gt 0 ] && [[ "$1" =~ ^[0-9]+$ ]]; then seconds="$1"; shift; fi

all_targets=()
for dir in "$here"/Sources/Fuzz*/; do
    name="$(basename "$dir")"
    [ "$name" = FuzzSupport ] || all_targets+=("$name")
done
if [ $# -gt 0 ]; then targets=("$@"); else targets=("${all_targets[@]}"); fi
for target in "${targets[@]}"; do
    if [ ! -d "$here/Sources/$target" ] || [ "$target" = FuzzSupport ]; then
        echo "run.sh: unknown target $target (targets: ${all_targets[*]})" >&2
        exit 2
    fi
done

# libFuzzer's runtime ships with the swift.org toolchain for Linux (its clang resource
# directory); without it `-sanitize=fuzzer` cannot link. (Xcode's toolchain has none.)
toolchain="$(dirname "$(dirname "$(command -v swiftc)")")"
if [ "$(uname -s)" = Linux ] && ! ls "$toolchain"/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a >/dev/null 2>&1 \
    && ! ls "$toolchain"/lib/swift/clang/lib/linux/libclang_rt.fuzzer-*.a >/dev/null 2>&1; then
    echo "run.sh: this Swift toolchain ($toolchain) has no libFuzzer runtime (libclang_rt.fuzzer)" >&2
    exit 2
fi

# The sanitizers are set on the command line, not in Package.swift, so that the root package's
# modules (where the parsers are) are instrumented too:
# - `-Xswiftc -sanitize=fuzzer,address` in one flag: swiftc keeps only the last `-sanitize=`
#   it is given, and SwiftPM's `--sanitize=fuzzer --sanitize=address` become two of them (in no
#   fixed order), which would silently drop coverage or ASan.
# - `--sanitize=fuzzer` as well: only then does SwiftPM link the executables with libFuzzer's
#   `main` instead of the target's own (empty) entry point.
# - `-use-ld=lld` (shipped with the toolchain): gold prints thousands of warnings about ASan's
#   local symbols.
build=(swift build -c debug --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld)
scratch="$(mktemp -d "${TMPDIR:-/tmp}/streams-fuzz.XXXXXX")"
echo "== building the fuzz targets: (cd Fuzz && ${build[*]})"
if ! (cd "$here" && "${build[@]}") >"$scratch/build.log" 2>&1; then
    cat "$scratch/build.log"
    echo "run.sh: build failed" >&2
    exit 1
fi
grep -E 'warning:|error:' "$scratch/build.log" || true
bin="$(cd "$here" && "${build[@]}" --show-bin-path)"

# The Swift runtime's own crash handler would catch fatal errors before libFuzzer does (and,
# under ASan, trips a false stack-buffer-underflow report in its memory reader): off, so that
# libFuzzer reports the crash and saves the input.
export SWIFT_BACKTRACE=enable=no
# LeakSanitizer stays on; lsan.supp names the leaks of the Swift toolchain's own libraries
# (Foundation, FoundationNetworking), each documented there.
export LSAN_OPTIONS="suppressions=$here/lsan.supp:print_suppressions=0"

# Per-target libFuzzer options.
options_for() {
    case "$1" in
        FuzzRemoteConfigFetch | FuzzRemoteConfigRealtime | FuzzDatabaseREST | FuzzDatabaseStream)
            # These go through URLSession, whose libcurl handles leak on every request (see
            # lsan.supp). Suppressed or not, that makes libFuzzer's per-input leak check run a
            # full LeakSanitizer scan after every input, which is ten times slower (~35 instead
            # of ~300 inputs/s). -detect_leaks=0 turns off only that per-input check:
            # LeakSanitizer still checks the whole run at exit, and a leak fails the target.
            echo "-detect_leaks=0" ;;
        FuzzTestServerHTTP | FuzzDatabaseRules)
            # The server serves each connection on threads of its own, which finish after the
            # input did (a dropped stream closes asynchronously): the per-input check then sees
            # the request still held there, behind a reference LeakSanitizer cannot follow
            # (Data's tagged storage pointer, see lsan.supp), and reports a leak that is not
            # one. The check at exit stays on, as above.
            echo "-detect_leaks=0" ;;
    esac
    case "$1" in
        FuzzDatabasePath | FuzzDatabaseStream)
            # Path depth is what breaks recursive tree code, and a level costs 2 bytes
            # ("a/"): libFuzzer's default 4 KB inputs stop at ~2,000 levels.
            echo "-max_len=16384" ;;
    esac
}

if [ $replay -eq 1 ]; then
    # Each recorded input once, as libFuzzer runs a file given on the command line (which
    # applies no -timeout: `timeout` stands in for it, with FUZZ_TIMEOUT).
    still=0
    for target in "${targets[@]}"; do
        for input in "$here/Crashes/$target"/*; do
            [ -f "$input" ] || continue
            mkdir -p "$scratch/$target"
            # shellcheck disable=SC2046
            (cd "$scratch/$target" && TMPDIR="$scratch/$target" timeout "$per_input_timeout" "$bin/$target" -rss_limit_mb=2048 \
                $(options_for "$target") "$input") >"$scratch/$target/$(basename "$input").log" 2>&1
            status=$?
            case $status in
                0) verdict="passes now (fixed?)" ;;
                124) verdict="FAILS: slower than $per_input_timeout s"; still=$((still + 1)) ;;
                *) verdict="FAILS: $(grep -m1 -o -E 'ERROR: [A-Za-z]+: [a-z-]+|Fatal error: .{0,100}' "$scratch/$target/$(basename "$input").log")"; still=$((still + 1)) ;;
            esac
            echo "$target/$(basename "$input"): $verdict"
        done
    done
    if [ $still -gt 0 ]; then echo "$still recorded finding(s) still fail (logs: $scratch)"; exit 1; fi
    rm -rf "$scratch"
    exit 0
fi

failed=()
printf '%-26s %-6s %10s %8s %6s\n' target result runs cov seconds
for target in "${targets[@]}"; do
    work="$scratch/$target"
    mkdir -p "$work/corpus" "$work/artifacts" "$work/tmp"
    if [ -d "$here/Corpus/$target" ]; then cp -R "$here/Corpus/$target/." "$work/corpus/"; fi
    started=$(date +%s)
    # shellcheck disable=SC2046
    (cd "$work" && TMPDIR="$work/tmp" "$bin/$target" "$work/corpus" \
        -max_total_time="$seconds" -rss_limit_mb=2048 -timeout="$per_input_timeout" \
        -artifact_prefix="$work/artifacts/" -print_final_stats=1 $(options_for "$target") ${FUZZ_FLAGS:-}) \
        >"$work/log" 2>&1
    status=$?
    elapsed=$(( $(date +%s) - started ))
    runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | tail -1)"
    [ -n "$runs" ] || runs="$(grep -o '^#[0-9]*' "$work/log" | tail -1 | tr -d '#')"
    cov="$(grep -o ' cov: [0-9]*' "$work/log" | tail -1 | tr -dc '0-9')"
    result=ok
    [ "$status" -eq 0 ] || result=FAIL
    printf '%-26s %-6s %10s %8s %6s\n' "$target" "$result" "${runs:-?}" "${cov:-?}" "$elapsed"
    if [ "$status" -ne 0 ]; then
        failed+=("$target")
        {
            echo "   exit status $status; log: $work/log"
            grep -m1 -E 'ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)|Fatal error|out-of-memory|timeout after' "$work/log" | sed 's/^/   /'
            # The top frames below libFuzzer, the sanitizers, the runtime's fatalError and
            # the targets' `require`.
            grep -E '^ +#[0-9]+ ' "$work/log" \
                | grep -v -e compiler-rt -e 'libc\.so' -e '_assertionFailure' -e 'FuzzSupport7require' \
                | head -6 | sed 's/^/   /'
            for artifact in "$work"/artifacts/*; do
                [ -e "$artifact" ] && echo "   input: $artifact (base64 $(base64 -w0 "$artifact" | cut -c1-120))"
            done
        }
    fi
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "FAILED: ${failed[*]} (scratch folder kept: $scratch)"
    exit 1
fi
rm -rf "$scratch"
echo "all ${#targets[@]} fuzz targets ran ${seconds}s each without a finding"
