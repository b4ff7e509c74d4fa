package org.dise.runtime.dise;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * A lowered production set: the pattern table (productions in composition order), the replacement
 * table, HPS counter and register initial values, sink and trigger bindings, the stall a
 * replacement costs and the hardware budget it must fit. What the engine runs and what a deployable
 * configuration holds.
 */
public record ProductionSet(
    List<Production> productions,
    List<ReplacementSequence> replacements,
    List<CounterSpec> counters,
    List<Long> hpsRegisters,
    List<SinkBinding> sinks,
    List<TriggerBinding> triggers,
    int stallCycles,
    HardwareBudget budget) {

  /** The paper's stall per replacement (Section 3.1: "DISE imposes a 1 cycle delay"). */
  public static final int DEFAULT_STALL_CYCLES = 1;

  public ProductionSet {
    productions = List.copyOf(productions);
    replacements = List.copyOf(replacements);
    counters = List.copyOf(counters);
    hpsRegisters = List.copyOf(hpsRegisters);
    sinks = List.copyOf(sinks);
    triggers = List.copyOf(triggers);
  }

  /** The distinct counter flags the patterns read, in production order (the CT's inputs). */
  public List<PatternExpr.Flag> flagInputs() {
    List<PatternExpr.Flag> flags = new ArrayList<>();
    for (Production p : productions) {
      PatternExpr.flagsOf(p.pattern(), flags);
    }
    return flags;
  }

  /** Every counter index a flag, a micro-op or a declaration names. */
  public TreeSet<Integer> counterIndices() {
    TreeSet<Integer> out = new TreeSet<>();
    counters.forEach(c -> out.add(c.index()));
    flagInputs().forEach(f -> out.add(f.counter()));
    productions.forEach(p -> p.control().forEach(m -> out.add(m.counter())));
    return out;
  }

  /**
   * The program symbols the patterns and replacement code name, in production then table order,
   * each once per place it is written; empty once {@link SymbolBinding} has resolved them.
   */
  public List<SymbolRef> symbols() {
    List<SymbolRef> out = new ArrayList<>();
    for (Production p : productions) {
      symbolsOf(p.pattern(), out);
    }
    for (ReplacementSequence s : replacements) {
      for (ReplacementInsn r : s.body()) {
        for (Slot sl : slotsOf(r)) {
          if (sl.kind() == Slot.Kind.SYMBOL) {
            out.add(sl.symbol());
          }
        }
      }
    }
    for (SinkBinding k : sinks) {
      new java.util.TreeMap<>(k.params())
          .values()
          .forEach(v -> SymbolRef.fromParam(v).ifPresent(out::add));
    }
    for (TriggerBinding t : triggers) {
      new java.util.TreeMap<>(t.params())
          .values()
          .forEach(v -> SymbolRef.fromParam(v).ifPresent(out::add));
    }
    return out;
  }

  /**
   * The program symbols the patterns name, each once per place it is written: after {@link
   * SymbolBinding#bindDeferring}, those of libraries not loaded yet, which an engine binds when
   * they load.
   */
  public List<SymbolRef> patternSymbols() {
    List<SymbolRef> out = new ArrayList<>();
    for (Production p : productions) {
      symbolsOf(p.pattern(), out);
    }
    return out;
  }

  static void symbolsOf(PatternExpr e, java.util.Collection<SymbolRef> out) {
    if (e instanceof PatternExpr.SymbolAddr s) {
      out.add(s.ref());
    } else if (e instanceof PatternExpr.Unary u) {
      symbolsOf(u.operand(), out);
    } else if (e instanceof PatternExpr.Binary b) {
      symbolsOf(b.left(), out);
      symbolsOf(b.right(), out);
    }
  }

  /** Every operand slot of a replacement-table entry. */
  static List<Slot> slotsOf(ReplacementInsn r) {
    List<Slot> slots = new ArrayList<>();
    if (r instanceof ReplacementInsn.Insn i) {
      slots.addAll(List.of(i.rd(), i.rs1(), i.rs2(), i.rs3(), i.imm()));
    } else if (r instanceof ReplacementInsn.LoadImmediate li) {
      slots.addAll(List.of(li.rd(), li.value()));
    } else if (r instanceof ReplacementInsn.Call c) {
      c.args().forEach(a -> slots.add(a.slot()));
    }
    return slots;
  }

  /** One more than the highest DISE register replacement code names (0 when none). */
  public int diseRegistersUsed() {
    int max = 0;
    for (ReplacementSequence s : replacements) {
      for (ReplacementInsn r : s.body()) {
        List<Slot> slots = new ArrayList<>();
        if (r instanceof ReplacementInsn.Insn i) {
          slots.addAll(List.of(i.rd(), i.rs1(), i.rs2(), i.rs3()));
        } else if (r instanceof ReplacementInsn.LoadImmediate li) {
          slots.add(li.rd());
        } else if (r instanceof ReplacementInsn.Call c) {
          c.args().forEach(a -> slots.add(a.slot()));
          slots.add(c.result());
        }
        for (Slot sl : slots) {
          if (sl.kind() == Slot.Kind.DISE) {
            max = Math.max(max, (int) sl.value() + 1);
          }
        }
      }
    }
    return max;
  }
}
