# Class-data sharing for the distribution's launchers (sourced by bin/acf and bin/acf-runtime), as
# ./acf in the repository does it (spec/emulator.md, "How the ./acf launcher starts the JVM"): a
# static archive of the classes a run loads, listed by quiet training runs on the bundled examples
# on first use, and mapped by every later run instead of parsing and verifying those classes again.
# It is kept in lib/, or under ${XDG_CACHE_HOME:-~/.cache}/acf/ when lib/ is not writable, and
# remade when a jar is newer, another java runs it, or the installation has moved. ACF_CDS=off disables it. Runs pass
# -Xlog:cds=off, so an archive the JVM cannot use would be ignored without a word: a new archive is
# tried once with -Xshare:on, and if the JVM refuses it the launcher says why and runs without it
# (NAME.jsa.refused) until a jar or the java changes. Two launchers starting at once on one
# installation (or checkout) make it once: the one that takes the lock NAME.jsa.lock (flock) makes
# it, after checking again that it is still stale; the others start without the archive meanwhile
# instead of making a second one (issue 32: two processes re-created it twice in two minutes).
#
# acf_cds NAME TRAIN CHECK...: sets cds_opts; TRAIN is a function that runs the launcher's training
# runs given the JVM options to add, once per list file ($1: -XX:DumpLoadedClassList=FILE); CHECK
# is what follows cp_opts in a quick run that tries the archive (a --version). The caller sets
# java, home, prog and cp_opts (the class path options, the same for the dump and every run).
acf_cds() {
  local name="$1" train="$2" dir cds tmp why stale=0 lock=
  shift 2
  cds_opts=()
  if [ "${ACF_CDS:-on}" = off ]; then
    return 0
  fi
  dir="$home/lib"
  if [ ! -w "$dir" ]; then
    dir="${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/acf/$(printf %s "$home" | cksum | cut -d' ' -f1)"
    mkdir -p "$dir" 2>/dev/null || return 0
  fi
  cds="$dir/$name.jsa"
  acf_cds_fresh "$cds" || stale=1
  if [ "$stale" = 1 ] && command -v flock >/dev/null 2>&1; then
    if exec {lock}>"$cds.lock"; then
      if ! flock -n "$lock"; then
        # Another launcher is making it: this run starts without it rather than waiting.
        exec {lock}>&-
        return 0
      fi
      # It may have been made while this launcher looked.
      acf_cds_fresh "$cds" && stale=0
    fi
  fi
  if [ "$stale" = 1 ]; then
    rm -f "$cds.refused"
    echo "$prog: creating the class-data archive (once per installation) ..." >&2
    tmp="$cds.$$.tmp"
    "$train" "$tmp" >/dev/null 2>&1 </dev/null || true
    # picocli and ASM are Java 5 class files: JDK 17 archives them only if they are not linked at
    # dump time, which a lambda implementing one of their interfaces would do.
    cat "$tmp".list.* 2>/dev/null | awk '!seen[$0]++' \
        | grep -v '^@lambda-proxy.*\(picocli\|objectweb\)' >"$tmp.list" || true
    "$java" -Xshare:dump -XX:SharedClassListFile="$tmp.list" -XX:SharedArchiveFile="$tmp" \
        -Xlog:cds=off "${cp_opts[@]}" >/dev/null 2>&1 </dev/null || true
    why="the dump made no archive"
    if [ -s "$tmp" ] && ! why="$("$java" -Xshare:on -XX:SharedArchiveFile="$tmp" -Xss16m \
        -XX:+UseSerialGC -XX:TieredStopAtLevel=1 "${cp_opts[@]}" "$@" 2>&1 </dev/null)"; then
      why="$(printf '%s\n' "$why" | grep -A1 'processing the shared archive' | tail -n 1)"
      rm -f "$tmp"
    fi
    if [ -s "$tmp" ]; then
      mv -f "$tmp" "$cds"
    else
      echo "$prog: the JVM refused the class-data archive (${why:-no reason given}); runs" \
          "start without it, about 0.2 s slower (ACF_CDS=off hides this)" >&2
      rm -f "$tmp" "$cds"
      : >"$cds.refused"
    fi
    printf '%s\n%s\n' "$java" "${cp_opts[*]}" >"$cds.java"
    rm -f "$tmp".list*
  fi
  if [ -n "${lock:-}" ]; then exec {lock}>&-; fi
  if [ -f "$cds" ]; then
    cds_opts=(-XX:SharedArchiveFile="$cds" -Xlog:cds=off -Xlog:cds+dynamic=off)
    # Mapped at the address it was made for rather than a random one, as ./acf does (fewer page
    # faults, no pointer patching; the trade is no ASLR for the archive's mapping): ACF_CDS_ASLR=1
    # keeps the random address.
    if [ "${ACF_CDS_ASLR:-0}" != 1 ]; then
      cds_opts+=(-XX:+UnlockDiagnosticVMOptions -XX:ArchiveRelocationMode=0)
    fi
  fi
}

# acf_cds_fresh CDS: true (status 0) when the archive CDS, or its refusal, is newer than every jar
# and was made by this java for this class path. The archive records the jars' paths, and the JVM
# silently ignores it when they differ (an installation moved or copied elsewhere), so another
# class path makes it again.
acf_cds_fresh() {
  local cds="$1" mark="$1" made="" madecp="" j
  if [ -f "$cds.refused" ]; then mark="$cds.refused"; fi
  if [ -f "$cds.java" ]; then { read -r made && read -r madecp; } <"$cds.java" || true; fi
  [ -f "$mark" ] && [ "$made" = "$java" ] && [ "$madecp" = "${cp_opts[*]}" ] \
      && [ ! "$java" -nt "$mark" ] || return 1
  for j in "$home"/lib/*.jar "$home"/lib/runtime/*.jar; do
    if [ "$j" -nt "$mark" ]; then return 1; fi
  done
  return 0
}

# Sets java_opts, the JVM options both launchers use unless ACF_JAVA_OPTS replaces them (see
# ./acf), and java_words, the options a run gets as words. The options: the serial
# collector, C1 alone with one compiler thread, translated units compiled at their first call (a
# CompileCommand on their class name, CompiledBlocks.UNIT_CLASS_NAME; "quiet", since the JVM would
# print it on the guest's stdout), and transparent huge pages for the heap where the kernel gives
# them on request.
acf_java_opts() {
  local thp="" units="org/dise/runtime/cpu/TranslatedUnit*.*"
  java_opts="-Xss16m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:CICompilerCount=1"
  java_opts="$java_opts -XX:CompileCommand=quiet"
  java_opts="$java_opts -XX:CompileCommand=CompileThresholdScaling,$units,0.001"
  read -r thp </sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || true
  if [[ "$thp" == *"[madvise]"* ]]; then
    java_opts="$java_opts -XX:+UseTransparentHugePages"
  fi
  # As words, ACF_JAVA_OPTS in their place: split at spaces, never expanded as file name patterns
  # (the units' CompileCommand holds a `*`).
  set -f
  # shellcheck disable=SC2206 # split on purpose
  java_words=(${ACF_JAVA_OPTS:-$java_opts})
  set +f
}
