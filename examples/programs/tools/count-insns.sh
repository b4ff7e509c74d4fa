#!/usr/bin/env bash
# Usage: tools/count-insns.sh [-t TOP] PROGRAM [ARGS...]
# Counts the RISC-V instructions PROGRAM executes, using qemu-riscv64's block
# trace (slow: ~20-50x slower than a plain qemu run).  Until `./acf run --stats`
# exists this is how the README's instruction counts were measured.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
top=0
if [ "${1:-}" = "-t" ]; then top="$2"; shift 2; fi
tool="${TMPDIR:-/tmp}/tbcount.$(id -u)"
if [ ! -x "$tool" ] || [ "$here/tbcount.c" -nt "$tool" ]; then
  cc -O2 -o "$tool" "$here/tbcount.c"
fi
qemu-riscv64 -d in_asm,exec,nochain "$@" 2>&1 >/dev/null | "$tool" "$top"
