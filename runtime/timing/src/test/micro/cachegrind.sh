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
echo "| kernel | args | cachegrind D1 misses | model L1 D misses | difference | cachegrind LL data misses | model L2 misses |"
echo "|---|---|---|---|---|---|---|"
while read -r prog args; do
  out=$(valgrind --tool=cachegrind --cache-sim=yes --I1=32768,2,64 --D1=32768,2,32 \
    --LL=1048576,4,64 --cachegrind-out-file=/dev/null "$here/host/$prog" $args 2>&1 || true)
  d1=$(echo "$out" | awk '/D1  misses:/ {gsub(",","",$4); print $4}')
  lld=$(echo "$out" | awk '/LLd misses:/ {gsub(",","",$4); print $4}')
  model=$(./acf run --timing ooo --timing-config "$cfg" "$here/../resources/micro/$prog.elf" $args 2>&1 || true)
  l1=$(echo "$model" | sed -n 's/.*misses, application alone L1I [0-9,]*, L1D \([0-9,]*\) of.*/\1/p' | tr -d ,)
  l2=$(echo "$model" | sed -n 's/.*misses, application alone .*, L2 \([0-9,]*\);.*/\1/p' | tr -d ,)
  diff=$(awk -v a="$d1" -v b="$l1" 'BEGIN { printf "%+.1f%%", 100 * (b - a) / a }')
  echo "| $prog | $args | $d1 | $l1 | $diff | $lld | $l2 |"
done <<'LIST'
stride 16K 64
stride 64K 32
stride 256K 16
stride 4M 4
chase 8K 200000
chase 256K 200000
chase 16M 200000
LIST
