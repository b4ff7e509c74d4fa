#!/bin/bash
# The cache model against Valgrind's cachegrind (docs/timing-validation.md): the same C kernels,
# built for the host and run under cachegrind with the ooo model's geometry, and built for
# RISC-V and run under `acf run --timing ooo`; prints a Markdown table of data-cache misses.
# Run from the repository root after a build: runtime/timing/src/test/micro/cachegrind.sh
set -euo pipefail
here=runtime/timing/src/test/micro
make -s -C "$here" host all >/dev/null
cfg=$(mktemp)
trap 'rm -f "$cfg"' EXIT
# The ooo defaults, said explicitly so that the two sides cannot drift apart.
printf 'l1i.size = 32768\nl1i.ways = 2\nl1i.line = 64\nl1d.size = 32768\nl1d.ways = 2\nl1d.line = 32\nl2.size = 1048576\nl2.ways = 4\nl2.line = 64\nl1d.write_allocate = true\n' >"$cfg"
# Each kernel also runs with 0 repetitions: the host's start-up (dynamic loader, libc) misses
# a few thousand lines that the freestanding RISC-V build does not have, so the comparison that
# matters is of the misses the kernel adds beyond that run.
cg() { # program size reps D1|LLd
  # The kernels exit with their checksum's low bits: not an error.
  { valgrind --tool=cachegrind --cache-sim=yes --I1=32768,2,64 --D1=32768,2,32 \
    --LL=1048576,4,64 --cachegrind-out-file=/dev/null "$here/host/$1" "$2" "$3" 2>&1 || true; } |
    awk -v k="$4" '$2 == k && $3 == "misses:" {gsub(",", "", $4); print $4}'
}
model() { # program size reps 1 (L1 D) | 2 (L2)
  { ./acf run --timing ooo --timing-config "$cfg" "$here/../resources/micro/$1.elf" "$2" "$3" \
    2>&1 || true; } |
    sed -n "s/.*misses, application alone L1I [0-9,]*, L1D \([0-9,]*\) of [0-9,]* accesses, L2 \([0-9,]*\);.*/\\$4/p" |
    tr -d ,
}
echo "| kernel | args | cachegrind D1 misses | model L1 D misses | beyond start-up: cachegrind / model | difference | cachegrind LLd / model L2 misses |"
echo "|---|---|---|---|---|---|---|"
while read -r prog size reps; do
  d1=$(cg "$prog" "$size" "$reps" D1)
  d10=$(cg "$prog" "$size" 0 D1)
  lld=$(cg "$prog" "$size" "$reps" LLd)
  l1=$(model "$prog" "$size" "$reps" 1)
  l10=$(model "$prog" "$size" 0 1)
  l2=$(model "$prog" "$size" "$reps" 2)
  diff=$(awk -v a="$((d1 - d10))" -v b="$((l1 - l10))" \
    'BEGIN { if (a == 0) print (b == 0 ? "0 / 0" : "n/a"); else printf "%+.1f%%", 100 * (b - a) / a }')
  echo "| $prog | $size $reps | $d1 | $l1 | $((d1 - d10)) / $((l1 - l10)) | $diff | $lld / $l2 |"
done <<'LIST'
stride 16K 64
stride 64K 32
stride 256K 16
stride 4M 4
chase 8K 200000
chase 256K 200000
chase 16M 200000
LIST
