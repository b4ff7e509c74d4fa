package org.dise.repl.shell;

import org.dise.repl.ProfileFormats;
import org.dise.runtime.trigger.Triggers;
import org.dise.runtime.trigger.TriggerSpec;
import org.dise.runtime.trigger.TriggerDriver;
import org.dise.runtime.trigger.PhaseTracker;
import org.dise.runtime.trigger.PhaseTable;
import org.dise.runtime.trigger.PhaseAwareTrigger;
import org.dise.compiler.lib.StandardLibrary;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;
import org.dise.compiler.diag.Diagnostic;
import org.dise.compiler.diag.Diagnostics;
import org.dise.compiler.diag.Severity;
import org.dise.compiler.diag.SourceFile;
import org.dise.compiler.parse.AcfParsing;
import org.dise.runtime.Machine;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.cpu.StopReason;
import org.dise.runtime.dise.CounterSpec;
import org.dise.runtime.dise.DiseEngine;
import org.dise.runtime.dise.SymbolBinding;
import org.dise.runtime.dise.MicroOp;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.config.ConfigFormat;
import org.dise.runtime.dise.config.ConfigPrinter;
import org.dise.runtime.dise.config.DeployableConfig;
import org.dise.runtime.elf.ElfException;
import org.dise.runtime.elf.Symbol;
import org.dise.runtime.elf.SymbolTable;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.Decoder;
import org.dise.runtime.isa.Disassembler;
import org.dise.runtime.isa.IllegalInstructionException;
import org.dise.runtime.isa.Registers;
import org.dise.runtime.linux.Sandbox;
import org.dise.runtime.mem.MemoryFault;
import org.dise.runtime.sink.Sink;

/**
 * The state of one REPL session and its commands: productions (loaded files and typed entries),
 * a guest program, breakpoints, and the engine running it. {@link #execute} takes one input line
 * and returns exactly what the session prints for it, so sessions run and test without a
 * terminal; the JLine front end ({@link ReplCommand}) only adds editing, completion and history.
 */
public final class ReplSession {
  /** The prompt, and the prompt while an entry continues over several lines. */
  public static final String PROMPT = "acf> ";
  public static final String MORE = "...> ";

  private static final int PROFILE_TOP = 10;
  /** Instructions between two looks at Ctrl-C (a few milliseconds of emulation). */
  private static final long SLICE = 20_000_000;

  private final Path base;
  private final Workspace workspace;
  private final Map<String, Command> commands = new LinkedHashMap<>();
  private final StringBuilder out = new StringBuilder();
  private final StringBuilder pending = new StringBuilder();
  private boolean block; // inside :{ ... :}
  private boolean quit;
  private int errors;

  // The program and its run.
  private String programShown;
  private Path programPath;
  private List<String> programArgs = List.of();
  private List<String> env; // null: the host's
  private String stdinShown; // the guest's stdin file as typed; null: empty stdin
  private TriggerSpec triggerSet; // set by :trigger; null: the ACF's own trigger, if any
  private boolean triggerOff; // :trigger none: no trigger, even one the ACF declares
  private TriggerDriver driver; // the trigger running the current program, or null
  private static final int PHASE_TRACE_SHOWN = 10;
  private Machine machine;
  private DiseEngine engine;
  private BreakpointStage stage;
  private int engineVersion;
  /** Instructions inserted under an engine that :apply removed (still not the application's). */
  private long insertedOffset;
  /** The session's ACF text when the current program got its productions, for :diff. */
  private String runSource;
  private final ByteArrayOutputStream guestOut = new ByteArrayOutputStream();
  private final Set<Long> breakpoints = new ConcurrentSkipListSet<>();
  /** :break when: the conditions as typed, and as parsed against the running set. */
  private final List<String> conditionTexts = new ArrayList<>();
  private final List<BreakCondition> conditions =
      new java.util.concurrent.CopyOnWriteArrayList<>();
  private final ShadowStack shadow = new ShadowStack();
  private volatile Cpu running;
  private volatile boolean interruptRequested;

  /** The inspection command group, seeing the session through a view of its program. */
  private final InspectionCommands inspection = new InspectionCommands(
      new InspectionCommands.ProgramView() {
        @Override
        public Machine requireProgram() {
          return ReplSession.this.requireProgram();
        }

        @Override
        public Machine machine() {
          return machine;
        }

        @Override
        public DiseEngine engine() {
          return engine;
        }

        @Override
        public ProductionSet requireSet() {
          return ReplSession.this.requireSet();
        }

        @Override
        public ShadowStack shadow() {
          return shadow;
        }

        @Override
        public String instructionCount() {
          return ReplSession.this.instructionCount();
        }

        @Override
        public long address(String s) {
          return ReplSession.this.address(s);
        }

        @Override
        public long value(String s) {
          return ReplSession.this.value(s);
        }
      }, out);

  /** A session whose relative paths (files, programs, the guest's sandbox) start at {@code base}. */
  public ReplSession(Path base) {
    this.base = base.toAbsolutePath();
    this.workspace = new Workspace(this.base);
    register();
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
   * Asks a running guest to stop (Ctrl-C; called from another thread). Pressed while a command
   * is starting the guest, it stops the guest before its first instruction.
   */
  public void interrupt() {
    interruptRequested = true;
    Cpu c = running;
    if (c != null) {
      c.requestInterrupt();
    }
  }

  /** True while a guest runs (Ctrl-C then interrupts it rather than the line being typed). */
  public boolean busy() {
    return running != null;
  }

  /** Drops a half-typed entry (Ctrl-C at the prompt, or input ending in the middle of one). */
  public String cancelPending() {
    boolean had = pending.length() > 0 || block;
    pending.setLength(0);
    block = false;
    return had ? "(entry discarded)\n" : "";
  }

  /** The command names with their colon, for completion. */
  public List<String> commandNames() {
    List<String> names = new ArrayList<>();
    for (String n : commands.keySet()) {
      names.add(":" + n);
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
    Machine m = machine;
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
    interruptRequested = false; // a Ctrl-C typed at the prompt belongs to the prompt
    try {
      dispatch(line);
    } catch (ReplError e) {
      errors++;
      out.append("error: ").append(e.getMessage()).append('\n');
    } catch (RuntimeException | StackOverflowError e) {
      errors++;
      out.append("internal error: ").append(e).append('\n');
      if (System.getenv("ACF_DEBUG") != null) {
        e.printStackTrace();
      }
    } finally {
      flushGuest();
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
        throw new ReplError("inside :{ ... :} only productions and declarations; end the entry"
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
          command(t.substring(1));
        }
      } else {
        acfLine(line);
      }
      return;
    }
    if (t.isEmpty() || t.startsWith("#")) {
      return;
    }
    if (t.startsWith(":")) {
      command(t.substring(1));
    } else {
      acfLine(line);
    }
  }

  // ------------------------------------------------------------------ typed productions

  private void acfLine(String line) {
    pending.append(line).append('\n');
    String text = pending.toString();
    if (incomplete(text)) {
      return; // the prompt turns into "...>"
    }
    pending.setLength(0);
    submit(text);
  }

  private void submit(String entry) {
    if (entry.isBlank()) {
      return;
    }
    Workspace.Outcome o = workspace.type(entry);
    report(o);
  }

  private void report(Workspace.Outcome o) {
    out.append(o.text());
    if (!o.ok()) {
      errors++;
    } else if (pausedMidRun()) {
      out.append("(the paused program runs the previous productions: :apply installs these,"
          + " :run starts it again with them)\n");
    }
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

  /** One REPL command: name, argument synopsis, what it does, examples, and the action. */
  private record Command(String name, String synopsis, String brief, String summary,
      List<String> examples, Action action) {}

  @FunctionalInterface
  private interface Action {
    void run(List<String> args);
  }

  private void add(String name, String synopsis, String brief, String summary,
      List<String> examples, Action action) {
    commands.put(name, new Command(name, synopsis, brief, summary, examples, action));
  }

  private void command(String text) {
    List<String> words = split(text);
    if (words.isEmpty()) {
      throw new ReplError("a command name must follow ':' (try :help)");
    }
    String name = words.get(0).toLowerCase(Locale.ROOT);
    Command c = commands.get(name);
    if (c == null) {
      List<String> near = new ArrayList<>();
      for (String n : commands.keySet()) {
        if (n.startsWith(name) || name.startsWith(n)) {
          near.add(":" + n);
        }
      }
      throw new ReplError("unknown command :" + name
          + (near.isEmpty() ? "" : " (did you mean " + String.join(" or ", near) + "?)")
          + "; :help lists the commands");
    }
    c.action().run(words.subList(1, words.size()));
  }

  private void register() {
    add("help", "[COMMAND]", "list the commands, or one command with examples", "List the commands, or show one command with examples.",
        List.of(":help", ":help break"), this::help);
    add("load", "FILE|MODULE", "load an ACF file or library module (its productions join)", "Load an ACF file; its productions join the session's (checked as by"
        + " acf check; on an error the session keeps its previous productions). A name that is"
        + " not a file but a standard library module (:lib lists them) imports that module, as"
        + " `import MODULE;` does: its names and blocks become available.",
        List.of(":load examples/acf/hot_call_pairs.acf"), this::load);
    add("lib", "[MODULE]", "list the standard library, or one module's blocks", "List the standard library's modules with their summaries, or one module's"
        + " parameterised blocks and names. Use a block by typing `import MODULE;` and"
        + " `use BLOCK(args);`.",
        List.of(":lib", ":lib prelude"), this::lib);
    add("reload", "", "read the loaded files again and recompile", "Read every loaded file again (after editing it) and recompile.",
        List.of(":reload"), a -> {
          none(a, "reload");
          Workspace.Outcome o = workspace.reload();
          report(o);
          if (o.ok() && pausedMidRun() && engineVersion != workspace.version()) {
            apply(); // :reload of files is a hot reload too
          }
        });
    add("undo", "", "go back to the productions before the last change", "Restore the"
        + " production set as it was before the last accepted change (a typed entry, a"
        + " replacement, :load, :reload, :reset); repeat to go further back.", List.of(":undo"),
        a -> {
          none(a, "undo");
          report(workspace.undo());
        });
    add("diff", "", "the productions against the last run's", "Show what changed since the"
        + " program was last started (or since :apply installed a set): '-' lines are items"
        + " gone or changed, '+' lines items new or changed, by label.", List.of(":diff"),
        a -> {
          none(a, "diff");
          diff();
        });
    add("edit", "LABEL", "edit a production (or any named item) in $EDITOR or in place",
        "Edit the item named LABEL (a production, replacement, sink, counter, block...): in"
        + " $VISUAL or $EDITOR when one is set, else as the next input line, pre-filled; the"
        + " edited text replaces the item as a retyped label does (:undo goes back).",
        List.of(":edit P3", ":edit R3"), this::edit);
    add("show", "", "print the session's ACF text", "Print the session's ACF: the loaded files, then the typed entries.",
        List.of(":show"), a -> {
          none(a, "show");
          out.append(workspace.isEmpty() ? "(no productions)\n" : workspace.source());
        });
    add("reset", "", "forget every production", "Forget every loaded file and typed production.", List.of(":reset"), a -> {
      none(a, "reset");
      workspace.reset();
      out.append("productions cleared\n");
    });
    add("{", "", "start a multi-line entry (:} ends it)", "Start an entry of several lines; :} ends it and compiles it.",
        List.of(":{", "R3: call(CallPair_handler, T.INSN);", "    T.INSN;", ":}"), a -> {
          none(a, "{");
          block = true;
        });
    add("tables", "", "the PT, CT inputs and RT as lowered, counters, sinks", "The production set as lowered: budget use, pattern table (PT),"
        + " conditionals table (CT) inputs, replacement table (RT), counters, sinks.",
        List.of(":tables"), a -> {
          none(a, "tables");
          tables();
        });
    add("save", "FILE", "save the productions as a deployable configuration", "Save the production set as a deployable configuration (acf run"
        + " --config FILE runs it without the compiler).", List.of(":save pairs.dcfg"),
        this::save);
    add("program", "PATH [ARGS...]", "load a RISC-V program with arguments", "Load a RISC-V program with its arguments (it starts"
        + " at its entry point; the guest's stdin is empty).",
        List.of(":program examples/programs/bin/hello a b", ":program examples/programs/bin/chess 2"),
        this::program);
    add("env", "[clear | host | NAME=VALUE...]", "the guest's environment", "Without arguments,"
        + " show the guest's environment; 'clear' empties it, 'host' replaces it by the host's,"
        + " NAME=VALUE adds to it. It starts empty, the same on every host, as for acf run."
        + " Takes effect at the next :program or :run.",
        List.of(":env", ":env clear", ":env host", ":env LANG=C HOME=/tmp"), this::env);
    add("stdin", "[FILE | none]", "the file the guest reads as stdin", "Without arguments, show"
        + " what the guest reads as standard input; FILE makes it read that file (from its"
        + " start at every :program and :run), 'none' gives it an empty stdin (the default).",
        List.of(":stdin input.txt", ":stdin none"), this::stdin);
    add("run", "", "run the program from its start", "Start the program from the beginning under the current productions and run"
        + " it until it exits, faults, reaches a breakpoint or Ctrl-C.", List.of(":run"), a -> {
          none(a, "run");
          run();
        });
    add("apply", "", "install the changed productions into the paused program", "Hot reload:"
        + " install the session's current productions into the paused program, which"
        + " :continue runs on under them. Counters keep their values by index unless their"
        + " declaration changed; a sink keeps its profile when it is bound as before; what was"
        + " reset is listed. Every instruction is decoded again, so the new patterns apply from"
        + " the next instruction (spec/engine.md).",
        List.of(":apply", ":reload   (then :apply)"), a -> {
          none(a, "apply");
          apply();
        });
    add("continue", "", "continue from where it stopped", "Continue the program from where it stopped.", List.of(":continue"),
        a -> {
          none(a, "continue");
          resume(Long.MAX_VALUE, -1);
        });
    add("step", "[N]", "execute N instructions (default 1)", "Execute N instructions (default 1), then show where the program is.",
        List.of(":step", ":step 1000"), a -> {
          if (a.size() > 1) {
            throw new ReplError("usage: :step [N]");
          }
          long n = a.isEmpty() ? 1 : number(a.get(0));
          if (n <= 0) {
            throw new ReplError(":step needs a positive count");
          }
          resume(n, -1);
        });
    add("until", "SYMBOL|ADDR", "continue until a function or address", "Continue until the program reaches a function or address.",
        List.of(":until main", ":until 0x10430"), a -> {
          if (a.size() != 1) {
            throw new ReplError("usage: :until SYMBOL|ADDR");
          }
          requireProgram();
          resume(Long.MAX_VALUE, address(a.get(0)));
        });
    add("break", "[SYMBOL|ADDR | when EXPR]", "set a breakpoint or condition, or list them",
        "Stop before the instruction at a function or address; without an argument, list the"
        + " breakpoints. `when EXPR` stops on a condition: a production label (before each"
        + " instruction it matches), counter N == V (also != < <= > >=), zero_N, overflow_N or"
        + " !zero_N (after the instruction that makes it true), pc == symbol(f) (an address).",
        List.of(":break main", ":break 0x10430", ":break when P3", ":break when counter 1 == 3",
            ":break when overflow_1", ":break when pc == symbol(printf)", ":break"),
        this::breakCommand);
    add("delete", "WHERE|all|when N", "remove a breakpoint or condition", "Remove a"
        + " breakpoint (SYMBOL or ADDR), condition N (as :break lists them), or all of them.",
        List.of(":delete main", ":delete when 1", ":delete all"), this::delete);
    add("bt", "", "the guest's call stack", "The guest's call stack, innermost first: the pc,"
        + " then each active call's return address, from the shadow stack that the decode stage"
        + " keeps of every call and return since the program started.", List.of(":bt"), a -> {
          none(a, "bt");
          inspection.backtrace();
        });
    add("regs", "", "application and DISE registers", "The application registers (pc, x0-x31 by ABI name), and the DISE"
        + " registers $dr0-$dr7 when productions are active.", List.of(":regs"), a -> {
          none(a, "regs");
          inspection.regs();
        });
    add("mem", "ADDR [N] | x/NFS ADDR", "dump memory, or typed views", "N bytes of memory"
        + " (default 64) from an address, function or register ($sp); or, as gdb's x, N units"
        + " of size S (b h w g: 1 2 4 8 bytes) in format F (x hex, d signed, u unsigned, a"
        + " address with its symbol, c character, s C string).",
        List.of(":mem 0x10000 32", ":mem main", ":mem x/8xg $sp", ":mem x/4a $sp",
            ":mem x/s $a0", ":mem x/4dw main"), inspection::mem);
    add("disasm", "[ADDR] [N]", "disassemble around the pc or from an address", "N instructions (default 10) from an address or function, or"
        + " from the pc; '=>' marks the pc.", List.of(":disasm", ":disasm main 20"),
        inspection::disasm);
    add("counters", "", "HPS counters, flags and registers", "The HPS counters with their zero and overflow flags, and the HPS"
        + " registers.", List.of(":counters"), a -> {
          none(a, "counters");
          inspection.counters();
        });
    add("set", "counter|overflow|reg X V", "set a counter, flag or register",
        "Set an HPS counter (:set counter N V, as set_N does: masked to its width, overflow"
        + " cleared), a counter's sticky overflow flag (:set overflow N 0|1), an application"
        + " register or pc, or a DISE register (:set reg NAME V, NAME as :regs shows it).",
        List.of(":set counter 0 1", ":set overflow 1 0", ":set reg a0 42", ":set reg pc main",
            ":set reg $dr2 5"), inspection::set);
    add("sample", "on|off", "turn the sampling flag (counter 0) on or off", "Turn the sampling flag on or off: counter 0 set to 0 (zero_0"
        + " true) or 1, as the trigger productions of equations (1) and (2) do.",
        List.of(":sample off", ":sample on"), a -> {
          if (a.size() != 1 || !(a.get(0).equals("on") || a.get(0).equals("off"))) {
            throw new ReplError("usage: :sample on|off");
          }
          inspection.setCounter(0, a.get(0).equals("on") ? 0 : 1);
        });
    add("trigger", "[STRATEGY [NAME=VALUE...] | set NAME=VALUE... | none]",
        "the sampling trigger and its parameters", "Without arguments, show the trigger that"
        + " runs the program: one set here, else the one the ACF declares. STRATEGY is"
        + " exhaustive, periodic:N, random:P[:SEED] or phase[:POLICY] (as acf run --sampling),"
        + " with parameters such as interval=1M, threshold=15, buckets=32, table=20,"
        + " predictor=markov; 'set' changes parameters of the current trigger; 'none' runs"
        + " without one. The trigger injects on_trig_inst/off_trig_inst at interval boundaries"
        + " (import sampling; use external_trigger; turns them into the sampling flag). Takes"
        + " effect at the next :run, or at once if the program has not started.",
        List.of(":trigger phase interval=1M threshold=15", ":trigger periodic:4",
            ":trigger set interval=2M", ":trigger none"), this::trigger);
    add("phases", "", "the trigger's intervals, phase tracker and phase table", "Show the"
        + " running trigger's state: intervals so far, the current interval and whether it is"
        + " sampled; with phase-aware sampling also the phase tracker (phases, the prediction"
        + " for the next interval, prediction accuracy), the phase table (phase, sampled bit,"
        + " count) and the last intervals' phases.", List.of(":phases"), a -> {
          none(a, "phases");
          phases();
        });
    add("profile", "", "every sink's profile so far, and the costs", "Every sink's profile so far (top " + PROFILE_TOP + " entries) and the"
        + " cost figures. acf run --out DIR writes them for acf report and acf compare.",
        List.of(":profile"), a -> {
          none(a, "profile");
          profile();
        });
    add("out", "DIR", "write the profiles as acf run --out does", "Write every sink's profile"
        + " so far and the costs into DIR, as acf run --out writes them (NAME.csv, NAME.json,"
        + " NAME.folded, the sink's own files, summary.json; exit_status is -1 while the program"
        + " has not exited): acf report DIR prints them, acf compare compares two.",
        List.of(":out runs/pairs", ":out /tmp/before"), this::writeOut);
    add("quit", "", "leave the REPL", "Leave the REPL (Ctrl-D does too).", List.of(":quit"), a -> quit = true);
  }

  private static void none(List<String> args, String name) {
    if (!args.isEmpty()) {
      throw new ReplError(":" + name + " takes no arguments");
    }
  }

  private void help(List<String> args) {
    if (args.isEmpty()) {
      out.append("Type productions and declarations as in an ACF file; an entry may span"
          + " lines\n(it ends when complete, or at an empty line). Commands:\n");
      for (Command c : commands.values()) {
        String head = ":" + c.name() + (c.synopsis().isEmpty() ? "" : " " + c.synopsis());
        out.append(String.format("  %-32s %s%n", head, c.brief()));
      }
      // A replacement sequence must exist before a production names it: type R3, then P3.
      out.append("Example (a production refers to a sink and a replacement typed before it):\n")
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
    Command c = commands.get(name.toLowerCase(Locale.ROOT));
    if (c == null) {
      throw new ReplError("no command :" + name + "; :help lists them");
    }
    out.append(":").append(c.name()).append(c.synopsis().isEmpty() ? "" : " " + c.synopsis())
        .append('\n').append("  ").append(c.summary()).append('\n').append("Examples:\n");
    for (String e : c.examples()) {
      out.append("  ").append(e).append('\n');
    }
  }

  // ------------------------------------------------------------------ productions

  private void load(List<String> args) {
    if (args.size() != 1) {
      throw new ReplError("usage: :load FILE|MODULE");
    }
    Workspace.Outcome o = workspace.load(args.get(0));
    report(o);
    boolean module = o.ok() && workspace.files().stream().anyMatch(l -> l.path() == null
        && l.shown().equals(args.get(0)));
    if (module) {
      StandardLibrary.module(args.get(0)).ifPresent(m -> {
        out.append("imported library module ").append(m.name()).append(" (as `import ")
            .append(m.name()).append(";`)");
        if (!m.blocks().isEmpty()) {
          out.append("; `use BLOCK;` activates one of its blocks:\n");
          m.blocks().forEach(b -> out.append("  ").append(b).append('\n'));
        } else {
          out.append('\n');
        }
      });
    }
  }

  private void lib(List<String> args) {
    if (args.size() > 1) {
      throw new ReplError("usage: :lib [MODULE]");
    }
    if (args.isEmpty()) {
      List<StandardLibrary.Module> mods = StandardLibrary.modules();
      int w = mods.stream().mapToInt(m -> m.name().length()).max().orElse(0);
      for (StandardLibrary.Module m : mods) {
        out.append(String.format("  %-" + w + "s  %s%n", m.name(), m.summary()));
      }
      out.append(mods.size()).append(mods.size() == 1 ? " module" : " modules")
          .append("; :lib MODULE shows one\n");
      return;
    }
    StandardLibrary.Module m = StandardLibrary.module(args.get(0)).orElseThrow(() ->
        new ReplError("no standard library module `" + args.get(0) + "` (:lib lists them)"));
    out.append(m.name()).append(": ").append(m.summary()).append('\n');
    if (!m.blocks().isEmpty()) {
      out.append("blocks:\n");
      for (String b : m.blocks()) {
        out.append("  ").append(b).append('\n');
      }
    }
    List<String> others = m.names().stream()
        .filter(n -> m.blocks().stream().noneMatch(b -> b.equals(n) || b.startsWith(n + "(")))
        .distinct() // several blocks declare the same counter name
        .toList();
    if (!others.isEmpty()) {
      out.append("names: ").append(String.join(", ", others)).append('\n');
    }
    out.append("use it: import ").append(m.name()).append(";\n");
  }

  private void tables() {
    ProductionSet s = requireSet();
    String text = ConfigPrinter.describe(new DeployableConfig("<session>", s), 0);
    // Skip the two lines about a configuration file; there is none.
    int from = text.indexOf("budget:");
    out.append(from < 0 ? text : text.substring(from));
  }

  private void save(List<String> args) {
    if (args.size() != 1) {
      throw new ReplError("usage: :save FILE");
    }
    ProductionSet s = requireSet();
    List<String> problems = s.budget().violations(s);
    if (!problems.isEmpty()) {
      throw new ReplError("the production set does not fit the hardware budget: "
          + String.join("; ", problems));
    }
    Path file = base.resolve(args.get(0));
    String source = workspace.files().isEmpty() ? "repl"
        : workspace.files().get(0).path() == null ? workspace.files().get(0).shown()
        : workspace.files().get(0).path().getFileName().toString();
    try {
      ConfigFormat.write(new DeployableConfig(source, s), file);
    } catch (IOException e) {
      throw new ReplError(args.get(0) + ": cannot write: " + e.getMessage());
    }
    out.append("saved ").append(args.get(0)).append(": ").append(Workspace.describe(s))
        .append('\n');
  }

  private boolean pausedMidRun() {
    return machine != null && machine.cpu().instret() > 0 && !machine.cpu().halted()
        && machine.cpu().fault() == null;
  }

  /** Hot reload: the current production set into the paused program (spec/engine.md). */
  private void apply() {
    Machine m = requireProgram();
    Cpu cpu = m.cpu();
    if (cpu.halted() || cpu.fault() != null) {
      throw new ReplError("the program has " + (cpu.halted() ? "exited" : "faulted")
          + "; :run starts it again under these productions");
    }
    if (cpu.instret() == 0) {
      install(m);
      out.append("the program has not started: it starts under these productions\n");
      return;
    }
    if (engineVersion == workspace.version()) {
      out.append("the program already runs under these productions\n");
      return;
    }
    if (driver != null) {
      throw new ReplError("a trigger drives this run, and its intervals count the old engine's"
          + " instructions; :run starts the program again under these productions");
    }
    ProductionSet s = workspace.set();
    DiseEngine next = null;
    if (s != null && !s.productions().isEmpty()) {
      try {
        next = new DiseEngine(s);
      } catch (IllegalArgumentException x) {
        throw new ReplError(x.getMessage());
      }
    }
    List<String> reset = new ArrayList<>();
    if (next != null && engine != null) {
      reset.addAll(next.carryOver(engine));
    } else if (engine != null) {
      insertedOffset = engine.cost().insertedInstructions();
      reset.add("no productions: every counter and sink is gone");
    }
    if (next != null) {
      next.install(cpu);
    }
    engine = next;
    engineVersion = workspace.version();
    runSource = workspace.source();
    refreshStage(); // a new decode stage: every instruction is decoded and folded again
    out.append("applied at ").append(m.symbols().describe(cpu.pc)).append(": ")
        .append(s == null ? "no productions" : Workspace.describe(s)).append('\n');
    if (reset.isEmpty() && next != null) {
      out.append("kept every counter and sink profile; :continue goes on under them\n");
    } else {
      reset.forEach(r -> out.append("  ").append(r).append('\n'));
      out.append(":continue goes on under them\n");
    }
  }

  private String editor;
  private String editBuffer;

  /** The shell command :edit runs on a temporary file ($EDITOR), or null: edit in place. */
  public void editor(String command) {
    this.editor = command;
  }

  /** The text :edit left for the next input line to start from, once. */
  public String takeEditBuffer() {
    String b = editBuffer;
    editBuffer = null;
    return b;
  }

  private void edit(List<String> args) {
    if (args.size() != 1) {
      throw new ReplError("usage: :edit LABEL");
    }
    String text = workspace.itemText(args.get(0)).orElseThrow(() -> new ReplError(
        "no production or declaration named " + args.get(0) + " (:show lists them)"));
    if (editor == null) {
      // One line to edit: a multi-line item is joined (the language does not care).
      String line = text.replaceAll("\\s*\n\\s*", " ");
      editBuffer = line;
      out.append(line).append('\n')
          .append("(edit it as the next line; an entry with the same label replaces it)\n");
      return;
    }
    Path tmp = null;
    try {
      tmp = Files.createTempFile("acf-edit-", ".acf");
      Files.writeString(tmp, text + "\n", StandardCharsets.UTF_8);
      Process p = new ProcessBuilder("sh", "-c", editor + " \"$0\"", tmp.toString())
          .inheritIO().start();
      int status = p.waitFor();
      if (status != 0) {
        throw new ReplError("the editor (" + editor + ") exited with status " + status
            + "; nothing changed");
      }
      String edited = Files.readString(tmp, StandardCharsets.UTF_8);
      if (edited.strip().equals(text.strip())) {
        out.append("unchanged\n");
        return;
      }
      submit(edited);
    } catch (IOException e) {
      throw new ReplError("cannot run the editor (" + editor + "): " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ReplError("interrupted while the editor ran; nothing changed");
    } finally {
      if (tmp != null) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
          // a temporary file left behind is harmless
        }
      }
    }
  }

  private void diff() {
    if (runSource == null) {
      throw new ReplError("no program has run yet (:program, :run); :show prints the productions");
    }
    List<String> lines = ProductionEdits.diff(runSource, workspace.source());
    if (lines.isEmpty()) {
      out.append("no changes since the program started with these productions\n");
      return;
    }
    lines.forEach(l -> out.append(l).append('\n'));
  }

  private ProductionSet requireSet() {
    ProductionSet s = workspace.set();
    if (s == null) {
      throw new ReplError("no productions yet (type one, or :load FILE)");
    }
    return s;
  }

  // ------------------------------------------------------------------ the program

  private void program(List<String> args) {
    if (args.isEmpty()) {
      throw new ReplError("usage: :program PATH [ARGS...]");
    }
    Path path = base.resolve(args.get(0));
    Machine m = loadMachine(args.get(0), path, args.subList(1, args.size()));
    install(m);
    programShown = args.get(0);
    programPath = path;
    programArgs = List.copyOf(args.subList(1, args.size()));
    out.append(String.format("loaded %s: entry 0x%x in %s, %d functions%n", programShown,
        m.cpu().pc, m.symbols().describe(m.cpu().pc), m.symbols().size()));
  }

  private void stdin(List<String> args) {
    if (args.size() > 1) {
      throw new ReplError("usage: :stdin [FILE | none]");
    }
    if (args.isEmpty()) {
      out.append(stdinShown == null ? "stdin: empty\n" : "stdin: " + stdinShown + "\n");
      return;
    }
    if (args.get(0).equals("none")) {
      stdinShown = null;
      out.append("stdin: empty\n");
      return;
    }
    Path file = base.resolve(args.get(0));
    if (!Files.isRegularFile(file)) {
      throw new ReplError(args.get(0) + ": no such file");
    }
    stdinShown = args.get(0);
    out.append("stdin: ").append(stdinShown)
        .append(" (from the next :program or :run)\n");
  }

  /** A fresh stream of the guest's stdin file, or an empty one. */
  private InputStream guestStdin() {
    if (stdinShown == null) {
      return InputStream.nullInputStream();
    }
    try {
      return Files.newInputStream(base.resolve(stdinShown));
    } catch (IOException e) {
      throw new ReplError(stdinShown + ": cannot read: " + e.getMessage());
    }
  }

  private Machine loadMachine(String shown, Path path, List<String> args) {
    if (!Files.exists(path)) {
      throw new ReplError(shown + ": no such file");
    }
    if (Files.isDirectory(path)) {
      throw new ReplError(shown + ": is a directory, not a program");
    }
    PrintStream notices = new PrintStream(guestOut, true, StandardCharsets.UTF_8);
    List<String> environment = env == null ? Machine.defaultEnv() : new ArrayList<>(env);
    Machine.Options options = new Machine.Options(new Sandbox(base), environment, 0x5eed,
        notices);
    try {
      // argv[0] is the path as typed, as a shell would pass it.
      boolean here = base.equals(Path.of("").toAbsolutePath());
      Machine m = Machine.load(here ? Path.of(shown) : path, args, options);
      m.kernel().setStdio(0, guestStdin(), null);
      m.kernel().setStdio(1, null, guestOut);
      m.kernel().setStdio(2, null, guestOut);
      return m;
    } catch (ElfException e) {
      throw new ReplError(shown + ": cannot run: " + e.getMessage());
    } catch (NoSuchFileException e) {
      throw new ReplError(shown + ": no such file");
    } catch (IOException e) {
      throw new ReplError(shown + ": cannot read: " + e.getMessage());
    }
  }

  private static String programName(Machine m) {
    return m.elf().path() == null ? "the program" : m.elf().path().toString();
  }

  /** Makes {@code m} the current machine, with the current productions and breakpoints. */
  private void install(Machine m) {
    ProductionSet s = workspace.set();
    DiseEngine e = null;
    if (s != null && !s.productions().isEmpty()) {
      try {
        // symbol(NAME) resolves against the program just loaded.
        e = new DiseEngine(SymbolBinding.bind(s, m.programSymbols(), programName(m)));
      } catch (SymbolBinding.UnresolvedSymbolsException x) {
        throw new ReplError(x.getMessage());
      } catch (IllegalArgumentException x) {
        throw new ReplError(x.getMessage());
      }
      e.install(m.cpu());
    }
    machine = m;
    engine = e;
    shadow.clear();
    insertedOffset = 0;
    engineVersion = workspace.version();
    runSource = workspace.source();
    stage = null;
    refreshStage();
    m.cpu().setBlockObserver(null);
    driver = null;
    TriggerSpec spec = effectiveTrigger();
    if (spec != null && e != null) {
      try {
        driver = new TriggerDriver(m, e, Triggers.create(spec, null), null);
      } catch (IllegalArgumentException x) {
        throw new ReplError("trigger " + spec.describe() + ": " + x.getMessage());
      }
    }
  }

  /** The trigger the next run uses: :trigger's, else the one the ACF declares, else none. */
  private TriggerSpec effectiveTrigger() {
    if (triggerOff) {
      return null;
    }
    if (triggerSet != null) {
      return triggerSet;
    }
    ProductionSet s = workspace.set();
    return s != null && s.triggers().size() == 1 ? TriggerSpec.of(s.triggers().get(0)) : null;
  }

  private void trigger(List<String> args) {
    if (args.isEmpty()) {
      TriggerSpec t = effectiveTrigger();
      if (t == null) {
        out.append(triggerOff ? "no trigger (:trigger none)\n"
            : "no trigger: the sampling flag is what the productions make it\n");
        return;
      }
      out.append("trigger ").append(t.describe()).append(triggerSet == null ? " (the ACF's)" : "")
          .append(", interval ").append(String.format("%,d", t.interval()));
      t.params().entrySet().stream().sorted(Map.Entry.comparingByKey())
          .filter(p -> !p.getKey().equals("interval"))
          .forEach(p -> out.append(", ").append(p.getKey()).append('=').append(p.getValue()));
      out.append('\n');
      return;
    }
    if (args.size() == 1 && args.get(0).equals("none")) {
      triggerOff = true;
      triggerSet = null;
      out.append("no trigger").append(applyTrigger()).append('\n');
      return;
    }
    TriggerSpec spec;
    List<String> params;
    try {
      if (args.get(0).equals("set")) {
        spec = effectiveTrigger();
        if (spec == null) {
          throw new ReplError("no trigger to change (:trigger STRATEGY first)");
        }
        params = args.subList(1, args.size());
        if (params.isEmpty()) {
          throw new ReplError("usage: :trigger set NAME=VALUE...");
        }
      } else {
        spec = TriggerSpec.parse(args.get(0));
        params = args.subList(1, args.size());
      }
      for (String p : params) {
        int eq = p.indexOf('=');
        if (eq <= 0) {
          throw new ReplError("'" + p + "' is not NAME=VALUE");
        }
        String name = p.substring(0, eq);
        String value = p.substring(eq + 1);
        if (name.equals("interval")) {
          value = Long.toString(Triggers.parseCount("interval", value));
        }
        spec = spec.with(name, value);
      }
      Triggers.check(spec);
    } catch (IllegalArgumentException x) {
      throw new ReplError("trigger: " + x.getMessage());
    }
    if (spec.needsFirstPass()) {
      throw new ReplError("trigger " + spec.describe() + " is an oracle that needs a first pass"
          + " over the program; use acf run --sampling for it");
    }
    triggerSet = spec;
    triggerOff = false;
    out.append("trigger ").append(spec.describe()).append(", interval ")
        .append(String.format("%,d", spec.interval())).append(applyTrigger()).append('\n');
  }

  /**
   * Applies a change of trigger at once when the program has not started (re-installing it),
   * and says when the change takes effect.
   */
  private String applyTrigger() {
    if (machine != null && machine.cpu().instret() == 0) {
      install(machine);
      return " (now: the program has not started)";
    }
    return machine == null ? "" : " (from the next :run)";
  }

  private void phases() {
    if (driver == null) {
      throw new ReplError("no trigger is running (:trigger sets one, then :program or :run)");
    }
    TriggerDriver d = driver;
    String name = effectiveTrigger() == null ? d.trigger().component()
        : effectiveTrigger().describe();
    if (d.finished()) {
      out.append(String.format("trigger %s, interval %,d: the run ended after %,d intervals,"
          + " %,d sampled (%.1f%% of the instructions)%n", name, d.trigger().interval(),
          d.intervals(), d.sampledIntervals(), 100 * d.sampledFraction()));
    } else {
      out.append(String.format("trigger %s, interval %,d: %,d intervals done; interval %,d is"
          + " %s, %,d instructions in%n", name, d.trigger().interval(), d.intervals(),
          d.intervals(), d.sampling() ? "sampled" : "not sampled", d.intoInterval()));
    }
    if (d.trigger() instanceof PhaseAwareTrigger p) {
      PhaseTracker t = p.tracker();
      out.append(String.format("phase tracker: %d phases, next interval predicted %s,"
          + " prediction accuracy %.1f%%%n", t.phaseCount(),
          t.intervals() == 0 ? "-" : Integer.toString(t.predictedNext()),
          100 * t.predictionAccuracy()));
      List<PhaseTable.Row> rows = p.table().rows();
      out.append(String.format("phase table (%d of %d entries):%n", rows.size(),
          p.table().size()));
      out.append("  phase  sampled  intervals\n");
      for (PhaseTable.Row r : rows) {
        out.append(String.format("  %5d  %-7s  %,9d%n", r.phase(), r.sampled() ? "yes" : "no",
            r.count()));
      }
      long n = t.intervals();
      if (n > 0) {
        out.append("last intervals (interval phase predicted sampled):\n");
        for (long i = Math.max(0, n - PHASE_TRACE_SHOWN); i < n; i++) {
          out.append(String.format("  %5d  %5d  %9s  %s%n", i, t.phase(i),
              t.predicted(i) < 0 ? "-" : Integer.toString(t.predicted(i)),
              d.sampled(i) ? "yes" : "no"));
        }
      }
    }
  }

  /**
   * Puts the engine, breakpoints, conditions and the shadow stack in the decode stage (re-decoding
   * what was cached). Conditions are parsed again against the running set: a production's index
   * may differ in a changed set, and one whose label is gone is dropped.
   */
  private void refreshStage() {
    if (machine == null) {
      return;
    }
    conditions.clear();
    for (java.util.Iterator<String> it = conditionTexts.iterator(); it.hasNext(); ) {
      String text = it.next();
      try {
        conditions.add(condition(text));
      } catch (ReplError e) {
        it.remove();
        out.append("(condition `").append(text).append("` dropped: ").append(e.getMessage())
            .append(")\n");
      }
    }
    stage = new BreakpointStage(engine, breakpoints, conditions, shadow);
    machine.cpu().setDecodeStage(stage);
  }

  private BreakCondition condition(String text) {
    if (engine == null) {
      throw new ReplError("a condition on productions and counters needs a program running"
          + " under productions");
    }
    List<org.dise.runtime.dise.Production> ps = engine.productionSet().productions();
    return BreakCondition.parse(text, label -> {
      for (int i = 0; i < ps.size(); i++) {
        if (ps.get(i).name().equalsIgnoreCase(label)) {
          return i;
        }
      }
      return -1;
    }, engine.hps().count());
  }

  private Machine requireProgram() {
    if (machine == null) {
      throw new ReplError("no program (:program PATH ARGS...)");
    }
    return machine;
  }

  private void run() {
    requireProgram();
    install(loadMachine(programShown, programPath, programArgs));
    resume(Long.MAX_VALUE, -1);
  }

  /** Runs at most {@code steps} instructions, or until {@code until} (-1: none) is reached. */
  private void resume(long steps, long until) {
    Machine m = requireProgram();
    Cpu cpu = m.cpu();
    if (cpu.halted() || cpu.fault() != null) {
      throw new ReplError("the program has " + (cpu.halted() ? "exited" : "faulted")
          + "; :run starts it again");
    }
    if (cpu.instret() == 0 && engineVersion != workspace.version()) {
      install(m); // not started yet: it runs under the productions as they are now
    }
    boolean temporary = until >= 0 && breakpoints.add(until);
    if (temporary) {
      refreshStage();
    }
    if (stage != null) {
      stage.resumeAt(cpu.pc);
    }
    long before = applicationInstructions();
    StopReason r;
    long hit;
    BreakCondition fired;
    running = cpu;
    try {
      r = runSliced(cpu, steps);
      hit = stage != null && stage.hit() == cpu.pc ? stage.hit() : -1;
      fired = stage == null ? null : stage.fired();
    } finally {
      running = null;
      if (temporary) {
        breakpoints.remove(until);
        refreshStage();
      }
    }
    flushGuest();
    long ran = applicationInstructions() - before;
    switch (r) {
      case EXITED -> out.append(String.format("program exited with status %d after %s%n",
          cpu.exitCode(), instructionCount()));
      case FAULT -> out.append(m.faultReport(cpu.fault())).append('\n');
      case STEP_LIMIT -> {
        out.append(String.format("stopped after %,d instructions (%s in all)%n", ran,
            instructionCount()));
        out.append(inspection.pcLine(m)).append('\n');
      }
      case BREAKPOINT, INTERRUPTED -> {
        if (fired != null) {
          out.append(String.format("stopped: %s%s, after %s%n", fired.text,
              hit >= 0 ? " (before it runs)" : " (after the instruction that made it so)",
              instructionCount()));
        } else if (hit >= 0 && hit == until) {
          out.append(String.format("reached %s after %s%n", m.symbols().describe(hit),
              instructionCount()));
        } else if (hit >= 0) {
          out.append(String.format("breakpoint at %s after %s%n", m.symbols().describe(hit),
              instructionCount()));
        } else {
          out.append(String.format("interrupted after %s%n", instructionCount()));
        }
        out.append(inspection.pcLine(m)).append('\n');
      }
    }
  }

  /**
   * The program's application instructions: what the cost report counts, without the
   * instructions that replacement sequences inserted (spec/engine.md).
   */
  private long applicationInstructions() {
    long all = machine.cpu().instret();
    return all - (engine == null ? insertedOffset : engine.cost().insertedInstructions());
  }

  /** {@code 40,277 instructions}, with {@code (+49,414 inserted)} when productions inserted some. */
  private String instructionCount() {
    long inserted = engine == null ? insertedOffset : engine.cost().insertedInstructions();
    return String.format("%,d instructions", applicationInstructions())
        + (inserted > 0 ? String.format(" (+%,d inserted)", inserted) : "");
  }

  /**
   * Runs in slices and checks for Ctrl-C between them: {@link Cpu#run} clears a pending
   * interrupt request when it starts, so a request that lands just before that would be lost.
   */
  private StopReason runSliced(Cpu cpu, long steps) {
    long start = applicationInstructions();
    while (true) {
      if (interruptRequested) {
        return StopReason.INTERRUPTED;
      }
      // A step limit counts application instructions: inserted ones retire too, so a slice
      // of `left` retired instructions can never pass the limit, and may fall short of it.
      long left = steps - (applicationInstructions() - start);
      StopReason r = driver != null ? driver.advance(Math.min(left, SLICE))
          : cpu.run(Math.min(left, SLICE));
      if (driver != null && (r == StopReason.EXITED || r == StopReason.FAULT)) {
        driver.finish(); // the last interval ends with the program
      }
      if (r != StopReason.STEP_LIMIT || applicationInstructions() - start >= steps) {
        return r;
      }
    }
  }

  private void flushGuest() {
    if (guestOut.size() > 0) {
      String s = guestOut.toString(StandardCharsets.UTF_8);
      guestOut.reset();
      out.append(s);
      if (!s.endsWith("\n")) {
        out.append('\n');
      }
    }
  }

  private void env(List<String> args) {
    if (args.isEmpty()) {
      if (env == null) {
        out.append("empty environment (the default, the same on every host)\n");
      } else if (env.isEmpty()) {
        out.append("empty environment\n");
      }
      (env == null ? Machine.DEFAULT_ENV : env).forEach(v -> out.append(v).append('\n'));
      return;
    }
    List<String> next = env == null ? Machine.defaultEnv() : new ArrayList<>(env);
    for (String a : args) {
      if (a.equals("clear")) {
        next.clear();
      } else if (a.equals("host")) {
        next = new ArrayList<>(Machine.hostEnv());
      } else if (a.indexOf('=') > 0) {
        String name = a.substring(0, a.indexOf('=') + 1);
        next.removeIf(v -> v.startsWith(name));
        next.add(a);
      } else {
        throw new ReplError("usage: :env [clear | host | NAME=VALUE...]");
      }
    }
    env = next;
    out.append(String.format("guest environment: %d variables (from the next :program or"
        + " :run)%n", env.size()));
  }

  // ------------------------------------------------------------------ breakpoints

  private void breakCommand(List<String> args) {
    if (args.isEmpty()) {
      if (breakpoints.isEmpty() && conditionTexts.isEmpty()) {
        out.append("no breakpoints\n");
      }
      for (long b : breakpoints) {
        out.append(String.format("breakpoint at 0x%x %s%n", b,
            machine == null ? "" : machine.symbols().describe(b)));
      }
      for (int i = 0; i < conditionTexts.size(); i++) {
        out.append("when ").append(i + 1).append(": ").append(conditionTexts.get(i))
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
    requireProgram();
    long a = address(where);
    if (!breakpoints.add(a)) {
      throw new ReplError(String.format("there is already a breakpoint at 0x%x", a));
    }
    refreshStage();
    out.append(String.format("breakpoint at 0x%x %s%n", a, machine.symbols().describe(a)));
  }

  private static final java.util.regex.Pattern PC_IS = java.util.regex.Pattern.compile(
      "pc\\s*==\\s*(?:symbol\\(\\s*([^)\\s]+)\\s*\\)|(\\S+))");

  /** {@code :break when EXPR}: an address as a condition, or a condition on the engine. */
  private void breakWhen(String expr) {
    if (expr.isBlank()) {
      throw new ReplError("usage: :break when EXPR (a production label, counter N == V,"
          + " zero_N, overflow_N, pc == symbol(f))");
    }
    java.util.regex.Matcher m = PC_IS.matcher(expr.strip());
    if (m.matches()) {
      addBreakpoint(m.group(1) != null ? m.group(1) : m.group(2));
      return;
    }
    requireProgram();
    BreakCondition c = condition(expr);
    if (conditionTexts.stream().anyMatch(t -> t.equals(c.text) || t.equals(expr.strip()))) {
      throw new ReplError("there is already a breakpoint when " + expr.strip());
    }
    conditionTexts.add(expr.strip());
    conditions.add(c);
    out.append("when ").append(conditionTexts.size()).append(": ").append(expr.strip())
        .append(c.state(engine.hps()) != null ? " (stops when it becomes true)\n"
            : " (stops before each instruction it matches)\n");
  }

  private void delete(List<String> args) {
    if (args.size() == 2 && args.get(0).equals("when")) {
      long n = number(args.get(1));
      if (n < 1 || n > conditionTexts.size()) {
        throw new ReplError("no condition " + n + " (:break lists them)");
      }
      String text = conditionTexts.remove((int) n - 1);
      refreshStage();
      out.append("deleted when ").append(n).append(": ").append(text).append('\n');
      return;
    }
    if (args.size() != 1) {
      throw new ReplError("usage: :delete SYMBOL|ADDR|all | :delete when N");
    }
    if (args.get(0).equals("all")) {
      int n = breakpoints.size() + conditionTexts.size();
      out.append(n).append(n == 1 ? " breakpoint" : " breakpoints").append(" deleted\n");
      breakpoints.clear();
      conditionTexts.clear();
      conditions.clear();
    } else {
      requireProgram();
      long a = address(args.get(0));
      if (!breakpoints.remove(a)) {
        throw new ReplError(String.format("no breakpoint at 0x%x", a));
      }
      out.append(String.format("deleted breakpoint at 0x%x%n", a));
    }
    refreshStage();
  }

  // ------------------------------------------------------------------ inspection

  private void profile() {
    if (engine == null) {
      throw new ReplError(workspace.set() == null ? "no productions, so no profile"
          : "no program has run under these productions (:program, :run)");
    }
    SymbolTable symbols = machine.symbols();
    if (engineVersion != workspace.version()) {
      out.append("(from the productions the program started with)\n");
    }
    for (Sink s : engine.sinks()) {
      // The same table as acf run and acf report print: heading, shares, symbol names.
      for (String line : ProfileFormats.terminal(s.name(), s.table(symbols), PROFILE_TOP)) {
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

  private void writeOut(List<String> args) {
    if (args.size() != 1) {
      throw new ReplError("usage: :out DIR");
    }
    if (engine == null) {
      throw new ReplError(workspace.set() == null ? "no productions, so no profile"
          : "no program has run under these productions (:program, :run)");
    }
    Path dir = base.resolve(args.get(0));
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      throw new ReplError(args.get(0) + ": not a folder");
    }
    Cpu cpu = machine.cpu();
    try {
      org.dise.repl.RunOutputs.write(engine, machine.symbols(), dir,
          cpu.halted() ? cpu.exitCode() : -1);
    } catch (org.dise.repl.UserError e) {
      throw new ReplError(e.getMessage().replace("--out ", ":out "));
    }
    int n = engine.sinks().size();
    out.append(String.format("wrote %d %s and summary.json to %s (acf report %s prints them)%n",
        n, n == 1 ? "profile" : "profiles", args.get(0), args.get(0)));
  }

  // ------------------------------------------------------------------ arguments

  /** An address: a number, a function name, or {@code name+offset}. */
  private long address(String s) {
    if (!s.isEmpty() && Character.isDigit(s.charAt(0))) {
      return number(s);
    }
    Machine m = requireProgram();
    if (s.startsWith("$")) {
      // A register's value, as gdb writes it: $sp, $a0, $pc, $dr1 (with +offset).
      int plus = s.indexOf('+');
      String reg = (plus < 0 ? s : s.substring(0, plus)).substring(1);
      long off = plus < 0 ? 0 : number(s.substring(plus + 1));
      if (reg.equalsIgnoreCase("pc")) {
        return m.cpu().pc + off;
      }
      if (reg.toLowerCase(Locale.ROOT).matches("dr[0-7]")) {
        return m.cpu().x[Cpu.DISE_REG_BASE + (reg.charAt(2) - '0')] + off;
      }
      int r;
      try {
        r = Registers.xByName(reg);
      } catch (RuntimeException e) {
        r = -1;
      }
      if (r < 0 || r >= 32) {
        throw new ReplError("no register named " + reg + " (write $sp, $a0, $pc, $dr0...)");
      }
      return m.cpu().x[r] + off;
    }
    String name = s;
    long offset = 0;
    int plus = s.lastIndexOf('+');
    if (plus > 0) {
      name = s.substring(0, plus);
      offset = number(s.substring(plus + 1));
    }
    Optional<Symbol> sym = m.symbols().byName(name);
    if (sym.isEmpty()) {
      throw new ReplError("no function named " + name + " in " + programShown);
    }
    return sym.get().address() + offset;
  }

  private long value(String s) {
    if (!s.isEmpty() && (Character.isDigit(s.charAt(0)) || s.charAt(0) == '-')) {
      return number(s);
    }
    return address(s);
  }

  static long number(String s) {
    try {
      if (s.startsWith("0x") || s.startsWith("0X")) {
        return Long.parseUnsignedLong(s.substring(2).replace("_", ""), 16);
      }
      return Long.parseLong(s.replace("_", ""));
    } catch (NumberFormatException e) {
      throw new ReplError("not a number: " + s);
    }
  }

  /** Words separated by spaces; double or single quotes group words. */
  static List<String> split(String s) {
    List<String> words = new ArrayList<>();
    StringBuilder w = new StringBuilder();
    boolean inWord = false;
    char quote = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else {
          w.append(c);
        }
      } else if (c == '"' || c == '\'') {
        quote = c;
        inWord = true;
      } else if (Character.isWhitespace(c)) {
        if (inWord) {
          words.add(w.toString());
          w.setLength(0);
          inWord = false;
        }
      } else {
        w.append(c);
        inWord = true;
      }
    }
    if (quote != 0) {
      throw new ReplError("unterminated quote");
    }
    if (inWord) {
      words.add(w.toString());
    }
    return words;
  }
}
