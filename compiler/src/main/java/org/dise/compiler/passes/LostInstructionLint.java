package org.dise.compiler.passes;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.dise.compiler.diag.Diagnostics;
import org.dise.compiler.isa.InstructionTable;
import org.dise.compiler.sem.CheckedAcf;
import org.dise.compiler.sem.CheckedProduction;
import org.dise.compiler.sem.CheckedReplacement;
import org.dise.compiler.sem.InstructionField;
import org.dise.compiler.sem.Pattern;

/**
 * Pass "lost-instructions": a replacement sequence without {@code T.INSN} drops the instruction it
 * replaces. Behind a pattern that can match a program's own instructions that is almost always a
 * forgotten {@code T.INSN} (every load vanishes and the program goes astray), so it is a warning at
 * the production, an error under {@code --strict}. A sequence that means it says {@code delete};
 * replacing only codewords ({@code on_trig_inst}, {@code off_trig_inst}) loses nothing.
 */
public final class LostInstructionLint {
  public static final String NAME = "lost-instructions";

  private LostInstructionLint() {}

  public static void run(
      List<CheckedAcf> acfs, InstructionTable isa, boolean strict, Diagnostics diags) {
    Set<String> codewords = new HashSet<>();
    for (String c : isa.codewords()) {
      codewords.add(c.toLowerCase(Locale.ROOT));
    }
    for (CheckedAcf acf : acfs) {
      for (CheckedProduction p : acf.productions()) {
        if (p.replacement().isEmpty()) {
          continue;
        }
        CheckedReplacement r = p.replacement().get();
        if (r.keepsOriginal() || r.deletes() || !matchesProgram(p.pattern(), codewords)) {
          continue;
        }
        String message =
            "production `"
                + p.name()
                + "` replaces the program's instructions with `"
                + r.name()
                + "`, which has no `T.INSN`: every instruction it matches is dropped";
        String hint =
            "add `T.INSN` to `"
                + r.name()
                + "` to keep the instruction, or `delete` if dropping"
                + " it is meant";
        if (strict) {
          diags.error(p.span(), message, hint);
        } else {
          diags.warning(p.span(), message, hint);
        }
      }
    }
  }

  /**
   * Whether the pattern may match an instruction of the program: false only when it provably
   * matches codewords alone (or nothing), e.g. {@code T.OP == on_trig_inst && zero_0}.
   */
  static boolean matchesProgram(Pattern p, Set<String> codewords) {
    return !onlyCodewords(p, codewords);
  }

  private static boolean onlyCodewords(Pattern p, Set<String> codewords) {
    if (p instanceof Pattern.Bool b) {
      return !b.value();
    }
    if (p instanceof Pattern.Binary b) {
      switch (b.op()) {
        case AND:
          return onlyCodewords(b.left(), codewords) || onlyCodewords(b.right(), codewords);
        case OR:
          return onlyCodewords(b.left(), codewords) && onlyCodewords(b.right(), codewords);
        case EQ:
          return isCodeword(b.left(), b.right(), codewords)
              || isCodeword(b.right(), b.left(), codewords);
        default:
          return false;
      }
    }
    return false;
  }

  private static boolean isCodeword(Pattern field, Pattern value, Set<String> codewords) {
    if (!(field instanceof Pattern.Field f)) {
      return false;
    }
    if (f.field() == InstructionField.OP && value instanceof Pattern.OpName o) {
      return codewords.contains(o.mnemonic().toLowerCase(Locale.ROOT));
    }
    return f.field() == InstructionField.OPCLASS
        && value instanceof Pattern.OpClassName c
        && c.opClass().equalsIgnoreCase("codeword");
  }
}
