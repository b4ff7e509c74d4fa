package org.dise.compiler.lower;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.dise.compiler.ast.Expr;
import org.dise.compiler.diag.Diagnostics;
import org.dise.compiler.diag.Span;
import org.dise.compiler.sem.CheckedAcf;
import org.dise.compiler.sem.CheckedMicroOp;
import org.dise.compiler.sem.CheckedProduction;
import org.dise.compiler.sem.CheckedProgram;
import org.dise.compiler.sem.CheckedReplacement;
import org.dise.compiler.sem.CheckedReplacement.Arg;
import org.dise.compiler.sem.CheckedReplacement.Stmt;
import org.dise.compiler.sem.Component;
import org.dise.compiler.sem.Counter;
import org.dise.compiler.sem.HpsRegister;
import org.dise.compiler.sem.InstructionField;
import org.dise.compiler.sem.Pattern;
import org.dise.compiler.sem.Value;
import org.dise.runtime.dise.CounterSpec;
import org.dise.runtime.dise.HardwareBudget;
import org.dise.runtime.dise.InsnField;
import org.dise.runtime.dise.MicroOp;
import org.dise.runtime.dise.PatternExpr;
import org.dise.runtime.dise.Production;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.ReplacementInsn;
import org.dise.runtime.dise.ReplacementSequence;
import org.dise.runtime.dise.Slot;
import org.dise.runtime.dise.SymbolRef;
import org.dise.runtime.isa.Csr;
import org.dise.runtime.isa.Isa;
import org.dise.runtime.isa.Op;
import org.dise.runtime.isa.OpClass;
import org.dise.runtime.isa.Operand;
import org.dise.runtime.isa.PseudoInstruction;
import org.dise.runtime.isa.RoundingMode;
import org.dise.runtime.sink.SinkBinding;
import org.dise.runtime.trigger.TriggerBinding;

/**
 * Lowers a checked program to the runtime's tables: the pattern table in composition order, the
 * replacement table (pseudo-instructions expanded, labels resolved to sequence indices), counter
 * and register initial values, sink and trigger bindings. Deterministic: the same program gives an
 * equal {@link ProductionSet}. Problems are reported to the diagnostics with their spans.
 */
public final class Lowering {
  private final Diagnostics diags;
  private final CheckedProgram program;
  private final Map<String, Integer> sinkIndex = new HashMap<>();
  private final List<ReplacementSequence> sequences = new ArrayList<>();

  /** One table entry per replacement, even when several ACF instances share its name. */
  private final Map<CheckedReplacement, Integer> sequenceIndex = new HashMap<>();

  private Lowering(CheckedProgram program, Diagnostics diags) {
    this.program = program;
    this.diags = diags;
  }

  /** The production set of {@code program}, or empty when lowering reported an error. */
  public static Optional<ProductionSet> lower(CheckedProgram program, Diagnostics diags) {
    int before = diags.errorCount();
    ProductionSet set = new Lowering(program, diags).run();
    return diags.errorCount() > before ? Optional.empty() : Optional.of(set);
  }

  private ProductionSet run() {
    List<SinkBinding> sinks = new ArrayList<>();
    for (Component c : program.sinks()) {
      sinkIndex.put(c.name(), sinks.size());
      Value cost = c.params().get("cost");
      sinks.add(
          new SinkBinding(
              c.name(),
              c.component(),
              cost instanceof Value.Int i
                  ? i.value()
                  : org.dise.runtime.dise.Catalogue.find(c.component())
                      .map(s -> s.defaultCost())
                      .orElse(0L),
              strings(c.params())));
    }
    List<TriggerBinding> triggers = new ArrayList<>();
    for (Component c : program.triggers()) {
      triggers.add(new TriggerBinding(c.name(), c.component(), strings(c.params())));
    }
    List<Production> productions = new ArrayList<>();
    List<CheckedAcf> acfs = program.acfs();
    for (int a = 0; a < acfs.size(); a++) {
      for (CheckedProduction p : acfs.get(a).productions()) {
        int repl = p.replacement().map(r -> sequence(r, acfs.size() > 1)).orElse(-1);
        int tag = p.tag().map(t -> sinkIndex.getOrDefault(t, -1)).orElse(-1);
        productions.add(
            new Production(p.name(), a, pattern(p.pattern()), control(p.control()), repl, tag));
      }
    }
    List<CounterSpec> counters = new ArrayList<>();
    for (Counter c : program.counters()) {
      counters.add(new CounterSpec(c.index(), c.width(), c.init()));
    }
    counters.sort((x, y) -> Integer.compare(x.index(), y.index()));
    // HPS_R0 holds 0 and HPS_R1 holds 1 unless redeclared (Section 3.4).
    Map<Integer, Long> regs = new HashMap<>(Map.of(0, 0L, 1, 1L));
    for (HpsRegister r : program.registers()) {
      regs.put(r.index(), r.init());
    }
    int nRegs = regs.keySet().stream().mapToInt(Integer::intValue).max().orElse(1) + 1;
    List<Long> registers = new ArrayList<>();
    for (int i = 0; i < nRegs; i++) {
      registers.add(regs.getOrDefault(i, 0L));
    }
    HardwareBudget budget = program.budget();
    return new ProductionSet(
        productions,
        sequences,
        counters,
        registers,
        sinks,
        triggers,
        ProductionSet.DEFAULT_STALL_CYCLES,
        budget);
  }

  private static Map<String, String> strings(Map<String, Value> params) {
    Map<String, String> out = new LinkedHashMap<>();
    params.forEach((k, v) -> out.put(k, Value.text(v)));
    return out;
  }

  // ---------------------------------------------------------------- patterns

  private PatternExpr pattern(Pattern p) {
    if (p instanceof Pattern.Const c) {
      return new PatternExpr.Const(c.value());
    }
    if (p instanceof Pattern.Bool b) {
      return b.value() ? PatternExpr.TRUE : PatternExpr.FALSE;
    }
    if (p instanceof Pattern.Field f) {
      return new PatternExpr.Field(field(f.field(), f.span()));
    }
    if (p instanceof Pattern.Flag f) {
      return new PatternExpr.Flag(f.flag() == Expr.Flag.OVERFLOW, f.counter());
    }
    if (p instanceof Pattern.SymbolAddr y) {
      return new PatternExpr.SymbolAddr(symbol(y.symbol(), y.end(), y.span()));
    }
    if (p instanceof Pattern.Unary u) {
      return new PatternExpr.Unary(
          PatternExpr.UnaryOp.valueOf(u.op().name()), pattern(u.operand()));
    }
    if (p instanceof Pattern.Binary b) {
      Expr.BinaryOp op = b.op();
      if (op == Expr.BinaryOp.EQ || op == Expr.BinaryOp.NE) {
        PatternExpr named = nameTest(b.left(), b.right());
        if (named == null) {
          named = nameTest(b.right(), b.left());
        }
        if (named != null) {
          return op == Expr.BinaryOp.EQ
              ? named
              : new PatternExpr.Unary(PatternExpr.UnaryOp.NOT, named);
        }
      }
      return new PatternExpr.Binary(
          PatternExpr.BinaryOp.valueOf(op.name()), pattern(b.left()), pattern(b.right()));
    }
    diags.error(p.span(), "this cannot be evaluated in the decode stage");
    return PatternExpr.FALSE;
  }

  /** {@code T.OP == name} or {@code T.OPCLASS == class}, or null. */
  private PatternExpr nameTest(Pattern field, Pattern name) {
    if (field instanceof Pattern.Field f
        && f.field() == InstructionField.OP
        && name instanceof Pattern.OpName n) {
      return new PatternExpr.OpIs(n.mnemonic());
    }
    if (field instanceof Pattern.Field f
        && f.field() == InstructionField.OPCLASS
        && name instanceof Pattern.OpClassName n) {
      OpClass c = OpClass.byAcfName(n.opClass());
      if (c == null) {
        diags.error(n.span(), "unknown opcode class `" + n.opClass() + "`");
        return PatternExpr.FALSE;
      }
      return new PatternExpr.ClassIs(c);
    }
    return null;
  }

  /** A program symbol, kept by name (resolved at load) with the place that names it. */
  private static SymbolRef symbol(String name, boolean end, Span span) {
    return new SymbolRef(name, end, span.isNone() ? "" : span.toString());
  }

  private InsnField field(InstructionField f, Span span) {
    if (!f.isStatic() && f != InstructionField.NEXT_PC && f != InstructionField.TID) {
      diags.error(span, f.spelling() + " exists only when the instruction executes");
      return InsnField.PC;
    }
    return InsnField.valueOf(f.name());
  }

  private static List<MicroOp> control(List<CheckedMicroOp> ops) {
    List<MicroOp> out = new ArrayList<>();
    for (CheckedMicroOp m : ops) {
      out.add(
          switch (m.kind()) {
            case INC -> MicroOp.inc(m.counter());
            case DEC -> MicroOp.dec(m.counter());
            case SET -> {
              CheckedMicroOp.Source s = m.source().orElseThrow();
              yield s instanceof CheckedMicroOp.Source.Register r
                  ? MicroOp.setFromRegister(m.counter(), r.index())
                  : MicroOp.setConstant(m.counter(), ((CheckedMicroOp.Source.Constant) s).value());
            }
          });
    }
    return out;
  }

  // ---------------------------------------------------------------- replacement sequences

  private int sequence(CheckedReplacement r, boolean merged) {
    Integer known = sequenceIndex.get(r);
    if (known != null) {
      return known;
    }
    Map<String, Integer> labels = new HashMap<>();
    int n = 0;
    for (Stmt s : r.body()) {
      if (s instanceof Stmt.Label l) {
        labels.put(l.name(), n);
      } else {
        n++;
      }
    }
    List<ReplacementInsn> body = new ArrayList<>();
    int original = -1;
    int originals = 0;
    for (Stmt s : r.body()) {
      if (s instanceof Stmt.Original) {
        original = body.size();
        originals++;
        body.add(new ReplacementInsn.Original());
      } else if (s instanceof Stmt.Call c) {
        body.add(call(c));
      } else if (s instanceof Stmt.Instruction i) {
        body.add(instruction(i, labels));
      }
    }
    if (merged) {
      checkMergeable(r, body, original, originals);
    }
    int index = sequences.size();
    sequences.add(new ReplacementSequence(r.name(), body));
    sequenceIndex.put(r, index);
    return index;
  }

  /** Merging splits a sequence at T.INSN, so no branch may cross it (spec/engine.md). */
  private void checkMergeable(
      CheckedReplacement r, List<ReplacementInsn> body, int original, int originals) {
    if (originals > 1) {
      diags.error(
          r.span(),
          "replacement `"
              + r.name()
              + "` runs T.INSN more than once, so it"
              + " cannot be merged with another active ACF's sequence");
      return;
    }
    for (int i = 0; i < body.size() && original >= 0; i++) {
      if (body.get(i) instanceof ReplacementInsn.Insn ins
          && ins.target() >= 0
          && (i < original) != (ins.target() <= original)) {
        diags.error(
            r.span(),
            "replacement `"
                + r.name()
                + "` branches across T.INSN, so it"
                + " cannot be merged with another active ACF's sequence");
        return;
      }
    }
  }

  private ReplacementInsn call(Stmt.Call c) {
    Integer sink = sinkIndex.get(c.sink());
    if (sink == null) {
      diags.error(c.span(), "`" + c.sink() + "` is not a bound sink");
      sink = 0;
    }
    List<ReplacementInsn.CallArg> args = new ArrayList<>();
    for (Arg a : c.args()) {
      args.add(
          a instanceof Arg.Insn
              ? new ReplacementInsn.CallArg(Slot.NONE, true)
              : new ReplacementInsn.CallArg(slot(a), false));
    }
    return new ReplacementInsn.Call(sink, args, c.result().map(this::slot).orElse(Slot.NONE));
  }

  private Slot slot(Arg a) {
    if (a instanceof Arg.XReg x) {
      return Slot.x(x.number());
    }
    if (a instanceof Arg.FReg f) {
      return Slot.f(f.number());
    }
    if (a instanceof Arg.DiseReg d) {
      return Slot.dise(d.number());
    }
    if (a instanceof Arg.Directive d) {
      return Slot.field(field(d.field(), d.span()));
    }
    if (a instanceof Arg.Imm i) {
      return Slot.constant(i.value());
    }
    if (a instanceof Arg.SymbolAddr y) {
      return Slot.symbol(symbol(y.symbol(), y.end(), y.span()));
    }
    diags.error(a.span(), "this operand cannot be lowered here");
    return Slot.NONE;
  }

  private ReplacementInsn instruction(Stmt.Instruction i, Map<String, Integer> labels) {
    String mnemonic = i.mnemonic().toLowerCase(Locale.ROOT);
    List<Arg> ops = i.operands();
    if (mnemonic.equals("li")) {
      return new ReplacementInsn.LoadImmediate(slot(ops.get(0)), slot(ops.get(1)));
    }
    Optional<PseudoInstruction> pseudo = PseudoInstruction.byMnemonic(mnemonic);
    if (pseudo.isPresent()) {
      List<Arg> args = Pseudos.operands(pseudo.get().baseOperands(), ops, i.span());
      return base(pseudo.get().baseMnemonic(), args, labels, i.span());
    }
    return base(mnemonic, ops, labels, i.span());
  }

  private ReplacementInsn base(
      String mnemonic, List<Arg> ops, Map<String, Integer> labels, Span span) {
    Op op = Isa.byMnemonic(mnemonic).orElse(null);
    if (op == null) {
      diags.error(span, "unknown instruction `" + mnemonic + "`");
      return new ReplacementInsn.Original();
    }
    if (op.compressed()) {
      diags.error(
          span,
          "compressed instructions cannot be inserted yet",
          "write the base instruction `" + op.base().mnemonic() + "`");
      return new ReplacementInsn.Original();
    }
    Slot rd = Slot.NONE;
    Slot rs1 = Slot.NONE;
    Slot rs2 = Slot.NONE;
    Slot rs3 = Slot.NONE;
    Slot imm = Slot.NONE;
    int rm = op.operands().contains(Operand.RM) ? 7 : 0; // dyn unless written
    int target = -1;
    List<Operand> kinds = op.operands();
    for (int k = 0; k < ops.size() && k < kinds.size(); k++) {
      Arg a = ops.get(k);
      switch (kinds.get(k)) {
        case RD, FRD -> rd = slot(a);
        case RS1, FRS1 -> rs1 = slot(a);
        case RS2, FRS2 -> rs2 = slot(a);
        case FRS3 -> rs3 = slot(a);
        case IMM, UIMM, SHAMT -> imm = slot(a);
        case ZIMM -> rs1 = slot(a);
        case MEM, AMO_ADDR -> {
          Arg.Mem m = (Arg.Mem) a;
          imm = m.offset() == null ? Slot.NONE : slot(m.offset());
          rs1 = slot(m.base());
        }
        case BRANCH_TARGET, JUMP_TARGET -> {
          if (a instanceof Arg.LabelRef l && labels.containsKey(l.name())) {
            target = labels.get(l.name());
          } else {
            diags.error(a.span(), "a branch in a replacement sequence goes to one of its labels");
          }
        }
        case CSR -> imm = Slot.constant(csr(a));
        case RM -> rm = roundingMode(a);
        case PRED, SUCC -> {} // fences have no effect on a single hart
      }
    }
    return new ReplacementInsn.Insn(op, rd, rs1, rs2, rs3, imm, rm, target);
  }

  private long csr(Arg a) {
    if (a instanceof Arg.Imm i) {
      return i.value();
    }
    String name = a instanceof Arg.Symbol s ? s.name().toLowerCase(Locale.ROOT) : "";
    Optional<Csr> c = Csr.byName(name);
    if (c.isEmpty()) {
      diags.error(
          a.span(),
          "unknown CSR `" + name + "`",
          "the emulator has "
              + String.join(", ", Csr.names().subList(0, Csr.names().size() - 1))
              + " and "
              + Csr.names().get(Csr.names().size() - 1));
      return 0;
    }
    return c.get().number();
  }

  private static int roundingMode(Arg a) {
    String name = a instanceof Arg.Symbol s ? s.name() : "dyn";
    return RoundingMode.byName(name).map(RoundingMode::encoding).orElse(-1);
  }
}
