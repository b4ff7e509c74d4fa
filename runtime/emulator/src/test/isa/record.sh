#!/usr/bin/env bash
# Re-records the expected output of the ISA test programs from qemu-riscv64.
#
#   ./record.sh               record every ../resources/isa/*.elf
#   ./record.sh int_alu csr   record only the named programs
#
# For each <name>.elf this writes <name>.expected next to it:
#   <stdout>
#   --- stderr
#   <stderr>
#   --- exit N
# N is the exit status; a death by signal S is written as 128+S (shell style).
# Every program is written so that its stdout and stderr end with a newline
# (or are empty), so the marker lines always start a line.
#
# Run conditions (the differential harness must use the same ones):
#   * stdin is /dev/null (syscalls.elf reads stdin and expects EOF),
#   * stdout/stderr are pipes/files, not a tty (syscalls.elf checks TCGETS -> ENOTTY),
#   * the working directory is a fresh, empty, writable directory
#     (syscalls.elf creates and unlinks a file there),
#   * extra arguments come from <name>.args, one argument per line, if that
#     file exists (argv[0] is the ELF path; programs print only its basename),
#   * the environment is reduced to PATH=/usr/bin:/bin.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
res=$(cd "$here/../resources/isa" && pwd)
QEMU=${QEMU:-qemu-riscv64}

names=("$@")
if [ ${#names[@]} -eq 0 ]; then
    for f in "$res"/*.elf; do names+=("$(basename "$f" .elf)"); done
fi

for name in "${names[@]}"; do
    elf="$res/$name.elf"
    [ -f "$elf" ] || { echo "record.sh: no $elf (run make first)" >&2; exit 1; }
    args=()
    if [ -f "$res/$name.args" ]; then
        while IFS= read -r a || [ -n "$a" ]; do args+=("$a"); done < "$res/$name.args"
    fi
    tmp=$(mktemp -d)
    status=0
    (cd "$tmp" && exec env -i PATH=/usr/bin:/bin timeout 60 "$QEMU" "$elf" "${args[@]}" \
        < /dev/null > "$tmp/.stdout" 2> "$tmp/.stderr") || status=$?
    # timeout(1) reports a child killed by signal S as 128+S, same as the shell.
    {
        cat "$tmp/.stdout"
        echo "--- stderr"
        cat "$tmp/.stderr"
        echo "--- exit $status"
    } > "$res/$name.expected"
    rm -rf "$tmp"
    echo "recorded $name: exit $status, $(wc -c < "$res/$name.expected") bytes"
done
