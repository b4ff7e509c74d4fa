package org.dise.compiler.passes;

import org.dise.compiler.ast.AcfFile;
import org.dise.compiler.ast.Expr;
import org.dise.compiler.ast.Item;
import org.dise.compiler.diag.Diagnostics;

/**
 * Pass "mixed-logic": warns of {@code &&} inside {@code ||} without parentheses. Fig. 6's hot
 * method pattern, {@code proc_call || (branch && backward) && zero_0}, parses (as in C) as {@code
 * proc_call || ((...) && zero_0)}, which profiles calls even when sampling is off.
 */
public final class MixedLogicLint {
  public static final String NAME = "mixed-logic";

  private MixedLogicLint() {}

  public static void run(AcfFile file, Diagnostics diags) {
    items(file.items(), diags);
  }

  private static void items(java.util.List<Item> items, Diagnostics diags) {
    for (Item i : items) {
      if (i instanceof Item.Production p) {
        check(p.pattern(), diags);
      } else if (i instanceof Item.AcfBlock b) {
        items(b.body(), diags);
      }
    }
  }

  private static void check(Expr e, Diagnostics diags) {
    if (e instanceof Expr.Binary b) {
      if (b.op() == Expr.BinaryOp.OR) {
        for (Expr side : new Expr[] {b.left(), b.right()}) {
          if (side instanceof Expr.Binary s && s.op() == Expr.BinaryOp.AND) {
            diags.warning(
                s.span(),
                "`&&` within `||` without parentheses",
                "`&&` binds tighter than `||`; add parentheses to say which you mean");
          }
        }
      }
      check(b.left(), diags);
      check(b.right(), diags);
    } else if (e instanceof Expr.Paren p) {
      check(p.inner(), diags);
    } else if (e instanceof Expr.Unary u) {
      check(u.operand(), diags);
    }
  }
}
