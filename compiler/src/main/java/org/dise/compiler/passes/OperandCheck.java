package org.dise.compiler.passes;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.dise.compiler.diag.Diagnostics;
import org.dise.compiler.diag.Span;
import org.dise.compiler.diag.Suggest;
import org.dise.compiler.isa.InstructionTable;
import org.dise.compiler.sem.CheckedAcf;
import org.dise.compiler.sem.CheckedProduction;
import org.dise.compiler.sem.CheckedReplacement;
import org.dise.compiler.sem.CheckedReplacement.Arg;
import org.dise.compiler.sem.CheckedReplacement.Stmt;
import org.dise.compiler.sem.InstructionField;
import org.dise.runtime.isa.Operand;
import org.dise.runtime.isa.RoundingMode;

/**
 * Pass "operands": checks every replacement instruction against the instruction table (mnemonic,
 * number and kind of operands), the directives each position accepts, labels (defined once, and
 * every target defined), and call arguments.
 */
public final class OperandCheck {
  public static final String NAME = "operands";

  private final InstructionTable isa;
  private final Diagnostics diags;

  public OperandCheck(InstructionTable isa, Diagnostics diags) {
    this.isa = isa;
    this.diags = diags;
  }

  public void run(List<CheckedAcf> acfs) {
    Map<CheckedReplacement, Boolean> seen = new IdentityHashMap<>();
    for (CheckedAcf acf : acfs) {
      for (CheckedProduction p : acf.productions()) {
        p.replacement()
            .ifPresent(
                r -> {
                  if (seen.put(r, true) == null) {
                    check(r);
                  }
                });
      }
    }
  }

  private void check(CheckedReplacement r) {
    Map<String, Span> labels = new HashMap<>();
    for (Stmt s : r.body()) {
      if (s instanceof Stmt.Label l) {
        Span prior = labels.putIfAbsent(l.name(), l.span());
        if (prior != null) {
          diags.error(l.span(), "label `" + l.name() + "` is defined twice in `" + r.name() + "`");
        }
      }
    }
    for (Stmt s : r.body()) {
      if (s instanceof Stmt.Instruction i) {
        instruction(i, labels);
      } else if (s instanceof Stmt.Call c) {
        for (Arg a : c.args()) {
          callArg(a);
        }
        c.result().ifPresent(this::callArg);
      }
    }
  }

  private void callArg(Arg a) {
    if (a instanceof Arg.Invalid inv) {
      diags.error(a.span(), inv.what());
    } else if (a instanceof Arg.Mem || a instanceof Arg.LabelRef) {
      diags.error(a.span(), "a call argument is a register, a directive, `T.INSN` or a number");
    } else if (a instanceof Arg.Symbol sym) {
      diags.error(a.span(), "unknown name `" + sym.name() + "` in a call");
    }
  }

  private void instruction(Stmt.Instruction i, Map<String, Span> labels) {
    Optional<List<Operand>> sig = isa.operands(i.mnemonic());
    if (sig.isEmpty()) {
      List<String> names = new ArrayList<>(isa.mnemonics());
      names.sort(null);
      String hint = Suggest.didYouMean(i.mnemonic(), names);
      if (i.mnemonic().equals("call") || i.mnemonic().equals("tail")) {
        hint = "replacement code calls a profile sink with `call(sink, args...)`";
      }
      diags.error(i.span(), "unknown instruction `" + i.mnemonic() + "`", hint);
      return;
    }
    List<Operand> kinds = sig.get();
    int required = 0;
    for (Operand k : kinds) {
      if (k != Operand.RM && k != Operand.PRED && k != Operand.SUCC) {
        required++;
      }
    }
    List<Arg> ops = i.operands();
    if (ops.size() < required || ops.size() > kinds.size()) {
      diags.error(
          i.span(),
          "`"
              + i.mnemonic()
              + "` takes "
              + (required == kinds.size()
                  ? String.valueOf(required)
                  : required + " to " + kinds.size())
              + " operand"
              + (kinds.size() == 1 ? "" : "s")
              + ", not "
              + ops.size(),
          "`" + i.mnemonic() + (kinds.isEmpty() ? "" : " " + signature(kinds)) + "`");
      return;
    }
    for (int k = 0; k < ops.size(); k++) {
      operand(i.mnemonic(), k + 1, kinds.get(k), ops.get(k), labels);
    }
  }

  static String signature(List<Operand> kinds) {
    List<String> parts = new ArrayList<>();
    for (Operand k : kinds) {
      parts.add(
          switch (k) {
            case RD, RS1, RS2 -> "reg";
            case FRD, FRS1, FRS2, FRS3 -> "freg";
            case IMM, UIMM, SHAMT, ZIMM -> "imm";
            case MEM -> "offset(reg)";
            case AMO_ADDR -> "(reg)";
            case BRANCH_TARGET, JUMP_TARGET -> ".label";
            case CSR -> "csr";
            case RM -> "[rm]";
            case PRED, SUCC -> "[iorw]";
          });
    }
    return String.join(", ", parts);
  }

  private void operand(
      String mnemonic, int position, Operand kind, Arg a, Map<String, Span> labels) {
    if (a instanceof Arg.Invalid inv) {
      diags.error(a.span(), inv.what());
      return;
    }
    String where = "operand " + position + " of `" + mnemonic + "`";
    switch (kind) {
      case RD, RS1, RS2 -> {
        if (!isIntegerRegister(a)) {
          diags.error(a.span(), where + " is an integer register", describe(a));
        }
      }
      case FRD, FRS1, FRS2, FRS3 -> {
        if (!(a instanceof Arg.FReg || isRegDirective(a))) {
          diags.error(a.span(), where + " is a floating-point register", describe(a));
        }
      }
      case IMM, UIMM, SHAMT, ZIMM -> {
        if (!isImmediate(a)) {
          diags.error(a.span(), where + " is an immediate", describe(a));
        }
      }
      case MEM, AMO_ADDR -> {
        if (!(a instanceof Arg.Mem m)) {
          diags.error(a.span(), where + " is an address `offset(reg)`", describe(a));
        } else {
          if (!isIntegerRegister(m.base())) {
            diags.error(
                m.base().span(),
                "the base of an address is an integer register",
                describe(m.base()));
          }
          if (!isImmediate(m.offset())) {
            diags.error(
                m.offset().span(),
                "the offset of an address is an immediate",
                describe(m.offset()));
          }
        }
      }
      case BRANCH_TARGET, JUMP_TARGET -> {
        if (a instanceof Arg.LabelRef l) {
          if (!labels.containsKey(l.name())) {
            diags.error(
                a.span(),
                "undefined label `" + l.name() + "`",
                Suggest.didYouMean(l.name(), labels.keySet()));
          }
        } else if (!(a instanceof Arg.Imm || isIntDirective(a))) {
          diags.error(
              a.span(), where + " is a branch target: a label such as `.done`", describe(a));
        }
      }
      case CSR -> {
        if (!(a instanceof Arg.Symbol || a instanceof Arg.Imm)) {
          diags.error(a.span(), where + " is a CSR name or number", describe(a));
        }
      }
      case RM -> {
        if (!(a instanceof Arg.Symbol s && RoundingMode.byName(s.name()).isPresent())) {
          diags.error(
              a.span(),
              where + " is a rounding mode",
              "rounding modes are " + String.join(", ", RoundingMode.names()));
        }
      }
      case PRED, SUCC -> {
        if (!(a instanceof Arg.Symbol s && s.name().matches("i?o?r?w?") && !s.name().isEmpty())) {
          diags.error(a.span(), where + " is a fence set such as `rw` or `iorw`");
        }
      }
    }
  }

  /** What an integer register operand, and an address's base, may be. */
  private static boolean isIntegerRegister(Arg a) {
    return a instanceof Arg.XReg || a instanceof Arg.DiseReg || isRegDirective(a);
  }

  /** What an immediate operand, and an address's offset, may be. */
  private static boolean isImmediate(Arg a) {
    return a instanceof Arg.Imm || a instanceof Arg.SymbolAddr || isIntDirective(a);
  }

  private static boolean isRegDirective(Arg a) {
    return a instanceof Arg.Directive d && d.field().kind() == InstructionField.Kind.REG;
  }

  private static boolean isIntDirective(Arg a) {
    return a instanceof Arg.Directive d && d.field().kind() == InstructionField.Kind.INT;
  }

  private static String describe(Arg a) {
    if (a instanceof Arg.Symbol s) {
      return "`" + s.name() + "` is not a register, constant or parameter in scope";
    }
    String what;
    if (a instanceof Arg.XReg) {
      what = "an integer register";
    } else if (a instanceof Arg.FReg) {
      what = "a floating-point register";
    } else if (a instanceof Arg.DiseReg) {
      what = "a DISE register";
    } else if (a instanceof Arg.Directive d) {
      what = "the directive `" + d.field().spelling() + "`";
    } else if (a instanceof Arg.Imm) {
      what = "a number";
    } else if (a instanceof Arg.LabelRef) {
      what = "a label";
    } else if (a instanceof Arg.SymbolAddr) {
      what = "a program symbol's address";
    } else if (a instanceof Arg.Mem) {
      what = "an address";
    } else {
      what = "`T.INSN`";
    }
    return "found " + what;
  }
}
