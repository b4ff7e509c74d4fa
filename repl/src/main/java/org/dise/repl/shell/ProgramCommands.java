package org.dise.repl.shell;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dise.repl.common.RunService;
import org.dise.runtime.Machine;

/**
 * The REPL's program-and-run commands, one group of the session's commands: {@code :program},
 * {@code :env}, {@code :stdin}, {@code :allow}, {@code :limit} (how the guest starts, through the
 * same {@link org.dise.repl.common.GuestSettings} and {@link RunService} as {@code acf run}),
 * {@code :run}, {@code :continue}, {@code :step}, {@code :until} and {@code :apply}.
 */
final class ProgramCommands extends CommandGroup {

  /** Whether :env changed the environment (else it is the default, the same on every host). */
  private boolean envSet;

  ProgramCommands(Debuggee program, StringBuilder out) {
    super(program, out);
  }

  @Override
  void register(CommandTable t) {
    t.add("program", this::load);
    t.add("env", this::env);
    t.add("stdin", this::stdin);
    t.add("allow", this::allow);
    t.add("limit", this::limit);
    t.addNoArgs("run", this::run);
    t.addNoArgs("apply", program::apply);
    t.addNoArgs("continue", () -> program.resume(Long.MAX_VALUE, -1));
    t.add("step", this::step);
    t.add("until", this::until);
  }

  private void run() {
    program.restart();
    program.resume(Long.MAX_VALUE, -1);
  }

  private void step(List<String> a) {
    if (a.size() > 1) {
      throw new ReplError("usage: :step [N]");
    }
    long n = a.isEmpty() ? 1 : Args.number(a.get(0));
    if (n <= 0) {
      throw new ReplError(":step needs a positive count");
    }
    program.resume(n, -1);
  }

  private void until(List<String> a) {
    if (a.size() != 1) {
      throw new ReplError("usage: :until SYMBOL|ADDR");
    }
    program.requireProgram();
    program.resume(Long.MAX_VALUE, program.address(a.get(0)));
  }

  void load(List<String> args) {
    if (args.isEmpty()) {
      throw new ReplError("usage: :program PATH [ARGS...]");
    }
    program.load(args.get(0), args.subList(1, args.size()));
    Machine m = program.machine();
    out.append(
        String.format(
            "loaded %s: entry 0x%x in %s, %d functions%n",
            args.get(0), m.cpu().pc, m.symbols().describe(m.cpu().pc), m.symbols().size()));
  }

  void env(List<String> args) {
    if (args.isEmpty()) {
      List<String> env = program.guest.env();
      if (env.isEmpty()) {
        out.append(
            envSet
                ? "empty environment\n"
                : "empty environment (the default, the same on every host)\n");
      }
      env.forEach(v -> out.append(v).append('\n'));
      return;
    }
    List<String> before = program.guest.env();
    try {
      for (String a : args) {
        if (a.equals("clear")) {
          program.guest.env(List.of());
        } else if (a.equals("host")) {
          program.guest.env(Machine.hostEnv());
        } else {
          program.guest.set(a, ":env");
        }
      }
    } catch (RuntimeException e) {
      program.guest.env(before); // all or nothing
      throw e;
    }
    envSet = true;
    out.append(
        String.format(
            "guest environment: %d variable%s (from the next :program or" + " :run)%n",
            program.guest.env().size(), program.guest.env().size() == 1 ? "" : "s"));
  }

  void stdin(List<String> args) {
    if (args.size() > 1) {
      throw new ReplError("usage: :stdin [FILE | none]");
    }
    if (args.isEmpty()) {
      out.append(
          program.stdinShown == null ? "stdin: empty\n" : "stdin: " + program.stdinShown + "\n");
      return;
    }
    if (args.get(0).equals("none")) {
      program.stdinShown = null;
      out.append("stdin: empty\n");
      return;
    }
    RunService.checkStdin(program.path(args.get(0)), args.get(0));
    program.stdinShown = args.get(0);
    out.append("stdin: ").append(program.stdinShown).append(" (from the next :program or :run)\n");
  }

  void allow(List<String> args) {
    if (args.isEmpty()) {
      if (program.guest.readable().isEmpty() && program.guest.writable().isEmpty()) {
        out.append("the guest may read and write the working folder only\n");
      }
      program.guest.readable().forEach(d -> out.append("read  ").append(d).append('\n'));
      program.guest.writable().forEach(d -> out.append("write ").append(d).append('\n'));
      return;
    }
    if (args.size() != 2 || !(args.get(0).equals("read") || args.get(0).equals("write"))) {
      throw new ReplError("usage: :allow [read|write DIR]");
    }
    Path dir = program.path(args.get(1));
    if (!java.nio.file.Files.isDirectory(dir)) {
      throw new ReplError(
          args.get(1)
              + ": "
              + (java.nio.file.Files.exists(dir)
                  ? "not a directory"
                  : "no such file or directory"));
    }
    if (args.get(0).equals("read")) {
      program.guest.allowRead(dir);
    } else {
      program.guest.allowWrite(dir);
    }
    out.append("the guest may ")
        .append(args.get(0).equals("read") ? "read" : "read and write")
        .append(" files under ")
        .append(args.get(1))
        .append(" (from the next :program or" + " :run)\n");
  }

  void limit(List<String> args) {
    if (args.isEmpty()) {
      List<String> limits = new ArrayList<>(program.guest.limits());
      out.append(
          limits.isEmpty()
              ? "no limits set (nofile=1024, as: 2G or half the JVM heap)\n"
              : String.join("\n", limits) + "\n");
      return;
    }
    if (args.size() != 1) {
      throw new ReplError("usage: :limit [NAME=VALUE]");
    }
    program.guest.limit(args.get(0), ":limit");
    out.append("limit ").append(args.get(0)).append(" (from the next :program or :run)\n");
  }
}
