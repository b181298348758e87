#!/usr/bin/env bash
# Fuzzes the driver with libFuzzer (shipped with the Swift toolchain): the input is what a
# hostile module sends back, played through FingerprintModule over an in-memory line with
# virtual time (tools/fuzz/FuzzModule.swift says what each input drives and checks).
#   tools/fuzz-module.sh                       # 60 s
#   tools/fuzz-module.sh -max_total_time=20    # the CI campaign
#   tools/fuzz-module.sh -runs=10000000
# Extra arguments go to libFuzzer. Crashes are written to .build/fuzz-module/crash-*;
# replay one with .build/fuzz-module/fuzz-module .build/fuzz-module/crash-…
# The libraries are built here with swiftc as separate modules (one object each, rebuilt only
# when their sources change), because SwiftPM executables cannot link libFuzzer's own main.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
# FUZZ_SANITIZERS=fuzzer builds without AddressSanitizer (about three times the exec/s, for long
# campaigns; the Swift code checks bounds itself). Each choice has its own build directory.
sanitizers=${FUZZ_SANITIZERS:-fuzzer,address}
out=.build/fuzz-module
[ "$sanitizers" = fuzzer,address ] || out=.build/fuzz-module-${sanitizers//,/-}
# Swift's backtracer and libFuzzer's crash handler fight over a crash (the backtracer is left
# hanging); ASan's allocation stacks cost half the speed (replay a crash with
# ASAN_OPTIONS= to get them).
export ASAN_OPTIONS="${ASAN_OPTIONS:-malloc_context_size=0}" SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"
mkdir -p "$out/modules" "$out/objects" "$out/cshims" "$out/corpus"
flags=(-sanitize="$sanitizers" -parse-as-library -O -wmo -swift-version 6 -I "$out/modules" -I "$out/cshims"
       -I Sources/CSQLite -I Sources/CSodium)

# CShims: the C shims with a module map of their own (SwiftPM generates one; swiftc needs it written).
# Once a module is rebuilt, every module after it is rebuilt too (they are in dependency order).
stale=false
if [ ! -f "$out/objects/CShims.a" ] || [ -n "$(find Sources/CShims -newer "$out/objects/CShims.a")" ]; then
    printf 'module CShims {\n    header "%s/Sources/CShims/include/CShims.h"\n    export *\n}\n' "$root" \
        > "$out/cshims/module.modulemap"
    rm -f "$out"/objects/cshims-*.o "$out/objects/CShims.a"
    for source in Sources/CShims/*.c; do
        clang -O2 -fPIC -ISources/CShims/include -c "$source" -o "$out/objects/cshims-$(basename "$source" .c).o"
    done
    ar rcs "$out/objects/CShims.a" "$out"/objects/cshims-*.o
    stale=true
fi

# The Swift libraries, in dependency order, one object each (a module's sources may sit in
# folders below it: AccessPolicy/Calendar).
for module in PrintableText Posix Transport FingerprintProtocol SerialPort FingerprintModule AccessPolicy TemplateStore Administration; do
    object="$out/objects/$module.o"
    if $stale || [ ! -f "$object" ] || [ -n "$(find "Sources/$module" -newer "$object")" ]; then
        testing=()
        [ "$module" = Administration ] && testing=(-enable-testing)
        swiftc "${flags[@]}" "${testing[@]}" -module-name "$module" -emit-module \
            -emit-module-path "$out/modules/$module.swiftmodule" -c $(find "Sources/$module" -name '*.swift' | sort) -o "$object"
        stale=true
    fi
done
# lld where the toolchain has it: gold warns about every ASan helper symbol it cannot export.
linker=()
command -v ld.lld > /dev/null && linker=(-use-ld=lld)
swiftc "${flags[@]}" "${linker[@]}" -module-name FuzzModule tools/fuzz/FuzzModule.swift \
    "$out"/objects/{PrintableText,Posix,Transport,FingerprintProtocol,SerialPort,FingerprintModule,AccessPolicy,TemplateStore,Administration}.o \
    "$out/objects/CShims.a" -lsqlite3 -lsodium -o "$out/fuzz-module"

# Seed the corpus with whole healthy sessions (every family, hit, miss and tamper slot, with
# and without a password), so the fuzzer starts from replies with valid structure.
FPMOD_FUZZ_WRITE_SEEDS="$out/corpus" "$out/fuzz-module" > /dev/null
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(-max_total_time=60)
cd "$out"
exec ./fuzz-module -max_len=8192 -timeout=10 "${args[@]}" corpus
