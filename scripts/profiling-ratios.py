#!/usr/bin/env python3
"""Issue 29's profiling ratios: a program run plain and under each example ACF, as fresh processes
taking turns, and each ACF's wall and CPU time over the plain run's, beside its target.

Every round runs each command once, plain first, the ACFs in an order that turns by one each
round (so that none is always the furthest from its plain run), so that a slow minute on a shared
machine falls on all of them alike; a ratio is the median over the rounds of that round's run over
the same round's plain run (same jar), which moves far less than a ratio of two means. CPU is
user+system of the whole process (os.wait4). With several --jar, each jar gets its own plain run and
ratios, interleaved in the same rounds (a before/after comparison in the same minutes).

Wrap it in `buildslot` on the shared machine. Prints a Markdown table (docs/benchmarks.md).

Usage: scripts/profiling-ratios.py [--jar JAR]... [--size N] [--rounds N] [--warmup N]
                                   [--program PATH] [--acf NAME]... [--archive PATH|none]
Example (mcf at a size running about 10 s plain, 5 rounds):
  buildslot scripts/profiling-ratios.py --size 8 --rounds 5
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

# The targets of issue 29 (the ratio to a plain run, wall and CPU).
TARGETS = {
    "flag_off_regions": 1.03,
    "hot_call_pairs": 1.10,
    "hot_code_regions": 1.3,
    "hot_methods": 1.3,
    "load_strides": 3.0,
}

# The launcher's JVM options, as ./acf gives them (ACF_LAUNCHER=java-options): the same JIT,
# collector and huge pages as a user's run, without the launcher's own cost (the shell script);
# its class-data archive is added below (--archive).
LAUNCHER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "acf")
JAVA = ["java"] + subprocess.run(
    [LAUNCHER],
    env=dict(os.environ, ACF_LAUNCHER="java-options"),
    stdout=subprocess.PIPE, check=True, text=True).stdout.split()

# This build's jar, and the class-data archive ./acf makes for it (JDK 17; a user's every run maps
# it, and an ACF's run loads about 400 classes more than a plain one, so without it the ratios
# would charge an ACF the class loading that users do not pay).
JAR = "repl/target/acf.jar"
ARCHIVE = "repl/target/acf.jsa"


def run(cmd):
    """Runs cmd with its output discarded; returns (wall seconds, CPU seconds of the process)."""
    start = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.monotonic() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("failed (%s): %s" % (status, " ".join(cmd)))
    return wall, usage.ru_utime + usage.ru_stime


def archive_options(jar, archive):
    """The class-data archive options for runs of jar: --archive for this build's jar; for a jar
    at another tree's repl/target/acf.jar (a build of another commit), that tree's own archive,
    which its ./acf refreshes, as a user of that build would have it; none with --archive none."""
    if archive == "none":
        return []
    if os.path.abspath(jar) != os.path.abspath(JAR):
        if archive != ARCHIVE or not jar.endswith(os.path.join("repl", "target", "acf.jar")):
            return []  # an archive names the jar it was made from; no other jar may map it
        tree = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(jar))))
        launcher, archive = os.path.join(tree, "acf"), os.path.join(tree, ARCHIVE)
    else:
        launcher = LAUNCHER
    if archive.endswith(ARCHIVE) and os.path.isfile(launcher):
        # ./acf makes the archive again when the jar is newer (once per build).
        subprocess.run([launcher, "--version"], stdout=subprocess.DEVNULL, check=True)
    if not os.path.isfile(archive):
        sys.exit("no class-data archive at %s: run ./acf once to make it, or pass --archive none"
                 % archive)
    # As ./acf maps it: at the address it was made for (ArchiveRelocationMode=0).
    return ["-XX:SharedArchiveFile=" + archive, "-Xlog:cds=off",
            "-XX:+UnlockDiagnosticVMOptions", "-XX:ArchiveRelocationMode=0"]


def rotated(commands, r):
    """Round r's order: per jar its plain run first, then its ACFs turned by r places."""
    order = []
    for jar in dict.fromkeys(c[0] for c in commands):
        own = [c for c in commands if c[0] == jar]
        acfs = own[1:]
        k = r % len(acfs) if acfs else 0
        order += own[:1] + acfs[k:] + acfs[:k]
    return order


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jar", action="append", help="acf jar (repeat to compare; default: this build's)")
    ap.add_argument("--size", default="8", help="the program's argument (mcf: 5 runs ~3 s, 8 ~10 s)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--warmup", type=int, default=1, help="rounds run first and not counted")
    ap.add_argument("--program", default="examples/programs/bin/mcf")
    ap.add_argument("--acf", action="append", help="example ACF name (default: the five of issue 29)")
    ap.add_argument("--archive", default=ARCHIVE,
                    help="class-data archive mapped by the runs of this build's jar, as ./acf maps"
                    " it (default: %s, which ./acf makes once per build; 'none': no archive)"
                    % ARCHIVE)
    a = ap.parse_args()
    jars = a.jar or [JAR]
    acfs = a.acf or list(TARGETS)
    commands = []  # (jar, acf or None, argv)
    for jar in jars:
        java = JAVA + archive_options(jar, a.archive) + ["-jar"]
        commands.append((jar, None, java + [jar, "run", a.program, a.size]))
        for acf in acfs:
            path = "examples/acf/%s.acf" % acf
            commands.append((jar, acf, java + [jar, "run", "--acf", path, a.program, a.size]))
    times = {(j, x): [] for j, x, _ in commands}
    load = [os.getloadavg()[0]]
    for r in range(a.warmup + a.rounds):
        for jar, acf, cmd in rotated(commands, r):
            t = run(cmd)
            if r >= a.warmup:
                times[(jar, acf)].append(t)
        load.append(os.getloadavg()[0])
    print("%s %s, %d rounds (+%d warm-up), load average %.1f-%.1f, %s, class-data archive: %s"
          % (a.program, a.size, a.rounds, a.warmup, min(load), max(load),
             time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), a.archive))
    print()
    print("| jar | run | wall s (median) | CPU s (median) | wall / plain | CPU / plain"
          " | wall / plain, rounds | target |")
    print("|---|---|---|---|---|---|---|---|")
    for jar in jars:
        plain = times[(jar, None)]
        for _, acf, _ in [c for c in commands if c[0] == jar]:
            t = times[(jar, acf)]
            wall = statistics.median(w for w, _ in t)
            cpu = statistics.median(c for _, c in t)
            if acf is None:
                print("| %s | plain | %.3f | %.3f | | | | |" % (jar, wall, cpu))
                continue
            walls = [t[i][0] / plain[i][0] for i in range(len(t))]
            rw = statistics.median(walls)
            rc = statistics.median(t[i][1] / plain[i][1] for i in range(len(t)))
            target = TARGETS.get(acf)
            # A median over the target whose rounds reach below it is at the limit on this
            # machine: the rounds say no more than that (the VM's speed moves a round's ratio by a
            # few %). A median at or under the target is met, whatever single rounds gave.
            verdict = "" if target is None else "%.2fx %s" % (
                target, "at the limit" if min(walls) <= target < max(walls) and max(rw, rc) > target
                else "met" if max(rw, rc) <= target else "**missed**")
            print("| %s | `%s` | %.3f | %.3f | %.2fx | %.2fx | %.2f-%.2fx | %s |"
                  % (jar, acf, wall, cpu, rw, rc, min(walls), max(walls), verdict))


if __name__ == "__main__":
    main()
