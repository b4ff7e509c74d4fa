#!/usr/bin/env bash
# Usage: tools/count-insns.sh [-t TOP] PROGRAM [ARGS...]
# Counts the RISC-V instructions PROGRAM executes under qemu-riscv64.
#   default: a tiny TCG plugin (insncount.c) adds each translated block's
#            instruction count inline; about as fast as a plain qemu run.
#   -t TOP:  block-trace mode (tbcount.c over "-d in_asm,exec,nochain"), slow
#            (~1-2 minutes per 100M instructions) but also prints the TOP
#            functions by executed instructions.
# Until `./acf run --stats` exists, this is how the README's counts were made.
# The program's stdout is discarded; the count is printed on stdout.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
top=0
if [ "${1:-}" = "-t" ]; then top="$2"; shift 2; fi
dir="${TMPDIR:-/tmp}"
if [ "$top" = 0 ]; then
  lib="$dir/libinsncount.$(id -u).so"
  if [ ! -f "$lib" ] || [ "$here/insncount.c" -nt "$lib" ]; then
    cc -shared -fPIC -O2 -o "$lib" "$here/insncount.c"
  fi
  qemu-riscv64 -plugin "$lib" "$@" 2>&1 >/dev/null | sed -n 's/^insncount: //p'
else
  tool="$dir/tbcount.$(id -u)"
  if [ ! -x "$tool" ] || [ "$here/tbcount.c" -nt "$tool" ]; then
    cc -O2 -o "$tool" "$here/tbcount.c"
  fi
  qemu-riscv64 -d in_asm,exec,nochain "$@" 2>&1 >/dev/null | "$tool" "$top"
fi
