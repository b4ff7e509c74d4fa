package org.dise.repl.shell;

import java.nio.file.Path;
import java.util.List;
import org.dise.repl.common.ProfileFormats;
import org.dise.repl.common.RunService;
import org.dise.runtime.Machine;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.dise.DiseEngine;
import org.dise.runtime.elf.SymbolTable;
import org.dise.runtime.sink.ProfileTable;
import org.dise.runtime.sink.Sink;

/**
 * The REPL's output commands, one group of the session's commands: {@code :profile} (the same
 * tables as {@code acf run} prints) and {@code :out DIR} (what {@code acf run --out} writes,
 * through the same {@link RunService}).
 */
final class OutputCommands extends CommandGroup {
  static final int PROFILE_TOP = 10;

  private final Workspace workspace;

  OutputCommands(Debuggee program, Workspace workspace, StringBuilder out) {
    super(program, out);
    this.workspace = workspace;
  }

  @Override
  void register(CommandTable t) {
    t.addNoArgs("profile", this::profile);
    t.add("out", this::write);
  }

  private DiseEngine requireEngine() {
    DiseEngine e = program.engine();
    if (e == null) {
      throw new ReplError(
          workspace.set() == null
              ? "no productions, so no profile"
              : "no program has run under these productions (:program, :run)");
    }
    return e;
  }

  void profile() {
    DiseEngine engine = requireEngine();
    SymbolTable symbols = program.machine().symbols();
    if (program.behind()) {
      out.append("(from the productions the program started with)\n");
    }
    for (Sink s : engine.sinks()) {
      // The same table as acf run and acf report print: heading, shares, symbol names.
      ProfileTable t = org.dise.runtime.format.SourceColumns.of(s.table(symbols), symbols);
      for (String line : ProfileFormats.terminal(s.name(), t, PROFILE_TOP)) {
        out.append(line).append('\n');
      }
      for (String note : s.notes()) {
        out.append("  note: ").append(note).append('\n');
      }
      for (String line : s.summary()) {
        out.append("  ").append(line).append('\n');
      }
    }
    out.append("cost\n");
    for (String line : engine.cost().describe().split("\n")) {
      out.append("  ").append(line).append('\n');
    }
  }

  void write(List<String> args) {
    if (args.size() != 1) {
      throw new ReplError("usage: :out DIR");
    }
    DiseEngine engine = requireEngine();
    Path dir = program.path(args.get(0));
    Machine m = program.machine();
    Cpu cpu = m.cpu();
    RunService.prepareOut(dir, ":out", "nothing was written");
    RunService.writeOut(engine, m.symbols(), dir, cpu.halted() ? cpu.exitCode() : -1, ":out", "");
    int n = engine.sinks().size();
    out.append(
        String.format(
            "wrote %d %s and summary.json to %s (acf report %s prints them)%n",
            n, n == 1 ? "profile" : "profiles", args.get(0), args.get(0)));
  }
}
