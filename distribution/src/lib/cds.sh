# Class-data sharing for the distribution's launchers (sourced by bin/acf and bin/acf-runtime), as
# ./acf in the repository does it (spec/emulator.md, "How the ./acf launcher starts the JVM"): a
# static archive of the classes a run loads, listed by quiet training runs on the bundled examples
# on first use, and mapped by every later run instead of parsing and verifying those classes again.
# It is kept in lib/, or under ${XDG_CACHE_HOME:-~/.cache}/acf/ when lib/ is not writable, and
# remade when a jar is newer. ACF_CDS=off disables it; an archive the JVM cannot use is ignored.
#
# acf_cds NAME TRAIN: sets cds_opts; TRAIN is a function that runs the launcher's training runs
# given the JVM options to add, once per list file ($1: -XX:DumpLoadedClassList=FILE). The caller
# sets java, home, prog and cp_opts (the class path options, the same for the dump and every run).
acf_cds() {
  local name="$1" train="$2" dir cds tmp j stale=0
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
  [ -f "$cds" ] || stale=1
  for j in "$home"/lib/*.jar "$home"/lib/runtime/*.jar; do
    if [ "$j" -nt "$cds" ]; then stale=1; fi
  done
  if [ "$stale" = 1 ]; then
    echo "$prog: creating the class-data archive (once per installation) ..." >&2
    tmp="$cds.$$.tmp"
    "$train" "$tmp" >/dev/null 2>&1 </dev/null || true
    # picocli and ASM are Java 5 class files: JDK 17 archives them only if they are not linked at
    # dump time, which a lambda implementing one of their interfaces would do.
    cat "$tmp".list.* 2>/dev/null | awk '!seen[$0]++' \
        | grep -v '^@lambda-proxy.*\(picocli\|objectweb\)' >"$tmp.list" || true
    "$java" -Xshare:dump -XX:SharedClassListFile="$tmp.list" -XX:SharedArchiveFile="$tmp" \
        -Xlog:cds=off "${cp_opts[@]}" >/dev/null 2>&1 </dev/null || true
    if [ -s "$tmp" ]; then mv -f "$tmp" "$cds"; else rm -f "$tmp"; fi
    rm -f "$tmp".list*
  fi
  if [ -f "$cds" ]; then
    cds_opts=(-XX:SharedArchiveFile="$cds" -Xlog:cds=off -Xlog:cds+dynamic=off)
  fi
}

# The JVM options both launchers use unless ACF_JAVA_OPTS replaces them (see ./acf): C1 alone, and
# transparent huge pages for the heap where the kernel gives them on request.
acf_java_opts() {
  local thp=""
  java_opts="-Xss16m -XX:+UseParallelGC -XX:TieredStopAtLevel=1"
  read -r thp </sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || true
  if [[ "$thp" == *"[madvise]"* ]]; then
    java_opts="$java_opts -XX:+UseTransparentHugePages"
  fi
}
