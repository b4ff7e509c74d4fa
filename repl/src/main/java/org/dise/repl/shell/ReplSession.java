package org.dise.repl.shell;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dise.compiler.diag.Diagnostic;
import org.dise.compiler.diag.Diagnostics;
import org.dise.compiler.diag.Severity;
import org.dise.compiler.diag.SourceFile;
import org.dise.compiler.parse.AcfParsing;
import org.dise.runtime.Machine;
import org.dise.runtime.elf.Symbol;

/**
 * One REPL session: reads input a line at a time, gathers typed productions into entries, and
 * dispatches commands to their groups ({@link ProductionCommands}, {@link ProgramCommands}, {@link
 * BreakpointCommands}, {@link InspectionCommands}, {@link TriggerCommands}, {@link
 * OutputCommands}), which share the session's {@link Workspace} and {@link Debuggee}. {@link
 * #execute} returns exactly what the session prints for a line, so sessions run and test without a
 * terminal; the JLine front end ({@link ReplCommand}) only adds editing, completion and history.
 */
public final class ReplSession {
  /** The prompt, and the prompt while an entry continues over several lines. */
  public static final String PROMPT = "acf> ";

  public static final String MORE = "...> ";

  private final Workspace workspace;
  private final StringBuilder out = new StringBuilder();
  private final StringBuilder pending = new StringBuilder();
  private final CommandTable commands = new CommandTable();
  private final Debuggee program;
  private final ProductionCommands productions;
  private boolean block; // inside :{ ... :}

  /** The last typed entry the session kept, which an indented line may continue. */
  private String lastEntry = "";

  /** True while {@link #pending} holds {@link #lastEntry} and lines continuing it. */
  private boolean continuing;

  private boolean quit;
  private int errors;

  /**
   * A session whose relative paths (files, programs, the guest's sandbox) start at {@code base}.
   */
  public ReplSession(Path base) {
    Path b = base.toAbsolutePath();
    this.workspace = new Workspace(b);
    this.program = new Debuggee(b, workspace, out);
    this.productions = new ProductionCommands(workspace, program, out, () -> errors++);
    register();
  }

  /** The session's productions (for tests in this package). */
  Workspace workspace() {
    return workspace;
  }

  /** Colours diagnostics (for an interactive session on a colour terminal). */
  public void colour(boolean on) {
    workspace.colour(on);
  }

  // ------------------------------------------------------------------ the front end's interface

  /** The prompt for the next line. */
  public String prompt() {
    return pending.length() > 0 || block ? MORE : PROMPT;
  }

  /** True after {@code :quit}. */
  public boolean quitting() {
    return quit;
  }

  /** Commands that reported an error so far. */
  public int errors() {
    return errors;
  }

  /**
   * Asks a running guest to stop (Ctrl-C; called from another thread). Pressed while a command is
   * starting the guest, it stops the guest before its first instruction.
   */
  public void interrupt() {
    program.interrupt();
  }

  /** True while a guest runs (Ctrl-C then interrupts it rather than the line being typed). */
  public boolean busy() {
    return program.busy();
  }

  /** Drops a half-typed entry (Ctrl-C at the prompt, or input ending in the middle of one). */
  public String cancelPending() {
    boolean had = pending.length() > 0 || block;
    pending.setLength(0);
    block = false;
    continuing = false;
    return had ? "(entry discarded)\n" : "";
  }

  /** How the guest starts (environment, confinement, limits), as acf run's options set it. */
  public org.dise.repl.common.GuestSettings guest() {
    return program.guest;
  }

  /** The shell command :edit runs on a temporary file ($EDITOR), or null: edit in place. */
  public void editor(String command) {
    productions.editor(command);
  }

  /** The text :edit left for the next input line to start from, once. */
  public String takeEditBuffer() {
    return productions.takeEditBuffer();
  }

  /** The command names with their colon, for completion. */
  public List<String> commandNames() {
    List<String> names = new ArrayList<>();
    for (CommandTable.Command c : commands.all()) {
      names.add(":" + c.name());
    }
    return names;
  }

  /** The labels and names of the session's items, for completion after :edit and :break when. */
  public List<String> labels() {
    List<String> out = new ArrayList<>();
    for (ProductionEdits.Entry e : ProductionEdits.entries(workspace.typed())) {
      out.add(e.label());
    }
    for (Workspace.Loaded l : workspace.files()) {
      for (ProductionEdits.Entry e : ProductionEdits.entries(l.text())) {
        out.add(e.label());
      }
    }
    out.removeIf(l -> l.startsWith("import ") || l.startsWith("use "));
    return out;
  }

  /** The loaded program's function names, for completion (empty without a program). */
  public List<String> symbolNames() {
    Machine m = program.machine();
    if (m == null) {
      return List.of();
    }
    List<String> names = new ArrayList<>();
    for (Symbol s : m.symbols().symbols()) {
      names.add(s.name());
    }
    return names;
  }

  /** Executes one input line and returns what it prints (every line ends with a newline). */
  public String execute(String line) {
    out.setLength(0);
    program.clearInterrupt(); // a Ctrl-C typed at the prompt belongs to the prompt
    try {
      dispatch(line);
    } catch (ReplError | org.dise.runtime.session.SessionError e) {
      // UserError: the run service's errors, worded as acf run words them.
      errors++;
      out.append("error: ").append(e.getMessage()).append('\n');
    } catch (RuntimeException | StackOverflowError e) {
      errors++;
      out.append("internal error: ").append(e).append('\n');
      if (org.dise.repl.common.Settings.get("ACF_DEBUG") != null) {
        e.printStackTrace();
      }
    } finally {
      program.flushGuest();
    }
    return out.toString();
  }

  private void dispatch(String line) {
    String t = line.strip();
    if (block) {
      if (t.equals(":}")) {
        block = false;
        String entry = pending.toString();
        pending.setLength(0);
        submit(entry);
      } else if (t.startsWith(":")) {
        throw new ReplError(
            "inside :{ ... :} only productions and declarations; end the entry"
                + " with :} (or discard it with Ctrl-C)");
      } else {
        pending.append(line).append('\n');
      }
      return;
    }
    if (pending.length() > 0) {
      if (t.isEmpty() || t.startsWith(":")) {
        // An empty line or a command ends an entry, complete or not.
        String entry = pending.toString();
        pending.setLength(0);
        submit(entry);
        if (t.startsWith(":")) {
          lastEntry = "";
          commands.run(t.substring(1));
        }
      } else {
        acfLine(line);
      }
      return;
    }
    if (t.isEmpty() || t.startsWith("#")) {
      if (t.isEmpty()) {
        lastEntry = "";
      }
      return;
    }
    if (t.startsWith(":")) {
      lastEntry = "";
      commands.run(t.substring(1));
    } else {
      acfLine(line);
    }
  }

  // ------------------------------------------------------------------ typed productions

  private void acfLine(String line) {
    if (pending.length() == 0 && !lastEntry.isEmpty() && continues(line)) {
      // A file's replacement goes on over indented lines (`R1: call(h, T.PC);` then
      // `    T.INSN;`): pasted line by line, the line continues the entry before it.
      pending.append(lastEntry);
      continuing = true;
    }
    pending.append(line).append('\n');
    String text = pending.toString();
    if (incomplete(text)) {
      return; // the prompt turns into "...>"
    }
    pending.setLength(0);
    submit(text);
  }

  private void submit(String entry) {
    boolean continuation = continuing;
    continuing = false;
    boolean kept = productions.submit(entry, continuation);
    if (kept && !commentsOnly(entry)) {
      lastEntry = entry;
    } else if (!kept) {
      lastEntry = "";
    }
  }

  /**
   * True for an indented line that is not an entry of its own (it does not parse alone): the rest
   * of the previous entry, as files write a replacement's later instructions.
   */
  static boolean continues(String line) {
    if (line.isEmpty() || !Character.isWhitespace(line.charAt(0)) || commentsOnly(line)) {
      return false;
    }
    Diagnostics d = new Diagnostics();
    AcfParsing.parse(new SourceFile(Workspace.TYPED, line + "\n"), d);
    return d.hasErrors();
  }

  private static boolean commentsOnly(String text) {
    return text.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\n]*", "").isBlank();
  }

  /** True when the entry so far cannot be complete: open brackets, or the parse ends early. */
  static boolean incomplete(String text) {
    int depth = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '/' && i + 1 < text.length() && text.charAt(i + 1) == '/') {
        while (i < text.length() && text.charAt(i) != '\n') {
          i++;
        }
      } else if (c == '"') {
        for (i++; i < text.length() && text.charAt(i) != '"' && text.charAt(i) != '\n'; i++) {
          if (text.charAt(i) == '\\') {
            i++;
          }
        }
      } else if (c == '(' || c == '{') {
        depth++;
      } else if (c == ')' || c == '}') {
        depth--;
      }
    }
    if (depth > 0) {
      return true;
    }
    Diagnostics d = new Diagnostics();
    AcfParsing.parse(new SourceFile(Workspace.TYPED, text), d);
    int end = text.stripTrailing().length();
    for (Diagnostic x : d.all()) {
      if (x.severity() == Severity.ERROR && x.span().start() >= end) {
        return true; // the parser wanted more at the end of the input
      }
    }
    return false;
  }

  // ------------------------------------------------------------------ commands

  private void register() {
    commands.add("help", this::help);
    productions.register(commands);
    commands.addNoArgs(
        "{",
        () -> {
          block = true;
        });
    new ProgramCommands(program, out).register(commands);
    new BreakpointCommands(program, out).register(commands);
    new InspectionCommands(program, out).register(commands);
    new TriggerCommands(program, out).register(commands);
    new TimingCommands(program, out).register(commands);
    new OutputCommands(program, workspace, out).register(commands);
    commands.add("quit", a -> quit = true);
  }

  private void help(List<String> args) {
    if (args.isEmpty()) {
      out.append(
          "Type productions and declarations as in an ACF file; an entry may span"
              + " lines\n(it ends when complete, or at an empty line). Commands:\n");
      for (CommandTable.Command c : commands.all()) {
        String head =
            ":" + c.name() + (c.help().synopsis().isEmpty() ? "" : " " + c.help().synopsis());
        out.append(String.format("  %-32s %s%n", head, c.help().brief()));
      }
      // Entries may come in any order, as in a file: a production may name a later replacement.
      out.append("Example (a production may name a replacement typed before or after it):\n")
          .append("  sink calls = call_pair_counter();\n")
          .append("  R3: call(calls, T.INSN); T.INSN;\n")
          .append("  P3: T.OPCLASS == proc_call => R3, null\n")
          .append("  :program examples/programs/bin/hello\n")
          .append("  :run\n")
          .append("  :profile\n")
          .append(":help COMMAND shows a command's examples. A run's written profiles are\n")
          .append("printed and compared by the acf report and acf compare commands.\n");
      return;
    }
    String name = args.get(0).startsWith(":") ? args.get(0).substring(1) : args.get(0);
    CommandTable.Command c = commands.get(name);
    if (c == null) {
      throw new ReplError("no command :" + name + "; :help lists them");
    }
    CommandHelp h = c.help();
    out.append(":")
        .append(c.name())
        .append(h.synopsis().isEmpty() ? "" : " " + h.synopsis())
        .append('\n')
        .append("  ")
        .append(h.summary())
        .append('\n')
        .append("Examples:\n");
    for (String e : h.examples()) {
      out.append("  ").append(e).append('\n');
    }
  }
}
