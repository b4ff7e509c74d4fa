package org.dise.compiler.sem;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Prints a checked program as text: the golden "checked output" of the conformance suite and {@code
 * acf check --print}. Patterns are printed fully parenthesised, so that the grouping the compiler
 * chose is visible.
 */
public final class ProgramPrinter {
  private ProgramPrinter() {}

  public static String print(CheckedProgram p) {
    StringBuilder sb = new StringBuilder();
    sb.append("counters:\n");
    for (Counter c : p.counters()) {
      sb.append("  ")
          .append(c.index())
          .append(c.name().isEmpty() ? "" : " " + c.name())
          .append(": width ")
          .append(c.width())
          .append(", init ")
          .append(c.init())
          .append('\n');
    }
    sb.append("hps registers:\n");
    for (HpsRegister r : p.registers()) {
      sb.append("  ")
          .append(r.index())
          .append(' ')
          .append(r.name())
          .append(" = ")
          .append(r.init())
          .append('\n');
    }
    sb.append("sinks:\n");
    for (Component c : p.sinks()) {
      sb.append("  ").append(component(c)).append('\n');
    }
    sb.append("triggers:\n");
    for (Component c : p.triggers()) {
      sb.append("  ").append(component(c)).append('\n');
    }
    for (CheckedAcf acf : p.acfs()) {
      sb.append("acf ").append(acf.name()).append(":\n");
      for (CheckedProduction prod : acf.productions()) {
        sb.append("  ")
            .append(prod.name())
            .append(": ")
            .append(pattern(prod.pattern()))
            .append(" => ")
            .append(prod.replacement().map(CheckedReplacement::name).orElse("null"))
            .append(", ");
        if (prod.control().isEmpty()) {
          sb.append("null");
        } else {
          List<String> ops = new ArrayList<>();
          for (CheckedMicroOp m : prod.control()) {
            ops.add(microOp(m));
          }
          sb.append(String.join(", ", ops));
        }
        prod.tag().ifPresent(t -> sb.append(", tag(").append(t).append(')'));
        sb.append('\n');
        prod.replacement()
            .ifPresent(
                r -> {
                  for (CheckedReplacement.Stmt s : r.body()) {
                    sb.append("      ").append(stmt(s)).append('\n');
                  }
                  if (r.deletes()) {
                    sb.append("      delete\n");
                  }
                });
      }
    }
    return sb.toString();
  }

  static String component(Component c) {
    List<String> ps = new ArrayList<>();
    for (Map.Entry<String, Value> e : new TreeMap<>(c.params()).entrySet()) {
      ps.add(e.getKey() + " = " + value(e.getValue()));
    }
    return c.name() + " = " + c.component() + "(" + String.join(", ", ps) + ")";
  }

  static String value(Value v) {
    if (v instanceof Value.Int i) {
      return Long.toString(i.value());
    } else if (v instanceof Value.Str s) {
      return "\"" + s.value() + "\"";
    } else if (v instanceof Value.Address a) {
      return org.dise.compiler.format.Formatter.symbolAddr(a.symbol(), a.end());
    } else if (v instanceof Value.Bool b) {
      return Boolean.toString(b.value());
    }
    return ((Value.Symbol) v).value();
  }

  static String microOp(CheckedMicroOp m) {
    String s = m.kind().word() + "_" + m.counter();
    if (m.source().isPresent()) {
      CheckedMicroOp.Source src = m.source().get();
      s +=
          "("
              + (src instanceof CheckedMicroOp.Source.Register r
                  ? r.name() + " [R" + r.index() + "]"
                  : Long.toString(((CheckedMicroOp.Source.Constant) src).value()))
              + ")";
    }
    return s;
  }

  public static String pattern(Pattern p) {
    StringBuilder sb = new StringBuilder();
    pattern(p, sb);
    return sb.toString();
  }

  /** One builder for the whole tree: a String per operator is quadratic in a long chain. */
  private static void pattern(Pattern p, StringBuilder sb) {
    if (p instanceof Pattern.Unary u) {
      sb.append(u.op().symbol);
      pattern(u.operand(), sb);
    } else if (p instanceof Pattern.Binary b) {
      sb.append('(');
      pattern(b.left(), sb);
      sb.append(' ').append(b.op().symbol).append(' ');
      pattern(b.right(), sb);
      sb.append(')');
    } else {
      sb.append(leaf(p));
    }
  }

  private static String leaf(Pattern p) {
    if (p instanceof Pattern.Const c) {
      return Long.toString(c.value());
    } else if (p instanceof Pattern.Bool b) {
      return Boolean.toString(b.value());
    } else if (p instanceof Pattern.Field f) {
      return f.field().spelling();
    } else if (p instanceof Pattern.OpName o) {
      return o.mnemonic();
    } else if (p instanceof Pattern.OpClassName o) {
      return o.opClass();
    } else if (p instanceof Pattern.Flag f) {
      return f.flag().word() + "_" + f.counter();
    } else if (p instanceof Pattern.SymbolAddr y) {
      return org.dise.compiler.format.Formatter.symbolAddr(y.symbol(), y.end());
    }
    return "<dynamic " + ((Pattern.Dynamic) p).what() + ">";
  }

  static String stmt(CheckedReplacement.Stmt s) {
    if (s instanceof CheckedReplacement.Stmt.Label l) {
      return l.name() + ":";
    } else if (s instanceof CheckedReplacement.Stmt.Original) {
      return "T.INSN";
    } else if (s instanceof CheckedReplacement.Stmt.Call c) {
      List<String> parts = new ArrayList<>();
      parts.add(c.sink());
      for (CheckedReplacement.Arg a : c.args()) {
        parts.add(arg(a));
      }
      return "call(" + String.join(", ", parts) + ")";
    }
    CheckedReplacement.Stmt.Instruction i = (CheckedReplacement.Stmt.Instruction) s;
    List<String> ops = new ArrayList<>();
    for (CheckedReplacement.Arg a : i.operands()) {
      ops.add(arg(a));
    }
    return i.mnemonic() + (ops.isEmpty() ? "" : " " + String.join(", ", ops));
  }

  /** Operands with their kind made explicit: {@code x10}, {@code f1}, {@code $dr0}, ... */
  static String arg(CheckedReplacement.Arg a) {
    if (a instanceof CheckedReplacement.Arg.XReg x) {
      return "x" + x.number();
    } else if (a instanceof CheckedReplacement.Arg.FReg f) {
      return "f" + f.number();
    } else if (a instanceof CheckedReplacement.Arg.DiseReg d) {
      return "$dr" + d.number();
    } else if (a instanceof CheckedReplacement.Arg.Directive d) {
      return d.field().spelling();
    } else if (a instanceof CheckedReplacement.Arg.Imm i) {
      return Long.toString(i.value());
    } else if (a instanceof CheckedReplacement.Arg.LabelRef l) {
      return l.name();
    } else if (a instanceof CheckedReplacement.Arg.SymbolAddr y) {
      return org.dise.compiler.format.Formatter.symbolAddr(y.symbol(), y.end());
    } else if (a instanceof CheckedReplacement.Arg.Mem m) {
      return arg(m.offset()) + "(" + arg(m.base()) + ")";
    } else if (a instanceof CheckedReplacement.Arg.Symbol s) {
      return s.name();
    } else if (a instanceof CheckedReplacement.Arg.Insn) {
      return "T.INSN";
    }
    return "<invalid>";
  }
}
