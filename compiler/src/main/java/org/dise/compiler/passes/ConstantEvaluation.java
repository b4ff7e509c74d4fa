package org.dise.compiler.passes;

import org.dise.compiler.ast.Expr;
import org.dise.compiler.diag.Diagnostics;
import org.dise.compiler.diag.Suggest;
import org.dise.compiler.passes.Scope.Entity;
import org.dise.runtime.dise.PatternExpr;

/**
 * Part of pass "name-resolution": evaluates constant expressions (numbers, booleans, named
 * constants, arithmetic) where a declaration needs a value.
 */
final class ConstantEvaluation {
  private final NameResolution nr;
  private final Diagnostics diags;

  ConstantEvaluation(NameResolution nr) {
    this.nr = nr;
    this.diags = nr.diags();
  }

  /** Evaluates a constant expression; null (after reporting) when it is not one. */
  Long evaluate(Expr e, Scope scope) {
    if (e instanceof Expr.NumberLit n) {
      return n.value();
    } else if (e instanceof Expr.BoolLit b) {
      return b.value() ? 1L : 0L;
    } else if (e instanceof Expr.Paren p) {
      return evaluate(p.inner(), scope);
    } else if (e instanceof Expr.NameRef n) {
      Entity ent = nr.lookupQualified(n.name(), scope);
      if (ent instanceof Scope.ConstE c) {
        return c.value();
      }
      if (ent instanceof Scope.BoolE b) {
        return b.value() ? 1L : 0L;
      }
      if (ent instanceof Scope.SymbolE) {
        diags.error(
            n.span(),
            "`"
                + n.name().text()
                + "` is a program symbol's address, known"
                + " only when the program is loaded, so it is not a constant",
            "use it directly in a pattern or as a replacement operand, not in arithmetic"
                + " on constants");
        return null;
      }
      if (ent == null) {
        diags.error(
            n.span(),
            "unknown constant `" + n.name().text() + "`",
            Suggest.didYouMean(n.name().text(), scope.visibleNames(Scope.ConstE.class)));
      } else {
        diags.error(n.span(), "`" + n.name().text() + "` is " + ent.what() + ", not a constant");
      }
      return null;
    } else if (e instanceof Expr.Unary u) {
      Long v = evaluate(u.operand(), scope);
      if (v == null) {
        return null;
      }
      return PatternExpr.apply(PatternExpr.UnaryOp.valueOf(u.op().name()), v);
    } else if (e instanceof Expr.Binary b) {
      Long l = evaluate(b.left(), scope);
      Long r = evaluate(b.right(), scope);
      if (l == null || r == null) {
        return null;
      }
      if ((b.op() == Expr.BinaryOp.DIV || b.op() == Expr.BinaryOp.REM) && r == 0) {
        diags.error(b.right().span(), "division by zero in a constant");
        return null;
      }
      return PatternExpr.apply(PatternExpr.BinaryOp.valueOf(b.op().name()), l, r);
    } else if (e instanceof Expr.SymbolAddr y) {
      diags.error(
          e.span(),
          "`"
              + org.dise.compiler.format.Formatter.symbolAddr(y.symbol(), y.end())
              + "` is known only when the program is loaded, so it is not a constant",
          "write it where it is used: in a pattern or as a replacement operand");
      return null;
    } else {
      diags.error(
          e.span(),
          "not a constant",
          "constants are numbers, `true`, `false`, " + "other constants, and arithmetic on them");
      return null;
    }
  }
}
