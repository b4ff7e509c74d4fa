package org.dise.compiler.passes;

import java.util.ArrayList;
import java.util.List;
import org.dise.compiler.ast.Expr;
import org.dise.compiler.ast.Name;
import org.dise.compiler.diag.Diagnostics;
import org.dise.compiler.diag.Span;
import org.dise.compiler.diag.Suggest;
import org.dise.compiler.isa.Registers;
import org.dise.compiler.passes.Scope.Entity;
import org.dise.compiler.sem.InstructionField;
import org.dise.compiler.sem.Pattern;

/**
 * Part of name resolution: resolves a pattern expression and checks its types (conditions, numbers,
 * instruction names for {@code T.OP}, opcode classes for {@code T.OPCLASS}).
 */
final class PatternResolver {
  /** The type of a pattern expression. */
  enum Ty {
    BOOL,
    INT,
    OP,
    OPCLASS,
    ERROR
  }

  private record Typed(Pattern p, Ty ty) {}

  private final NameResolution names;
  private final Diagnostics diags;

  private PatternResolver(NameResolution names) {
    this.names = names;
    this.diags = names.diags();
  }

  static Pattern resolve(NameResolution names, Expr e, Scope scope) {
    PatternResolver r = new PatternResolver(names);
    Typed t = r.expr(e, scope, null);
    if (t.ty() != Ty.BOOL && t.ty() != Ty.ERROR) {
      r.diags.error(
          e.span(),
          "a pattern must be a condition, but this is " + describe(t.ty()),
          t.ty() == Ty.INT ? "compare it, e.g. `... != 0`" : "compare it with `==`");
    }
    return t.p();
  }

  private static String describe(Ty t) {
    return switch (t) {
      case BOOL -> "a condition";
      case INT -> "a number";
      case OP -> "an instruction name";
      case OPCLASS -> "an opcode class";
      case ERROR -> "invalid";
    };
  }

  private Typed error(Span s) {
    return new Typed(new Pattern.Bool(false, s), Ty.ERROR);
  }

  private static Expr strip(Expr e) {
    while (e instanceof Expr.Paren p) {
      e = p.inner();
    }
    return e;
  }

  private static Ty fieldType(Expr e) {
    if (strip(e) instanceof Expr.FieldRef f) {
      InstructionField field = InstructionField.byName(f.name());
      if (field != null && field.kind() == InstructionField.Kind.OP) {
        return Ty.OP;
      }
      if (field != null && field.kind() == InstructionField.Kind.OPCLASS) {
        return Ty.OPCLASS;
      }
    }
    return null;
  }

  private Typed expr(Expr e, Scope scope, Ty expect) {
    Span s = e.span();
    if (e instanceof Expr.NumberLit n) {
      return new Typed(new Pattern.Const(n.value(), s), Ty.INT);
    } else if (e instanceof Expr.BoolLit b) {
      return new Typed(new Pattern.Bool(b.value(), s), Ty.BOOL);
    } else if (e instanceof Expr.StringLit str) {
      diags.error(s, "a string is not a pattern value");
      return error(s);
    } else if (e instanceof Expr.FlagRef f) {
      int counter = names.counter(f.counter(), scope);
      return new Typed(new Pattern.Flag(f.flag(), counter, s), Ty.BOOL);
    } else if (e instanceof Expr.FieldRef f) {
      InstructionField field = InstructionField.byName(f.name());
      if (field == null) {
        diags.error(
            s,
            "unknown instruction field `T." + f.name() + "`",
            Suggest.didYouMean("T." + f.name(), NameResolution.staticFieldNames()));
        return error(s);
      }
      if (!field.isStatic()) {
        return new Typed(new Pattern.Dynamic("`" + field.spelling() + "`", s), Ty.INT);
      }
      Ty ty =
          switch (field.kind()) {
            case OP -> Ty.OP;
            case OPCLASS -> Ty.OPCLASS;
            default -> Ty.INT;
          };
      return new Typed(new Pattern.Field(field, s), ty);
    } else if (e instanceof Expr.InsnRef i) {
      diags.error(
          s,
          "`T.INSN` is the whole original instruction, not a value a pattern can " + "compare",
          "compare its fields, e.g. `T.OP == add` or `T.RD == 0`");
      return error(s);
    } else if (e instanceof Expr.DiseRegRef d) {
      return new Typed(new Pattern.Dynamic("the DISE register `" + d.name() + "`", s), Ty.INT);
    } else if (e instanceof Expr.SymbolAddr y) {
      return new Typed(new Pattern.SymbolAddr(y.symbol(), y.end(), s), Ty.INT);
    } else if (e instanceof Expr.NameRef n) {
      return name(n.name(), scope, expect);
    } else if (e instanceof Expr.Paren p) {
      return expr(p.inner(), scope, expect);
    } else if (e instanceof Expr.Unary u) {
      Typed t = expr(u.operand(), scope, null);
      Ty want = u.op() == Expr.UnaryOp.NOT ? Ty.BOOL : Ty.INT;
      if (t.ty() != want && t.ty() != Ty.ERROR) {
        diags.error(
            u.operand().span(),
            "`"
                + u.op().symbol
                + "` needs "
                + describe(want)
                + ", but this is "
                + describe(t.ty()));
      }
      return new Typed(new Pattern.Unary(u.op(), t.p(), s), want);
    }
    return binary((Expr.Binary) e, scope);
  }

  private Typed binary(Expr.Binary b, Scope scope) {
    Span s = b.span();
    Expr.BinaryOp op = b.op();
    if (op.isComparison()) {
      Ty lf = fieldType(b.left());
      Ty rf = fieldType(b.right());
      Typed l = expr(b.left(), scope, rf);
      Typed r = expr(b.right(), scope, lf);
      Ty named = lf != null ? lf : rf;
      if (named != null && op != Expr.BinaryOp.EQ && op != Expr.BinaryOp.NE) {
        diags.error(
            s,
            "`"
                + (named == Ty.OP ? "T.OP" : "T.OPCLASS")
                + "` can only be compared with `==` or `!=`");
      } else if (l.ty() != Ty.ERROR && r.ty() != Ty.ERROR && l.ty() != r.ty()) {
        diags.error(s, "cannot compare " + describe(l.ty()) + " with " + describe(r.ty()));
      } else if (l.ty() == Ty.BOOL && op != Expr.BinaryOp.EQ && op != Expr.BinaryOp.NE) {
        diags.error(s, "`" + op.symbol + "` compares numbers, not conditions");
      }
      return new Typed(new Pattern.Binary(op, l.p(), r.p(), s), Ty.BOOL);
    }
    Typed l = expr(b.left(), scope, null);
    Typed r = expr(b.right(), scope, null);
    Ty want = op.isLogical() ? Ty.BOOL : Ty.INT;
    for (Typed t : List.of(l, r)) {
      if (t.ty() != want && t.ty() != Ty.ERROR) {
        diags.error(
            t.p().span(),
            "`"
                + op.symbol
                + "` needs "
                + describe(want)
                + " on both sides, but this is "
                + describe(t.ty()),
            want == Ty.BOOL && t.ty() == Ty.INT ? "compare it, e.g. `... != 0`" : null);
      }
    }
    return new Typed(new Pattern.Binary(op, l.p(), r.p(), s), want);
  }

  private Typed name(Name n, Scope scope, Ty expect) {
    Span s = n.span();
    Entity e = names.lookup(n, scope);
    if (expect == Ty.OP) {
      if (e instanceof Scope.OpE op) {
        return new Typed(new Pattern.OpName(op.mnemonic(), s), Ty.OP);
      }
      if (names.mnemonics().contains(n.key())) {
        return new Typed(new Pattern.OpName(n.key(), s), Ty.OP);
      }
      diags.error(
          s,
          "unknown instruction `" + n.text() + "`",
          Suggest.didYouMean(n.text(), names.mnemonics()));
      return error(s);
    }
    if (expect == Ty.OPCLASS) {
      if (e instanceof Scope.OpClassE oc) {
        return new Typed(new Pattern.OpClassName(oc.name(), s), Ty.OPCLASS);
      }
      if (names.opClasses().contains(n.key())) {
        return new Typed(new Pattern.OpClassName(n.key(), s), Ty.OPCLASS);
      }
      List<String> classes = new ArrayList<>(names.opClasses());
      classes.sort(null);
      String hint = Suggest.didYouMean(n.text(), classes);
      diags.error(
          s,
          "unknown opcode class `" + n.text() + "`",
          hint != null ? hint : "opcode classes are " + String.join(", ", classes));
      return error(s);
    }
    if (e instanceof Scope.ConstE c) {
      return new Typed(new Pattern.Const(c.value(), s), Ty.INT);
    }
    if (e instanceof Scope.SymbolE y) {
      return new Typed(new Pattern.SymbolAddr(y.symbol(), y.end(), y.span()), Ty.INT);
    }
    if (e instanceof Scope.BoolE b) {
      return new Typed(new Pattern.Bool(b.value(), s), Ty.BOOL);
    }
    if (e instanceof Scope.OpE op) {
      return new Typed(new Pattern.OpName(op.mnemonic(), s), Ty.OP);
    }
    if (e instanceof Scope.OpClassE oc) {
      return new Typed(new Pattern.OpClassName(oc.name(), s), Ty.OPCLASS);
    }
    if (e != null) {
      diags.error(s, "`" + n.text() + "` is " + e.what() + ", not a value a pattern can test");
      return error(s);
    }
    if (Registers.x(n.text()) >= 0 || Registers.f(n.text()) >= 0) {
      return new Typed(
          new Pattern.Dynamic("the contents of register `" + n.text() + "`", s), Ty.INT);
    }
    if (names.opClasses().contains(n.key())) {
      diags.error(
          s,
          "`" + n.text() + "` is an opcode class",
          "compare it with the field: `T.OPCLASS == " + n.text() + "`");
      return error(s);
    }
    if (names.mnemonics().contains(n.key())) {
      diags.error(
          s,
          "`" + n.text() + "` is an instruction",
          "compare it with the field: `T.OP == " + n.text() + "`");
      return error(s);
    }
    List<String> candidates = new ArrayList<>(scope.visibleNames(Scope.ConstE.class));
    candidates.addAll(List.of("zero_0", "overflow_0", "true", "false"));
    diags.error(s, "unknown name `" + n.text() + "`", Suggest.didYouMean(n.text(), candidates));
    return error(s);
  }
}
