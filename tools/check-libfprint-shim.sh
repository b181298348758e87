#!/usr/bin/env bash
# Compiles the function declarations of Sources/CLibfprint/shim.h (which fpmod uses instead of
# <fprint.h>, see its header comment) right after the real <fprint.h>: a declaration that does
# not match libfprint's or GLib's own is a "conflicting types" error. Run after a libfprint or
# GLib upgrade; needs libfprint-2-dev, libglib2.0-dev and a C compiler.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
shim="$here/Sources/CLibfprint/shim.h"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
{
  echo '#include <stdint.h>'
  echo '#include <fprint.h>'
  echo '#undef g_object_ref  /* GLib makes it a type-preserving macro */'
  # Only the functions: the shim's typedefs stand in for GLib's and would clash by design.
  sed -n '/^\/\/ GLib$/,$p' "$shim"
  echo '_Static_assert(FPMOD_G_LOG_LEVEL_DEBUG == G_LOG_LEVEL_DEBUG, "log level");'
  echo '_Static_assert(FPMOD_FP_DEVICE_ERROR_TOO_HOT == FP_DEVICE_ERROR_TOO_HOT, "too hot");'
} >"$work/check.c"
# shellcheck disable=SC2046
cc -fsyntax-only -Werror $(pkg-config --cflags libfprint-2) "$work/check.c"
echo "fpmod: Sources/CLibfprint/shim.h matches the installed libfprint and GLib headers"
