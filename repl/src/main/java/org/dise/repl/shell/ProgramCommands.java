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
final class ProgramCommands {
  private final Debuggee program;
  private final StringBuilder out;

  /** Whether :env changed the environment (else it is the default, the same on every host). */
  private boolean envSet;

  ProgramCommands(Debuggee program, StringBuilder out) {
    this.program = program;
    this.out = out;
  }

  void register(CommandTable t) {
    t.add(
        "program",
        "PATH [ARGS...]",
        "load a RISC-V program with arguments",
        "Load a RISC-V"
            + " program with its arguments (it starts at its entry point; the guest's stdin is"
            + " empty unless :stdin names a file).",
        List.of(
            ":program examples/programs/bin/hello a b", ":program examples/programs/bin/chess 2"),
        this::load);
    t.add(
        "env",
        "[clear | host | NAME=VALUE...]",
        "the guest's environment",
        "Without"
            + " arguments, show the guest's environment; 'clear' empties it, 'host' replaces it by"
            + " the host's, NAME=VALUE adds to it. It starts empty, the same on every host, as for"
            + " acf run. Takes effect at the next :program or :run.",
        List.of(":env", ":env clear", ":env host", ":env LANG=C HOME=/tmp"),
        this::env);
    t.add(
        "stdin",
        "[FILE | none]",
        "the file the guest reads as stdin",
        "Without arguments,"
            + " show what the guest reads as standard input; FILE makes it read that file (from its"
            + " start at every :program and :run), 'none' gives it an empty stdin (the default).",
        List.of(":stdin input.txt", ":stdin none"),
        this::stdin);
    t.add(
        "allow",
        "[read|write DIR]",
        "let the guest read or write a folder",
        "Confinement,"
            + " as acf run --allow-read and --allow-write: the guest may read and write the"
            + " working folder only; 'read DIR' lets it read files under DIR too, 'write DIR' read"
            + " and write them. Without arguments, list the folders allowed. Takes effect at the"
            + " next :program or :run.",
        List.of(":allow read /usr/share/dict", ":allow write /tmp/out", ":allow"),
        this::allow);
    t.add(
        "limit",
        "[NAME=VALUE]",
        "a guest resource limit",
        "As acf run --limit: nofile=N"
            + " open descriptors, as=SIZE bytes of address space (K, M, G); the guest gets"
            + " EMFILE/ENOMEM at the limit. Without arguments, list the limits set. Takes effect at"
            + " the next :program or :run.",
        List.of(":limit nofile=16", ":limit as=64M", ":limit"),
        this::limit);
    t.add(
        "run",
        "",
        "run the program from its start",
        "Start the program from the beginning"
            + " under the current productions and run it until it exits, faults, reaches a"
            + " breakpoint or Ctrl-C.",
        List.of(":run"),
        a -> {
          Args.none(a, "run");
          program.restart();
          program.resume(Long.MAX_VALUE, -1);
        });
    t.add(
        "apply",
        "",
        "install the changed productions into the paused program",
        "Hot"
            + " reload: install the session's current productions into the paused program, which"
            + " :continue runs on under them. Counters keep their values by index unless their"
            + " declaration changed; a sink keeps its profile when it is bound as before; what was"
            + " reset is listed. Every instruction is decoded again, so the new patterns apply from"
            + " the next instruction. Under a trigger, the trigger keeps its intervals and"
            + " decisions and injects the interval's codeword again (spec/engine.md).",
        List.of(":apply", ":reload   (then :apply)"),
        a -> {
          Args.none(a, "apply");
          program.apply();
        });
    t.add(
        "continue",
        "",
        "continue from where it stopped",
        "Continue the program from where it" + " stopped.",
        List.of(":continue"),
        a -> {
          Args.none(a, "continue");
          program.resume(Long.MAX_VALUE, -1);
        });
    t.add(
        "step",
        "[N]",
        "execute N instructions (default 1)",
        "Execute N application" + " instructions (default 1), then show where the program is.",
        List.of(":step", ":step 1000"),
        a -> {
          if (a.size() > 1) {
            throw new ReplError("usage: :step [N]");
          }
          long n = a.isEmpty() ? 1 : Args.number(a.get(0));
          if (n <= 0) {
            throw new ReplError(":step needs a positive count");
          }
          program.resume(n, -1);
        });
    t.add(
        "until",
        "SYMBOL|ADDR",
        "continue until a function or address",
        "Continue until the" + " program reaches a function or address.",
        List.of(":until main", ":until 0x10430"),
        a -> {
          if (a.size() != 1) {
            throw new ReplError("usage: :until SYMBOL|ADDR");
          }
          program.requireProgram();
          program.resume(Long.MAX_VALUE, program.address(a.get(0)));
        });
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
