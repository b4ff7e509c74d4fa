package org.dise.runtime.dise.config;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.dise.runtime.dise.CounterSpec;
import org.dise.runtime.dise.HardwareBudget;
import org.dise.runtime.dise.PatternExpr;
import org.dise.runtime.dise.Production;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.ReplacementInsn;
import org.dise.runtime.dise.ReplacementSequence;
import org.dise.runtime.dise.SymbolRef;
import org.dise.runtime.sink.SinkBinding;
import org.dise.runtime.trigger.TriggerBinding;

/** What {@code acf inspect} prints: a deployable configuration's tables, readably. */
public final class ConfigPrinter {
  private ConfigPrinter() {}

  public static String describe(DeployableConfig c, int fileBytes) {
    return describe(c, fileBytes, ConfigFormat.VERSION);
  }

  /** As {@link #describe(DeployableConfig, int)}, for a file of format {@code version}. */
  public static String describe(DeployableConfig c, int fileBytes, int version) {
    ProductionSet s = c.productions();
    StringBuilder b = new StringBuilder();
    b.append(
        String.format(
            "DISE configuration, format version %d, %,d bytes, checksum ok%n", version, fileBytes));
    b.append("source: ").append(c.source()).append('\n');
    DeployableConfig.Provenance prov = c.provenance();
    b.append("compiler: ")
        .append(prov.compilerVersion().isEmpty() ? "not recorded" : prov.compilerVersion())
        .append('\n');
    for (DeployableConfig.SourceHash h : prov.sources()) {
      b.append("source sha256: ").append(h.sha256()).append("  ").append(h.path()).append('\n');
    }
    List<SymbolRef> symbols = s.symbols();
    if (!symbols.isEmpty()) {
      // Resolved against the program at load, so the same file serves every build of it.
      b.append("program symbols (resolved when the program is loaded): ");
      b.append(
              symbols.stream()
                  .map(r -> r.spelling() + (r.origin().isEmpty() ? "" : " at " + r.origin()))
                  .distinct()
                  .collect(Collectors.joining(", ")))
          .append('\n');
    }
    HardwareBudget h = s.budget();
    int rt = s.replacements().stream().mapToInt(HardwareBudget::entries).sum();
    b.append(
        String.format(
            "budget: PT %d/%d, RT %d/%d entries of %d bytes, CT %d flags/%d"
                + " entries, counters %d (max %d bits), HPS registers %d/%d, DISE registers %d/%d%n",
            s.productions().size(),
            h.patternEntries(),
            rt,
            h.replacementEntries(),
            h.replacementEntryBytes(),
            s.flagInputs().size(),
            h.conditionalEntries(),
            h.counters(),
            h.maxCounterWidth(),
            s.hpsRegisters().size(),
            h.hpsRegisters(),
            s.diseRegistersUsed(),
            h.diseRegisters()));
    b.append("stall per replacement: ")
        .append(s.stallCycles())
        .append(s.stallCycles() == 1 ? " cycle\n" : " cycles\n");
    b.append("\npattern table (").append(s.productions().size()).append(")\n");
    for (int i = 0; i < s.productions().size(); i++) {
      Production p = s.productions().get(i);
      String control = p.control().stream().map(Object::toString).collect(Collectors.joining(", "));
      String rep = p.replacement() < 0 ? "null" : s.replacements().get(p.replacement()).name();
      b.append(
          String.format(
              "  %2d  acf %d  %s: %s -> %s%s%s%n",
              i,
              p.acf(),
              p.name(),
              expr(p.pattern()),
              control.isEmpty() ? "" : control + ", ",
              rep,
              p.tag() < 0 ? "" : ", tag(" + s.sinks().get(p.tag()).name() + ")"));
    }
    b.append("\nconditionals table inputs: ").append(s.flagInputs()).append('\n');
    b.append("\nreplacement table (").append(s.replacements().size()).append(")\n");
    for (ReplacementSequence r : s.replacements()) {
      b.append(String.format("  %s (%d entries)%n", r.name(), HardwareBudget.entries(r)));
      for (int i = 0; i < r.body().size(); i++) {
        b.append(String.format("    %2d  %s%n", i, insn(r.body().get(i), s)));
      }
    }
    // An empty section says so, rather than a heading over nothing.
    b.append(s.counters().isEmpty() ? "\nHPS counters: none\n" : "\nHPS counters\n");
    for (CounterSpec k : s.counters()) {
      b.append(String.format("  counter %d: %d bits, init %d%n", k.index(), k.width(), k.init()));
    }
    b.append(hpsRegisters(s));
    b.append(s.sinks().isEmpty() ? "\nsinks: none\n" : "\nsinks\n");
    for (SinkBinding k : s.sinks()) {
      b.append(
          String.format(
              "  %s -> %s, %d cycles per call %s%n",
              k.name(), k.component(), k.cost(), new java.util.TreeMap<>(k.params())));
    }
    b.append(s.triggers().isEmpty() ? "triggers: none\n" : "triggers\n");
    for (TriggerBinding t : s.triggers()) {
      b.append(
          String.format(
              "  %s -> %s %s%n", t.name(), t.component(), new java.util.TreeMap<>(t.params())));
    }
    return b.toString();
  }

  /**
   * The same figures as {@link #describe(DeployableConfig, int, int)} as data (maps, lists,
   * strings, numbers) for {@code acf inspect --format json}: one place decides what a configuration
   * shows, whatever the format.
   */
  public static java.util.Map<String, Object> figures(
      DeployableConfig c, int fileBytes, int version) {
    ProductionSet s = c.productions();
    java.util.Map<String, Object> m = new java.util.LinkedHashMap<>();
    m.put("format_version", version);
    m.put("bytes", fileBytes);
    m.put("source", c.source());
    DeployableConfig.Provenance prov = c.provenance();
    m.put("compiler", prov.compilerVersion().isEmpty() ? null : prov.compilerVersion());
    m.put(
        "sources",
        prov.sources().stream()
            .map(h -> (Object) java.util.Map.of("path", h.path(), "sha256", h.sha256()))
            .toList());
    m.put(
        "program_symbols",
        s.symbols().stream().map(SymbolRef::spelling).distinct().map(x -> (Object) x).toList());
    HardwareBudget h = s.budget();
    java.util.Map<String, Object> budget = new java.util.LinkedHashMap<>();
    budget.put("pattern_entries", s.productions().size());
    budget.put("pattern_capacity", h.patternEntries());
    budget.put(
        "replacement_entries", s.replacements().stream().mapToInt(HardwareBudget::entries).sum());
    budget.put("replacement_capacity", h.replacementEntries());
    budget.put("replacement_entry_bytes", h.replacementEntryBytes());
    budget.put("conditional_flags", s.flagInputs().size());
    budget.put("conditional_capacity", h.conditionalEntries());
    budget.put("counters", h.counters());
    budget.put("max_counter_bits", h.maxCounterWidth());
    budget.put("hps_registers", s.hpsRegisters().size());
    budget.put("hps_register_capacity", h.hpsRegisters());
    budget.put("dise_registers", s.diseRegistersUsed());
    budget.put("dise_register_capacity", h.diseRegisters());
    m.put("budget", budget);
    m.put("stall_cycles", s.stallCycles());
    List<Object> patterns = new ArrayList<>();
    for (int i = 0; i < s.productions().size(); i++) {
      Production p = s.productions().get(i);
      patterns.add(
          object(
              "index", i,
              "acf", p.acf(),
              "name", p.name(),
              "pattern", expr(p.pattern()),
              "control", texts(p.control()),
              "replacement",
                  p.replacement() < 0 ? null : s.replacements().get(p.replacement()).name(),
              "tag", p.tag() < 0 ? null : s.sinks().get(p.tag()).name()));
    }
    m.put("patterns", patterns);
    m.put("conditional_inputs", texts(s.flagInputs()));
    List<Object> reps = new ArrayList<>();
    for (ReplacementSequence r : s.replacements()) {
      reps.add(
          object(
              "name", r.name(),
              "entries", HardwareBudget.entries(r),
              "body", r.body().stream().map(x -> (Object) insn(x, s)).toList()));
    }
    m.put("replacements", reps);
    List<Object> counters = new ArrayList<>();
    for (CounterSpec k : s.counters()) {
      counters.add(
          java.util.Map.of("index", k.index(), "bits", k.width(), "init", (Object) k.init()));
    }
    m.put("counters", counters);
    m.put("hps_registers", texts(s.hpsRegisters()));
    List<Object> sinks = new ArrayList<>();
    for (SinkBinding k : s.sinks()) {
      sinks.add(
          object(
              "name", k.name(),
              "component", k.component(),
              "cycles_per_call", k.cost(),
              "params", strings(k.params())));
    }
    m.put("sinks", sinks);
    List<Object> triggers = new ArrayList<>();
    for (TriggerBinding t : s.triggers()) {
      triggers.add(
          object("name", t.name(), "component", t.component(), "params", strings(t.params())));
    }
    m.put("triggers", triggers);
    return m;
  }

  /** A JSON object: {@code keysAndValues} alternate key and value, in the order they print. */
  private static java.util.Map<String, Object> object(Object... keysAndValues) {
    java.util.Map<String, Object> o = new java.util.LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      o.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return o;
  }

  /** Each element's {@code toString()}, as a JSON list. */
  private static List<Object> texts(List<?> values) {
    return values.stream().map(x -> (Object) x.toString()).toList();
  }

  private static java.util.Map<String, Object> strings(java.util.Map<?, ?> params) {
    java.util.Map<String, Object> out = new java.util.TreeMap<>();
    params.forEach((k, v) -> out.put(String.valueOf(k), String.valueOf(v)));
    return out;
  }

  /** A pattern in the language's notation, fully parenthesised below the top. */
  static String expr(PatternExpr e) {
    if (e instanceof PatternExpr.Const c) {
      return Long.toString(c.value());
    }
    if (e instanceof PatternExpr.Field f) {
      return "T." + f.field();
    }
    if (e instanceof PatternExpr.OpIs o) {
      return "T.OP == " + o.mnemonic();
    }
    if (e instanceof PatternExpr.ClassIs c) {
      return "T.OPCLASS == " + c.opClass().acfName();
    }
    if (e instanceof PatternExpr.Flag f) {
      return f.toString();
    }
    if (e instanceof PatternExpr.SymbolAddr y) {
      return y.ref().spelling();
    }
    if (e instanceof PatternExpr.Unary u) {
      String op =
          switch (u.op()) {
            case NOT -> "!";
            case NEG -> "-";
            case COMPLEMENT -> "~";
          };
      return op + sub(u.operand());
    }
    PatternExpr.Binary b = (PatternExpr.Binary) e;
    String op =
        switch (b.op()) {
          case MUL -> "*";
          case DIV -> "/";
          case REM -> "%";
          case ADD -> "+";
          case SUB -> "-";
          case SHL -> "<<";
          case SHR -> ">>";
          case BIT_AND -> "&";
          case BIT_XOR -> "^";
          case BIT_OR -> "|";
          case LT -> "<";
          case LE -> "<=";
          case GT -> ">";
          case GE -> ">=";
          case EQ -> "==";
          case NE -> "!=";
          case AND -> "&&";
          case OR -> "||";
        };
    return sub(b.left()) + " " + op + " " + sub(b.right());
  }

  private static String sub(PatternExpr e) {
    return e instanceof PatternExpr.Binary ? "(" + expr(e) + ")" : expr(e);
  }

  private static String insn(ReplacementInsn r, ProductionSet s) {
    if (r instanceof ReplacementInsn.Original) {
      return "T.INSN";
    }
    if (r instanceof ReplacementInsn.Call c) {
      List<String> args = new ArrayList<>();
      args.add(c.sink() < s.sinks().size() ? s.sinks().get(c.sink()).name() : "sink" + c.sink());
      c.args().forEach(a -> args.add(a.insn() ? "T.INSN" : a.slot().toString()));
      return (c.returns() ? c.result() + " = " : "") + "call(" + String.join(", ", args) + ")";
    }
    if (r instanceof ReplacementInsn.LoadImmediate li) {
      return "li " + li.rd() + ", " + li.value();
    }
    ReplacementInsn.Insn i = (ReplacementInsn.Insn) r;
    return String.format(
        "%s rd=%s rs1=%s rs2=%s rs3=%s imm=%s rm=%d%s",
        i.op().mnemonic(),
        i.rd(),
        i.rs1(),
        i.rs2(),
        i.rs3(),
        i.imm(),
        i.rm(),
        i.target() >= 0 ? " -> " + i.target() : "");
  }

  /**
   * The line that lists {@code s}'s HPS registers with their initial values ({@code HPS registers:
   * HPS_R0 = 0, HPS_R1 = 1}, or {@code none}): the config description's and the REPL's.
   */
  public static String hpsRegisters(ProductionSet s) {
    List<String> regs = new ArrayList<>();
    for (int i = 0; i < s.hpsRegisters().size(); i++) {
      regs.add("HPS_R" + i + " = " + s.hpsRegisters().get(i));
    }
    return "HPS registers: " + (regs.isEmpty() ? "none" : String.join(", ", regs)) + "\n";
  }
}
