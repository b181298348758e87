#!/usr/bin/env bash
# Every fuzz harness in turn (libFuzzer, shipped with the Swift toolchain), within a time budget:
#   tools/fuzz.sh                        # 10 minutes, split over the harnesses
#   tools/fuzz.sh --time 2m              # CI's short campaign
#   tools/fuzz.sh --only control --time 1h
#   tools/fuzz.sh --runs 10000000 --only decoder
# The harnesses (docs/fuzzing.md): decoder (frame decoder), module (a hostile module against the
# driver), config (the configuration file), backup (a restore's file and contents), control (the
# service's control socket), console (the web console's request handling). decoder and module
# are built by tools/fuzz-decoder.sh and tools/fuzz-module.sh; the other four link against the
# libraries built by SwiftPM with coverage instrumentation (.build/fuzz-libs), since SwiftPM
# executables cannot link libFuzzer's own main.
# Prints, per harness, the inputs run, their rate, crashes and hangs; exit 1 on any crash or
# hang (the input is kept as .build/fuzz-<name>/crash-… or timeout-…; replay it by running the
# harness binary with that file).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
budget=600 runs= only=
while [ $# -gt 0 ]; do
    case $1 in
        --time) value=$2; shift 2
            case $value in *h) budget=$(( ${value%h} * 3600 ));; *m) budget=$(( ${value%m} * 60 ));; *s) budget=${value%s};; *) budget=$value;; esac ;;
        --runs) runs=$2; shift 2 ;;
        --only) only=$2; shift 2 ;;
        *) echo "fuzz.sh: unknown argument $1 (--time D, --runs N, --only NAME)" >&2; exit 64 ;;
    esac
done
all=(decoder module config backup control console)
names=()
for name in "${all[@]}"; do [ -z "$only" ] || [ "$name" = "$only" ] && names+=("$name"); done
[ ${#names[@]} -gt 0 ] || { echo "fuzz.sh: no harness named $only (${all[*]})" >&2; exit 64; }
export ASAN_OPTIONS="${ASAN_OPTIONS:-malloc_context_size=0}" SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"

# The libraries with coverage instrumentation, for the harnesses that are not decoder or module.
build_libraries() {
    [ -n "${libraries_built:-}" ] && return
    swift build --build-path .build/fuzz-libs --target WebConsole -Xswiftc -sanitize=fuzzer > .build/fuzz-libs.log 2>&1 \
        || { tail -20 .build/fuzz-libs.log; exit 1; }
    libraries_built=1
}

# Links one harness (tools/fuzz/Fuzz<Name>.swift) against those libraries.
build_harness() {
    local name=$1 source=$2 out=.build/fuzz-$1
    local debug=.build/fuzz-libs/debug
    mkdir -p "$out/corpus"
    local includes=(-I "$debug/Modules") libraries=()
    for map in "$debug"/*.build/module.modulemap; do includes+=(-Xcc "-fmodule-map-file=$root/$map"); done
    for dir in Sources/C*/; do [ -f "$dir/module.modulemap" ] && includes+=(-Xcc "-fmodule-map-file=$root/${dir}module.modulemap"); done
    # The system libraries' headers where SwiftPM finds them (their pkgConfig names in Package.swift).
    local package
    for package in $(grep -o 'pkgConfig: "[^"]*"' Package.swift | cut -d'"' -f2 | sort -u); do
        for flag in $(pkg-config --cflags-only-I "$package" 2>/dev/null); do includes+=(-Xcc "$flag"); done
        for flag in $(pkg-config --libs "$package" 2>/dev/null); do libraries+=("$flag"); done
    done
    local objects=()
    for dir in "$debug"/*.build; do
        case $(basename "$dir" .build) in *Tests|fpmod|HostMatchBench|Demo) continue ;; esac
        for object in "$dir"/*.o; do [ -f "$object" ] && objects+=("$object"); done
    done
    local linker=()
    command -v ld.lld > /dev/null && linker=(-use-ld=lld)
    swiftc -sanitize=fuzzer -parse-as-library -swift-version 6 "${includes[@]}" "${linker[@]}" -module-name "Fuzz$name" \
        "$source" "${objects[@]}" "${libraries[@]}" -o "$out/fuzz-$name"
    FPMOD_FUZZ_WRITE_SEEDS="$out/corpus" "$out/fuzz-$name" > /dev/null 2>&1 || true
}

per=$(( budget / ${#names[@]} ))
[ $per -ge 5 ] || per=5
failed=0
printf '%-8s %12s %10s %8s %6s\n' harness inputs "exec/s" crashes hangs
for name in "${names[@]}"; do
    limit=(-max_total_time=$per)
    [ -n "$runs" ] && limit=(-runs=$runs)
    case $name in
        decoder) command=(tools/fuzz-decoder.sh "${limit[@]}" -print_final_stats=1) ; dir=.build/fuzz ;;
        module) command=(tools/fuzz-module.sh "${limit[@]}" -print_final_stats=1) ; dir=.build/fuzz-module ;;
        *)
            build_libraries
            source=tools/fuzz/Fuzz$(tr '[:lower:]' '[:upper:]' <<< "${name:0:1}")${name:1}.swift
            [ "$name" = console ] && source=tools/fuzz/FuzzConsoleRequest.swift
            build_harness "$name" "$source"
            dir=.build/fuzz-$name
            [ "$name" = config ] && cp tools/config.example.json "$dir/corpus/example" 2>/dev/null || true
            command=(bash -c "cd $dir && exec ./fuzz-$name -max_len=16384 -timeout=10 -print_final_stats=1 ${limit[*]} corpus") ;;
    esac
    log=.build/fuzz-$name.log
    status=0
    "${command[@]}" > "$log" 2>&1 || status=$?
    inputs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    crashes=$(grep -c "^==[0-9]*== ERROR: libFuzzer: deadly signal\|^==[0-9]*==ERROR\|Fatal error\|SUMMARY: libFuzzer: deadly" "$log" || true)
    hangs=$(grep -c "ERROR: libFuzzer: timeout" "$log" || true)
    printf '%-8s %12s %10s %8s %6s\n' "$name" "${inputs:-?}" "${rate:-?}" "$crashes" "$hangs"
    if [ $status -ne 0 ] || [ "$crashes" != 0 ] || [ "$hangs" != 0 ]; then
        failed=1
        echo "  $name failed (exit $status); the log: $log; the input: $(ls -t $dir/crash-* $dir/timeout-* 2>/dev/null | head -1)"
        grep -m3 "Fatal error\|ERROR" "$log" | sed 's/^/    /'
    fi
done
exit $failed
