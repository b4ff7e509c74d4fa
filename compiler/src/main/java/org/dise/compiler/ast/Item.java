package org.dise.compiler.ast;

import java.util.List;
import java.util.Optional;
import org.dise.compiler.diag.Span;

/** A top-level item of a file or an {@code acf} block. */
public sealed interface Item extends Node {
  /** {@code import "file.acf";} or {@code import library.name as alias;}. */
  record Import(Name target, boolean isFile, Optional<Name> alias, Span span) implements Item {}

  /** {@code acf name(params) { items }}: a named, parameterised ACF (a module). */
  record AcfBlock(Name name, List<Param> params, List<Item> body, Span span) implements Item {
    public AcfBlock {
      params = List.copyOf(params);
      body = List.copyOf(body);
    }
  }

  /** {@code use name(args);}: instantiates an ACF block, activating its productions. */
  record Use(Name target, List<Arg> args, Span span) implements Item {
    public Use {
      args = List.copyOf(args);
    }
  }

  /** {@code const NAME = expr;}: a compile-time integer. */
  record ConstDecl(Name name, Expr value, Span span) implements Item {}

  /** {@code register NAME = init;}: an HPS register (the source of {@code set_N}). */
  record RegisterDecl(Name name, Optional<Expr> init, Span span) implements Item {}

  /** {@code counter NAME(index = 0, width = 16, init = 0);}: an HPS counter. */
  record CounterDecl(Name name, List<Arg> args, Span span) implements Item {
    public CounterDecl {
      args = List.copyOf(args);
    }
  }

  /** {@code sink NAME = component(key = value, ...);}: a profile sink bound to a runtime part. */
  record SinkDecl(Name name, Name component, List<Arg> args, Span span) implements Item {
    public SinkDecl {
      args = List.copyOf(args);
    }
  }

  /** {@code trigger NAME = component(...);}: a sampling trigger bound to a runtime part. */
  record TriggerDecl(Name name, Name component, List<Arg> args, Span span) implements Item {
    public TriggerDecl {
      args = List.copyOf(args);
    }
  }

  /**
   * {@code P1: pattern => R1, null}: a pattern production (Section 3.3, Fig. 5). The two actions
   * are kept in their slots, whatever order they were written in: the conditional control (an empty
   * list is {@code null}) and the replacement (empty is {@code null}); {@code tag} names the sink
   * of a {@code tag(sink)} action (the co-processor's decode-stage tagging).
   */
  record Production(
      Name name,
      Expr pattern,
      List<MicroOp> control,
      Optional<Name> replacement,
      Optional<Name> tag,
      Span span)
      implements Item {
    public Production {
      control = List.copyOf(control);
    }

    /** A production without {@code tag(sink)}. */
    public Production(
        Name name, Expr pattern, List<MicroOp> control, Optional<Name> replacement, Span span) {
      this(name, pattern, control, replacement, Optional.empty(), span);
    }
  }

  /** {@code R1: call(h, T.INSN); T.INSN;}: a replacement sequence. */
  record Replacement(Name name, List<ReplStmt> body, Span span) implements Item {
    public Replacement {
      body = List.copyOf(body);
    }
  }
}
