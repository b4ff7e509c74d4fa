package org.dise.compiler.passes;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.dise.compiler.diag.Diagnostics;
import org.dise.compiler.diag.Span;
import org.dise.compiler.sem.CheckedAcf;
import org.dise.compiler.sem.CheckedProduction;
import org.dise.compiler.sem.CheckedProgram;
import org.dise.compiler.sem.CheckedReplacement.Stmt;
import org.dise.compiler.sem.Component;
import org.dise.compiler.sem.InstructionField;
import org.dise.compiler.sem.Pattern;
import org.dise.runtime.dise.Catalogue;
import org.dise.runtime.isa.Op;
import org.dise.runtime.isa.OpClass;
import org.dise.runtime.sink.ComponentSpec;

/**
 * Pass "sink-uses": every {@code call} and {@code tag} against what the catalogue says its sink
 * accepts, so that {@code acf check} refuses at line and column what the runtime would refuse or
 * silently ignore: a call into a tag-only component, the wrong number of arguments, maps called
 * with different numbers of key parts, a result asked of a sink that returns none, a tag for a
 * component that takes no tagged instructions, and a production whose pattern can match
 * instructions the sink ignores (a store {@code watchpoint} fed by loads).
 */
public final class SinkUseCheck {
  public static final String NAME = "sink-uses";

  private final Diagnostics diags;
  private final Map<String, Component> sinks = new HashMap<>();

  /** Per map: the argument count of its first call and where that call is. */
  private final Map<String, Span> firstCall = new HashMap<>();

  private final Map<String, Integer> arity = new HashMap<>();

  private SinkUseCheck(CheckedProgram program, Diagnostics diags) {
    this.diags = diags;
    for (Component c : program.sinks()) {
      sinks.put(c.name().toLowerCase(Locale.ROOT), c);
    }
  }

  public static void run(CheckedProgram program, List<CheckedAcf> acfs, Diagnostics diags) {
    SinkUseCheck check = new SinkUseCheck(program, diags);
    for (CheckedAcf a : acfs) {
      for (CheckedProduction p : a.productions()) {
        check.production(p);
      }
    }
  }

  private Optional<ComponentSpec> spec(String sink) {
    Component c = sinks.get(sink.toLowerCase(Locale.ROOT));
    return c == null ? Optional.empty() : Catalogue.find(c.component());
  }

  private String component(String sink) {
    return sinks.get(sink.toLowerCase(Locale.ROOT)).component();
  }

  private void production(CheckedProduction p) {
    if (p.tag().isPresent()) {
      String sink = p.tag().get();
      Optional<ComponentSpec> spec = spec(sink);
      if (spec.isPresent() && !spec.get().tagged()) {
        diags.error(
            p.span(),
            "production `"
                + p.name()
                + "` tags instructions for `"
                + sink
                + "`, a "
                + spec.get().name()
                + ", which takes no tagged instructions",
            "the components fed by `tag()` are "
                + String.join(", ", Catalogue.taggedNames())
                + "; call it from a replacement instead");
      } else if (spec.isPresent()) {
        classes(p, sink, spec.get());
      }
    }
    if (p.replacement().isEmpty()) {
      return;
    }
    boolean afterOriginal = false;
    for (Stmt s : p.replacement().get().body()) {
      afterOriginal |= s instanceof Stmt.Original;
      if (s instanceof Stmt.Call c) {
        for (org.dise.compiler.sem.CheckedReplacement.Arg a : c.args()) {
          if (!afterOriginal
              && a instanceof org.dise.compiler.sem.CheckedReplacement.Arg.Directive d
              && d.field() == InstructionField.NEXT_PC) {
            diags.error(
                a.span(),
                "`T.NEXT_PC` is known only after `T.INSN` has run",
                "move the call after `T.INSN` in `" + p.replacement().get().name() + "`");
          }
        }
        Optional<ComponentSpec> spec = spec(c.sink());
        if (spec.isPresent()) {
          call(c, spec.get());
          classes(p, c.sink(), spec.get());
        }
      }
    }
  }

  private void call(Stmt.Call c, ComponentSpec spec) {
    String what = "`" + c.sink() + "` is a " + spec.name();
    if (spec.calls() == null) {
      diags.error(
          c.span(),
          what + ", which takes no calls",
          spec.tagged() ? "feed it with `=> tag(" + c.sink() + ")` in a production" : null);
      return;
    }
    int n = c.args().size();
    ComponentSpec.Arity a = spec.calls();
    if (n < a.min() || n > a.max()) {
      diags.error(
          c.span(),
          what
              + ", whose calls take "
              + a.describe()
              + "; this one passes "
              + n
              + " argument"
              + (n == 1 ? "" : "s"));
    } else if (a.keys()) {
      String key = c.sink().toLowerCase(Locale.ROOT);
      Integer before = arity.putIfAbsent(key, n);
      firstCall.putIfAbsent(key, c.span());
      if (before != null && before != n) {
        Span at = firstCall.get(key);
        diags.error(
            c.span(),
            "map `"
                + c.sink()
                + "` is called with "
                + n
                + " arguments here,"
                + " but with "
                + before
                + " at line "
                + at.line(),
            "every call of a map passes the same number of key parts");
      }
    }
    if (c.result().isPresent() && spec.returns().isEmpty()) {
      diags.error(
          c.result().get().span(),
          what + ", whose calls return nothing",
          "the maps return a value: count_map, sum_map, ..., state_map");
    }
  }

  /** A production feeding a sink that uses only some instruction classes must match no other. */
  private void classes(CheckedProduction p, String sink, ComponentSpec spec) {
    if (spec.classes().isEmpty() || reported(p.pattern().span())) {
      return; // a pattern with an error of its own would only add noise here
    }
    for (Op op : Op.values()) {
      for (OpClass cls : classesOf(op)) {
        if (!spec.classes().contains(cls.acfName())
            && PatternTruth.of(p.pattern(), op, cls) != PatternTruth.FALSE) {
          List<String> accepted = new ArrayList<>(spec.classes());
          accepted.sort(null);
          diags.error(
              p.pattern().span(),
              "production `"
                  + p.name()
                  + "` feeds `"
                  + sink
                  + "`, a "
                  + spec.name()
                  + ", which uses only "
                  + String.join(", ", accepted)
                  + " instructions, but its pattern can match `"
                  + op.mnemonic().toLowerCase(Locale.ROOT)
                  + "` ("
                  + cls.acfName()
                  + ")",
              "add `T.OPCLASS == " + accepted.get(0) + "` to the pattern");
          return;
        }
      }
    }
  }

  /** Whether an error was reported inside {@code s} (an unknown name in a pattern). */
  private boolean reported(Span s) {
    return diags.all().stream()
        .anyMatch(
            d ->
                d.severity() == org.dise.compiler.diag.Severity.ERROR
                    && d.span().file() == s.file()
                    && d.span().start() >= s.start()
                    && d.span().end() <= s.end());
  }

  /** The classes an instruction can decode as: jal and jalr are calls, returns or jumps. */
  private static List<OpClass> classesOf(Op op) {
    if (op == Op.JAL || op == Op.JALR || op.base() == Op.JAL || op.base() == Op.JALR) {
      return List.of(OpClass.JUMP, OpClass.PROC_CALL, OpClass.RETURN);
    }
    return List.of(op.opClass());
  }

  /** Three-valued evaluation of a pattern for one instruction and class, other fields unknown. */
  enum PatternTruth {
    FALSE,
    TRUE,
    UNKNOWN;

    static PatternTruth of(Pattern p, Op op, OpClass cls) {
      Long v = eval(p, op, cls);
      return v == null ? UNKNOWN : v != 0 ? TRUE : FALSE;
    }

    /** The value, or null when it is not known statically for (op, cls). */
    private static Long eval(Pattern p, Op op, OpClass cls) {
      if (p instanceof Pattern.Const c) {
        return c.value();
      }
      if (p instanceof Pattern.Bool b) {
        return b.value() ? 1L : 0L;
      }
      if (p instanceof Pattern.Unary u) {
        Long v = eval(u.operand(), op, cls);
        if (v == null) {
          return null;
        }
        return switch (u.op()) {
          case NOT -> v == 0 ? 1L : 0L;
          case NEG -> -v;
          case COMPLEMENT -> ~v;
        };
      }
      if (p instanceof Pattern.Binary b) {
        Long named = nameComparison(b, op, cls);
        if (named != null) {
          return named;
        }
        Long l = eval(b.left(), op, cls);
        Long r = eval(b.right(), op, cls);
        switch (b.op()) {
          case AND -> {
            if (l != null && l == 0 || r != null && r == 0) {
              return 0L;
            }
            return l == null || r == null ? null : 1L;
          }
          case OR -> {
            if (l != null && l != 0 || r != null && r != 0) {
              return 1L;
            }
            return l == null || r == null ? null : 0L;
          }
          default -> {
            if (l == null || r == null) {
              return null;
            }
            return switch (b.op()) {
              case EQ -> l.equals(r) ? 1L : 0L;
              case NE -> l.equals(r) ? 0L : 1L;
              case LT -> l < r ? 1L : 0L;
              case LE -> l <= r ? 1L : 0L;
              case GT -> l > r ? 1L : 0L;
              case GE -> l >= r ? 1L : 0L;
              default -> null; // arithmetic of known constants does not decide a class
            };
          }
        }
      }
      return null; // fields, flags, dynamic values
    }

    /** {@code T.OP == name}, {@code T.OPCLASS != class}...: known for (op, cls). */
    private static Long nameComparison(Pattern.Binary b, Op op, OpClass cls) {
      if (b.op() != org.dise.compiler.ast.Expr.BinaryOp.EQ
          && b.op() != org.dise.compiler.ast.Expr.BinaryOp.NE) {
        return null;
      }
      Boolean eq = null;
      for (Pattern[] pair : new Pattern[][] {{b.left(), b.right()}, {b.right(), b.left()}}) {
        if (pair[0] instanceof Pattern.Field f
            && f.field() == InstructionField.OP
            && pair[1] instanceof Pattern.OpName n) {
          // As the engine matches T.OP: the mnemonic as encoded or its base instruction.
          eq =
              op.mnemonic().equalsIgnoreCase(n.mnemonic())
                  || op.base() != null && op.base().mnemonic().equalsIgnoreCase(n.mnemonic());
        } else if (pair[0] instanceof Pattern.Field f
            && f.field() == InstructionField.OPCLASS
            && pair[1] instanceof Pattern.OpClassName n) {
          eq = cls.acfName().equalsIgnoreCase(n.opClass());
        }
      }
      if (eq == null) {
        return null;
      }
      return (b.op() == org.dise.compiler.ast.Expr.BinaryOp.EQ) == eq ? 1L : 0L;
    }
  }
}
