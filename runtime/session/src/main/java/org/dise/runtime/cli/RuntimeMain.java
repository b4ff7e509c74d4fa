package org.dise.runtime.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.dise.runtime.Machine;
import org.dise.runtime.dise.DiseEngine;
import org.dise.runtime.format.Callgrind;
import org.dise.runtime.format.Pprof;
import org.dise.runtime.format.SourceColumns;
import org.dise.runtime.format.StackProfile;
import org.dise.runtime.linux.OnUnsupported;
import org.dise.runtime.linux.Sandbox;
import org.dise.runtime.session.ProfilingSession;
import org.dise.runtime.session.SessionError;
import org.dise.runtime.session.SessionOptions;
import org.dise.runtime.sink.ProfileTable;
import org.dise.runtime.sink.Sink;

/**
 * {@code acf-runtime}: the deployable side alone. It runs a configuration that {@code acf compile}
 * wrote on a program with the interpreted engine, and loads nothing of the compiler, ANTLR,
 * JavaPoet, JLine or picocli: its arguments are parsed here, by hand, since it has five.
 */
public final class RuntimeMain {
  private RuntimeMain() {}

  static final String USAGE =
      String.join(
          "\n",
          "Usage: acf-runtime run --config FILE [--out DIR] [--max-insns N] [--allow-read DIR]...",
          "                       [--allow-write DIR]... [--on-unsupported fail|enosys|warn]",
          "                       [--sysroot DIR] PROGRAM [ARGS...]",
          "       acf-runtime --version | --help",
          "",
          "Runs a RISC-V Linux program under a deployable configuration (acf compile X.acf -o FILE)",
          "with the runtime modules alone. The guest's stdin, stdout and stderr are passed through;",
          "the profiles' top entries and the cost follow on stderr. --out DIR writes each profile as",
          "DIR/NAME.csv, profiles with stacks also as NAME.folded and NAME.pb.gz (pprof), calling",
          "contexts as callgrind.out.NAME, and DIR/summary.json. Exit status: the guest's (128+signal",
          "when it faults; 159, SIGSYS, when it makes a system call acf does not implement, unless",
          "--on-unsupported enosys or warn returns ENOSYS to it), 1 when the program or configuration",
          "cannot be loaded, 2 for a usage error. A dynamically linked program takes its dynamic",
          "linker and libraries from --sysroot DIR (default: $ACF_SYSROOT, else",
          "/usr/riscv64-linux-gnu when it exists).",
          "");

  public static void main(String[] args) {
    System.exit(run(args, System.err));
  }

  static int run(String[] decoded, PrintStream err) {
    // Paths and guest arguments as the bytes typed, whatever the locale.
    String[] args = org.dise.runtime.linux.HostCommandLine.exact(decoded);
    if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
      System.out.print(USAGE);
      return 0;
    }
    if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) {
      System.out.println("acf-runtime " + version());
      return 0;
    }
    if (!org.dise.runtime.cpu.EmulatorProperties.check().report(err, "acf-runtime")) {
      return 2;
    }
    if (args.length == 0 || !args[0].equals("run")) {
      err.print("acf-runtime: expected `run`\n" + USAGE);
      return 2;
    }
    Path config = null;
    Path out = null;
    long maxInsns = -1;
    List<Path> read = new ArrayList<>();
    List<Path> write = new ArrayList<>();
    Path sysroot = null;
    OnUnsupported onUnsupported = OnUnsupported.FAIL;
    int i = 1;
    for (; i < args.length && args[i].startsWith("--"); i++) {
      String opt = args[i];
      if (i + 1 >= args.length) {
        err.print("acf-runtime: " + opt + " needs a value\n" + USAGE);
        return 2;
      }
      String v = args[++i];
      switch (opt) {
        case "--config" -> config = hostPath(v);
        case "--out" -> out = hostPath(v);
        case "--allow-read" -> read.add(hostPath(v));
        case "--allow-write" -> write.add(hostPath(v));
        case "--sysroot" -> sysroot = hostPath(v);
        case "--on-unsupported" -> {
          try {
            onUnsupported = OnUnsupported.parse(v);
          } catch (IllegalArgumentException e) {
            err.println("acf-runtime: " + e.getMessage());
            return 2;
          }
        }
        case "--max-insns" -> {
          try {
            maxInsns = Long.parseLong(v);
          } catch (NumberFormatException e) {
            err.println("acf-runtime: --max-insns " + v + ": not a whole number");
            return 2;
          }
        }
        default -> {
          err.print("acf-runtime: unknown option " + opt + "\n" + USAGE);
          return 2;
        }
      }
    }
    if (config == null || i >= args.length) {
      err.print("acf-runtime: run needs --config FILE and a PROGRAM\n" + USAGE);
      return 2;
    }
    Path program = hostPath(args[i]);
    List<String> guestArgs = List.of(args).subList(i + 1, args.length);
    Sandbox sandbox = new Sandbox(org.dise.runtime.linux.HostNames.workingDirectory());
    read.forEach(sandbox::allowRead);
    write.forEach(sandbox::allowWrite);
    try {
      sandbox.setSysroot(org.dise.runtime.linux.Sysroot.choose(sysroot));
    } catch (IllegalArgumentException e) {
      err.println(
          "acf-runtime: "
              + (sysroot != null ? "--sysroot " : org.dise.runtime.linux.Sysroot.ENV + "=")
              + e.getMessage());
      return 2;
    }
    ProfilingSession.Run run;
    try {
      Machine.Options options =
          new Machine.Options(sandbox, Machine.hostEnv(), 0x5eed, err)
              .withOnUnsupported(onUnsupported);
      // The configuration read, its symbol(NAME) bound to this build of the program as acf run
      // binds it, the program loaded and the engine installed, by the session acf run uses.
      run =
          ProfilingSession.open(
                  new SessionOptions(program, guestArgs, List.of(), config, out, maxInsns, true),
                  options,
                  null,
                  err)
              .start();
    } catch (SessionError e) {
      err.println("acf-runtime: " + e.getMessage());
      return e.status();
    }
    Machine machine = run.machine();
    DiseEngine engine = run.engine();
    Machine.Outcome o = run.run(maxInsns);
    System.out.flush();
    if (o.report() != null) {
      err.println("acf-runtime: " + o.report());
    }
    run.neverBound().forEach(err::println);
    for (Sink s : engine.sinks()) {
      ProfileTable t = SourceColumns.of(s.table(machine.symbols()), machine.symbols());
      err.printf("profile %s: %,d entries%n", s.name(), t.rows().size());
      t.top(10).forEach(l -> err.println("  " + l));
    }
    err.println("cost");
    for (String line : engine.cost().describe().split("\n")) {
      err.println("  " + line);
    }
    if (out != null) {
      try {
        write(engine, machine, out, o.exitStatus());
      } catch (IOException e) {
        err.println("acf-runtime: --out " + out + ": cannot write: " + e.getMessage());
        return 1;
      }
    }
    return o.exitStatus();
  }

  private static void write(DiseEngine engine, Machine machine, Path dir, int exitStatus)
      throws IOException {
    Files.createDirectories(dir);
    for (Sink s : engine.sinks()) {
      ProfileTable t = SourceColumns.of(s.table(machine.symbols()), machine.symbols());
      StringWriter csv = new StringWriter();
      t.writeCsv(csv);
      Files.writeString(dir.resolve(s.name() + ".csv"), csv.toString(), StandardCharsets.UTF_8);
      StackProfile p = StackProfile.of(t).orElse(null);
      if (p != null) {
        Files.writeString(dir.resolve(s.name() + ".folded"), p.folded(0), StandardCharsets.UTF_8);
        Files.write(
            dir.resolve(s.name() + ".pb.gz"),
            Pprof.gzipped(p, "acf " + s.name(), machine.symbols()));
        if (p.types().size() > 1) {
          Files.writeString(
              dir.resolve("callgrind.out." + s.name()),
              Callgrind.write(p, s.name(), machine.symbols()),
              StandardCharsets.UTF_8);
        }
      }
      for (var f : s.files(machine.symbols()).entrySet()) {
        Files.writeString(
            dir.resolve(s.name() + "." + f.getKey()), f.getValue(), StandardCharsets.UTF_8);
      }
    }
    String json = engine.cost().toJson();
    Files.writeString(
        dir.resolve("summary.json"),
        json.substring(0, json.length() - 1) + ", \"exit_status\": " + exitStatus + "}\n",
        StandardCharsets.UTF_8);
  }

  /** The version and commit the build recorded (acf-version.properties), or "unknown". */
  public static String version() {
    try (InputStream in = RuntimeMain.class.getResourceAsStream("/acf-version.properties")) {
      if (in == null) {
        return "unknown";
      }
      Properties p = new Properties();
      p.load(in);
      return p.getProperty("version", "unknown")
          + " (commit "
          + p.getProperty("commit", "unknown")
          + ")";
    } catch (IOException e) {
      return "unknown";
    }
  }

  /** A path argument held as SurrogateEscape text, named on the host byte for byte. */
  private static Path hostPath(String v) {
    try {
      return org.dise.runtime.linux.HostNames.absolute(org.dise.runtime.linux.HostNames.path(v));
    } catch (java.nio.charset.CharacterCodingException e) {
      // The JDK's byte paths are closed to us: the text as the JVM decoded it, as before.
      return Path.of(
          new String(
              org.dise.runtime.linux.SurrogateEscape.encode(v),
              java.nio.charset.Charset.defaultCharset()));
    }
  }
}
