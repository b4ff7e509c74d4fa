package org.dise.compiler.passes;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.dise.compiler.ast.Item;
import org.dise.compiler.ast.Name;
import org.dise.compiler.ast.Operand;
import org.dise.compiler.ast.ReplStmt;
import org.dise.compiler.diag.Diagnostics;
import org.dise.compiler.diag.Span;
import org.dise.compiler.diag.Suggest;
import org.dise.compiler.isa.Registers;
import org.dise.compiler.passes.Scope.Entity;
import org.dise.compiler.sem.CheckedReplacement;
import org.dise.compiler.sem.InstructionField;

/**
 * Part of pass "name-resolution": resolves a replacement sequence's instructions, operands,
 * directives and {@code call}s (once per scope it is declared in).
 */
final class ReplacementResolution {
  private static final Pattern DISE_REGISTER = Pattern.compile("\\$dr([0-9]{1,9})");

  private final NameResolution nr;
  private final Diagnostics diags;
  private final Map<Scope, Map<Item.Replacement, CheckedReplacement>> replacements =
      new IdentityHashMap<>();

  ReplacementResolution(NameResolution nr) {
    this.nr = nr;
    this.diags = nr.diags();
  }

  CheckedReplacement replacement(Scope.ReplE r) {
    Map<Item.Replacement, CheckedReplacement> memo =
        replacements.computeIfAbsent(r.declaredIn(), k -> new IdentityHashMap<>());
    CheckedReplacement done = memo.get(r.replacement());
    if (done != null) {
      return done;
    }
    Scope scope = r.declaredIn();
    List<CheckedReplacement.Stmt> body = new ArrayList<>();
    ReplStmt.Delete delete = null;
    ReplStmt.OriginalInsn original = null;
    for (ReplStmt s : r.replacement().body()) {
      if (s instanceof ReplStmt.Delete d) {
        if (delete != null) {
          diags.error(d.span(), "`delete` is written twice in this sequence");
        }
        delete = d;
        continue;
      }
      if (s instanceof ReplStmt.OriginalInsn o && original == null) {
        original = o;
      }
      if (s instanceof ReplStmt.LabelDef l) {
        body.add(new CheckedReplacement.Stmt.Label(l.name(), l.span()));
      } else if (s instanceof ReplStmt.OriginalInsn o) {
        body.add(new CheckedReplacement.Stmt.Original(o.span()));
      } else if (s instanceof ReplStmt.SinkCall c) {
        body.add(call(c, scope));
      } else {
        ReplStmt.Instruction i = (ReplStmt.Instruction) s;
        List<CheckedReplacement.Arg> ops = new ArrayList<>();
        for (Operand o : i.operands()) {
          ops.add(operand(o, scope));
        }
        body.add(new CheckedReplacement.Stmt.Instruction(i.mnemonic().text(), ops, i.span()));
      }
    }
    if (delete != null && original != null) {
      diags.error(
          delete.span(),
          "`delete` in a sequence that executes the original instruction (`T.INSN`)",
          "`delete` says the sequence drops the instruction; remove one of the two");
    }
    CheckedReplacement checked =
        new CheckedReplacement(r.replacement().name().text(), body, delete != null, r.span());
    memo.put(r.replacement(), checked);
    return checked;
  }

  private CheckedReplacement.Stmt call(ReplStmt.SinkCall c, Scope scope) {
    String sink = sinkName(c.sink(), scope);
    List<CheckedReplacement.Arg> args = new ArrayList<>();
    for (Operand o : c.args()) {
      // T.NEXT_PC is read when the call runs (after T.INSN: sink-uses checks where it is), and
      // so is T.TID (the thread running it).
      if (o instanceof Operand.Field f && "NEXT_PC".equalsIgnoreCase(f.name())) {
        args.add(new CheckedReplacement.Arg.Directive(InstructionField.NEXT_PC, o.span()));
      } else if (o instanceof Operand.Field f && "TID".equalsIgnoreCase(f.name())) {
        args.add(new CheckedReplacement.Arg.Directive(InstructionField.TID, o.span()));
      } else {
        args.add(operand(o, scope));
      }
    }
    return new CheckedReplacement.Stmt.Call(
        sink, args, c.result().map(r -> operand(r, scope)), c.span());
  }

  /**
   * The component name of the sink {@code n} names (a {@code call} or a {@code tag}), which active
   * code thereby uses; reports an unknown name or one that is not a sink.
   */
  String sinkName(Name n, Scope scope) {
    Entity e = nr.lookupQualified(n, scope);
    String sink = n.text();
    if (e instanceof Scope.SinkE s) {
      sink = s.component().name();
      if (!s.component().component().equals("placeholder")) {
        nr.out().sinks.putIfAbsent(sink, s.component());
      }
    } else if (e == null) {
      String hint = Suggest.didYouMean(sink, scope.visibleNames(Scope.SinkE.class));
      diags.error(
          n.span(),
          "unknown sink `" + sink + "`",
          hint != null
              ? hint
              : !nr.hasPrelude()
                  ? "no standard library prelude was found; declare it with `sink "
                      + sink
                      + " = region_counter();` or pass --lib"
                  // A component the runtime implements, so that following the hint runs.
                  : "declare it, e.g. `sink "
                      + sink
                      + " = region_counter();` (the components are"
                      + " in spec/acf-language.md section 7)");
    } else {
      diags.error(n.span(), "`" + sink + "` is " + e.what() + ", not a sink");
    }
    return sink;
  }

  private CheckedReplacement.Arg operand(Operand o, Scope scope) {
    Span s = o.span();
    if (o instanceof Operand.Imm i) {
      return new CheckedReplacement.Arg.Imm(i.value(), s);
    } else if (o instanceof Operand.Insn i) {
      return new CheckedReplacement.Arg.Insn(s);
    } else if (o instanceof Operand.LabelRef l) {
      return new CheckedReplacement.Arg.LabelRef(l.name(), s);
    } else if (o instanceof Operand.SymbolAddr y) {
      return new CheckedReplacement.Arg.SymbolAddr(y.symbol(), y.end(), s);
    } else if (o instanceof Operand.Field f) {
      InstructionField field = InstructionField.byName(f.name());
      if (field == null) {
        diags.error(
            s,
            "unknown instruction field `T." + f.name() + "`",
            Suggest.didYouMean("T." + f.name(), staticFieldNames()));
        return new CheckedReplacement.Arg.Imm(0, s);
      }
      if (!field.isStatic()) {
        return new CheckedReplacement.Arg.Invalid(
            "`" + field.spelling() + "` is known only while the instruction executes", s);
      }
      return new CheckedReplacement.Arg.Directive(field, s);
    } else if (o instanceof Operand.DiseReg d) {
      Matcher m = DISE_REGISTER.matcher(d.name());
      if (m.matches()) {
        return new CheckedReplacement.Arg.DiseReg(
            (int) Math.min(Integer.MAX_VALUE, Long.parseLong(m.group(1))), s);
      }
      return new CheckedReplacement.Arg.Invalid(
          "`" + d.name() + "` is not a DISE register (they are `$dr0`, `$dr1`, ...)", s);
    } else if (o instanceof Operand.Mem m) {
      CheckedReplacement.Arg off =
          m.offset().map(x -> operand(x, scope)).orElse(new CheckedReplacement.Arg.Imm(0, s));
      return new CheckedReplacement.Arg.Mem(off, operand(m.base(), scope), s);
    } else if (o instanceof Operand.NameOp n) {
      String text = n.name().text();
      int x = Registers.x(text);
      if (x >= 0) {
        return new CheckedReplacement.Arg.XReg(x, s);
      }
      int f = Registers.f(text);
      if (f >= 0) {
        return new CheckedReplacement.Arg.FReg(f, s);
      }
      Entity e = nr.lookupQualified(n.name(), scope);
      if (e instanceof Scope.ConstE c) {
        return new CheckedReplacement.Arg.Imm(c.value(), s);
      }
      if (e instanceof Scope.SymbolE y) {
        return new CheckedReplacement.Arg.SymbolAddr(y.symbol(), y.end(), y.span());
      }
      if (e instanceof Scope.RegisterE) {
        return new CheckedReplacement.Arg.Invalid(
            "`"
                + text
                + "` is an HPS register, which only micro-ops read; replacement code uses "
                + "DISE registers `$drN`",
            s);
      }
      if (e != null) {
        return new CheckedReplacement.Arg.Invalid(
            "`" + text + "` is " + e.what() + ", not an operand", s);
      }
      return new CheckedReplacement.Arg.Symbol(text.toLowerCase(Locale.ROOT), s);
    }
    throw new AssertionError(o);
  }

  static List<String> staticFieldNames() {
    List<String> names = new ArrayList<>();
    for (InstructionField f : InstructionField.values()) {
      if (f.isStatic()) {
        names.add(f.spelling());
      }
    }
    names.add("T.INSN");
    return names;
  }
}
