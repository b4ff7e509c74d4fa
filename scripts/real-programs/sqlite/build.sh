#!/usr/bin/env bash
# Fetches the SQLite amalgamation as the npm registry serves it (inside the better-sqlite3
# package: nothing fetched is committed) and builds sqlbench.c against it as a static RISC-V
# program. Used by the real-program tests and `acf bench --cold --set long`.
#
# usage: build.sh OUTDIR        -> OUTDIR/sqlbench (reused when already built)
# exit status: 0 built; 3 the sources or the cross compiler cannot be had here (callers skip,
# printing the reason from stderr); anything else a real failure.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:?usage: build.sh OUTDIR}"
# The package version is pinned: the checksums recorded in tests depend on SQLite's version.
pkg="better-sqlite3@12.11.1"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
if [ -x "$out/sqlbench" ] && [ "$out/sqlbench" -nt "$here/sqlbench.c" ]; then
  exit 0
fi
command -v riscv64-linux-gnu-gcc >/dev/null || { echo "riscv64-linux-gnu-gcc not found" >&2; exit 3; }
if [ ! -f "$out/src/sqlite3.c" ]; then
  command -v npm >/dev/null || { echo "npm not found (it fetches $pkg)" >&2; exit 3; }
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  if ! (cd "$tmp" && timeout 300 npm pack --silent "$pkg" >/dev/null 2>"$tmp/npm.log"); then
    echo "npm pack $pkg failed: $(tail -1 "$tmp/npm.log")" >&2
    exit 3
  fi
  mkdir -p "$out/src"
  tar -xzf "$tmp"/better-sqlite3-*.tgz -C "$tmp" package/deps/sqlite3/sqlite3.c package/deps/sqlite3/sqlite3.h
  mv "$tmp/package/deps/sqlite3/sqlite3.c" "$tmp/package/deps/sqlite3/sqlite3.h" "$out/src/"
fi
# One thread, no extension loading: the amalgamation's own compile-time options for that.
riscv64-linux-gnu-gcc -O2 -static -march=rv64gc -mabi=lp64d -g0 \
  -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION -DSQLITE_DEFAULT_MEMSTATUS=0 \
  -I"$out/src" -o "$out/sqlbench.tmp" "$here/sqlbench.c" "$out/src/sqlite3.c" -lm
mv "$out/sqlbench.tmp" "$out/sqlbench"
