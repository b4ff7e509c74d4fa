package org.dise.repl.shell;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The REPL's breakpoint commands, one group of the session's commands: {@code :break} (an address,
 * or {@code when EXPR}: a condition, {@link BreakCondition}) and {@code :delete}.
 */
final class BreakpointCommands extends CommandGroup {
  private static final Pattern PC_IS =
      Pattern.compile("pc\\s*==\\s*(?:symbol\\(\\s*([^)\\s]+)\\s*\\)|(\\S+))");

  BreakpointCommands(Debuggee program, StringBuilder out) {
    super(program, out);
  }

  @Override
  void register(CommandTable t) {
    t.add("break", this::breakCommand);
    t.add("delete", this::delete);
  }

  void breakCommand(List<String> args) {
    if (args.isEmpty()) {
      if (program.breakpoints.isEmpty() && program.conditionTexts.isEmpty()) {
        out.append("no breakpoints\n");
      }
      for (long b : program.breakpoints) {
        out.append(
            String.format(
                "breakpoint at 0x%x %s%n",
                b, program.machine() == null ? "" : program.machine().symbols().describe(b)));
      }
      for (int i = 0; i < program.conditionTexts.size(); i++) {
        out.append("when ")
            .append(i + 1)
            .append(": ")
            .append(program.conditionTexts.get(i))
            .append('\n');
      }
      return;
    }
    if (args.get(0).equals("when")) {
      breakWhen(String.join(" ", args.subList(1, args.size())));
      return;
    }
    if (args.size() != 1) {
      throw new ReplError("usage: :break SYMBOL|ADDR | :break when EXPR");
    }
    addBreakpoint(args.get(0));
  }

  private void addBreakpoint(String where) {
    program.requireProgram();
    long a = program.address(where);
    if (!program.breakpoints.add(a)) {
      throw new ReplError(String.format("there is already a breakpoint at 0x%x", a));
    }
    program.refreshStage();
    out.append(
        String.format("breakpoint at 0x%x %s%n", a, program.machine().symbols().describe(a)));
  }

  /** {@code :break when EXPR}: an address as a condition, or a condition on the engine. */
  private void breakWhen(String expr) {
    if (expr.isBlank()) {
      throw new ReplError(
          "usage: :break when EXPR (a production label, counter N == V,"
              + " zero_N, overflow_N, sink NAME count >= V, sink NAME[KEY] >= V, pc == symbol(f))");
    }
    Matcher m = PC_IS.matcher(expr.strip());
    if (m.matches()) {
      addBreakpoint(m.group(1) != null ? m.group(1) : m.group(2));
      return;
    }
    program.requireProgram();
    BreakCondition c = program.condition(expr);
    String text = expr.strip();
    if (program.conditionTexts.stream().anyMatch(t -> t.equals(c.text) || t.equals(text))) {
      throw new ReplError("there is already a breakpoint when " + text);
    }
    program.addCondition(text, c);
    out.append("when ")
        .append(program.conditionTexts.size())
        .append(": ")
        .append(text)
        .append(
            program.edgeTriggered(c)
                ? " (stops when it becomes true)\n"
                : " (stops before each instruction it matches)\n");
  }

  void delete(List<String> args) {
    if (args.size() == 2 && args.get(0).equals("when")) {
      long n = Args.number(args.get(1));
      if (n < 1 || n > program.conditionTexts.size()) {
        throw new ReplError("no condition " + n + " (:break lists them)");
      }
      String text = program.conditionTexts.remove((int) n - 1);
      program.refreshStage();
      out.append("deleted when ").append(n).append(": ").append(text).append('\n');
      return;
    }
    if (args.size() != 1) {
      throw new ReplError("usage: :delete SYMBOL|ADDR|all | :delete when N");
    }
    if (args.get(0).equals("all")) {
      int n = program.breakpoints.size() + program.conditionTexts.size();
      out.append(n).append(n == 1 ? " breakpoint" : " breakpoints").append(" deleted\n");
      program.breakpoints.clear();
      program.conditionTexts.clear();
    } else {
      program.requireProgram();
      long a = program.address(args.get(0));
      if (!program.breakpoints.remove(a)) {
        throw new ReplError(String.format("no breakpoint at 0x%x", a));
      }
      out.append(String.format("deleted breakpoint at 0x%x%n", a));
    }
    program.refreshStage();
  }
}
