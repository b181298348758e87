#!/usr/bin/env bash
# Fuzzes the frame decoder with libFuzzer (shipped with the Swift toolchain).
#   tools/fuzz-decoder.sh            # 60 s
#   tools/fuzz-decoder.sh -runs=200000
# Extra arguments go to libFuzzer. Crashes are written to .build/fuzz/crash-*.
set -euo pipefail
cd "$(dirname "$0")/.."
# FUZZ_SANITIZERS=fuzzer builds without AddressSanitizer (for long campaigns), in its own directory.
sanitizers=${FUZZ_SANITIZERS:-fuzzer,address}
out=.build/fuzz
[ "$sanitizers" = fuzzer,address ] || out=.build/fuzz-${sanitizers//,/-}
mkdir -p "$out/corpus"
swiftc -sanitize="$sanitizers" -parse-as-library -O -module-name FuzzDecoder \
    tools/fuzz/FuzzDecoder.swift Sources/FingerprintProtocol/*.swift -o "$out/fuzz-decoder"
# Seed the corpus with real frames so the fuzzer starts from valid structure.
printf '\xEF\x01\xFF\xFF\xFF\xFF\x07\x00\x07\x00\x00\x01\x00\x60\x00\x6F' > "$out/corpus/search-hit"
printf '\x55\x00\xEF\x01\xFF\xFF\xFF\xFF\x07\x00\x03\x00\x00\x0A' > "$out/corpus/boot-ok"
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(-max_total_time=60)
cd "$out"
exec ./fuzz-decoder "${args[@]}" corpus
