package org.dise.compiler.passes;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import org.dise.compiler.diag.Diagnostics;
import org.dise.compiler.sem.CheckedProduction;
import org.dise.compiler.sem.CheckedProgram;
import org.dise.compiler.sem.CheckedReplacement;
import org.dise.compiler.sem.CheckedReplacement.Arg;
import org.dise.compiler.sem.Pattern;
import org.dise.runtime.dise.SymbolBinding;
import org.dise.runtime.dise.SymbolRef;
import org.dise.runtime.elf.ProgramSymbols;

/**
 * Checks a program's {@code symbol(NAME)} and {@code symbol_end(NAME)} against one build of the
 * program they will run on, ahead of a run ({@code acf check --program}). The messages are the ones
 * the runtime gives when it loads the program ({@link SymbolBinding#explain}), here with the source
 * line and an underline.
 */
public final class ProgramSymbolCheck {
  private final ProgramSymbols symbols;
  private final String programName;
  private final Diagnostics diags;
  private final boolean dynamic;
  private int references;

  private ProgramSymbolCheck(
      ProgramSymbols symbols, String programName, boolean dynamic, Diagnostics diags) {
    this.symbols = symbols;
    this.programName = programName;
    this.dynamic = dynamic;
    this.diags = diags;
  }

  /**
   * Reports every symbol reference {@code symbols} does not resolve; returns how many there are.
   * For a {@code dynamic} program (whose {@code symbols} are those of the objects mapped at
   * start-up), a pattern's symbol that no object has is a warning: a library the program opens
   * later may define it, and acf run binds it then ({@link SymbolBinding#bindDeferring}).
   */
  public static int run(
      CheckedProgram program,
      ProgramSymbols symbols,
      String programName,
      boolean dynamic,
      Diagnostics diags) {
    ProgramSymbolCheck c = new ProgramSymbolCheck(symbols, programName, dynamic, diags);
    for (org.dise.compiler.sem.Component k : program.sinks()) {
      k.params().values().forEach(c::value);
    }
    for (org.dise.compiler.sem.Component k : program.triggers()) {
      k.params().values().forEach(c::value);
    }
    Set<CheckedReplacement> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    for (CheckedProduction p : program.productions()) {
      c.pattern(p.pattern());
      p.replacement().filter(seen::add).ifPresent(c::replacement);
    }
    return c.references;
  }

  private void value(org.dise.compiler.sem.Value v) {
    if (v instanceof org.dise.compiler.sem.Value.Address a) {
      check(a.symbol(), a.end(), a.span());
    }
  }

  private void pattern(Pattern p) {
    if (p instanceof Pattern.SymbolAddr y) {
      SymbolRef ref = new SymbolRef(y.symbol(), y.end(), "");
      if (dynamic && SymbolBinding.absent(ref, symbols)) {
        references++;
        SymbolBinding.explain(ref, symbols, programName)
            .ifPresent(
                u ->
                    diags.warning(
                        y.span(),
                        u.message()
                            + " at start-up: it binds if a library the program opens later"
                            + " (dlopen) defines it",
                        u.hint()));
        return;
      }
      check(y.symbol(), y.end(), y.span());
    } else if (p instanceof Pattern.Unary u) {
      pattern(u.operand());
    } else if (p instanceof Pattern.Binary b) {
      pattern(b.left());
      pattern(b.right());
    }
  }

  private void replacement(CheckedReplacement r) {
    for (CheckedReplacement.Stmt s : r.body()) {
      if (s instanceof CheckedReplacement.Stmt.Call c) {
        c.args().forEach(this::arg);
      } else if (s instanceof CheckedReplacement.Stmt.Instruction i) {
        i.operands().forEach(this::arg);
      }
    }
  }

  private void arg(Arg a) {
    if (a instanceof Arg.SymbolAddr y) {
      check(y.symbol(), y.end(), y.span());
    } else if (a instanceof Arg.Mem m) {
      arg(m.offset());
    }
  }

  private void check(String name, boolean end, org.dise.compiler.diag.Span span) {
    references++;
    SymbolBinding.explain(new SymbolRef(name, end, ""), symbols, programName)
        .ifPresent(u -> diags.error(span, u.message(), u.hint()));
  }
}
