package org.dise.compiler.sem;

import java.util.List;
import org.dise.compiler.diag.Span;

/**
 * A resolved replacement sequence (the RT contents before encoding). {@code deletes} is true when
 * the sequence says {@code delete}: it drops the original instruction on purpose.
 */
public record CheckedReplacement(String name, List<Stmt> body, boolean deletes, Span span) {
  public CheckedReplacement {
    body = List.copyOf(body);
  }

  /** A sequence without the {@code delete} marker. */
  public CheckedReplacement(String name, List<Stmt> body, Span span) {
    this(name, body, false, span);
  }

  /** Whether the sequence executes the original instruction ({@code T.INSN}). */
  public boolean keepsOriginal() {
    return body.stream().anyMatch(s -> s instanceof Stmt.Original);
  }

  /** One element of the sequence. */
  public sealed interface Stmt {
    Span span();

    record Label(String name, Span span) implements Stmt {}

    /** {@code T.INSN}: the original instruction. */
    record Original(Span span) implements Stmt {}

    /**
     * {@code call(sink, args)}; {@code sink} is the unique name of a bound sink; {@code result} the
     * DISE register {@code $drN = call(...)} writes.
     */
    record Call(String sink, List<Arg> args, java.util.Optional<Arg> result, Span span)
        implements Stmt {
      public Call {
        args = List.copyOf(args);
      }
    }

    record Instruction(String mnemonic, List<Arg> operands, Span span) implements Stmt {
      public Instruction {
        operands = List.copyOf(operands);
      }
    }
  }

  /** An operand, with its kind resolved. */
  public sealed interface Arg {
    Span span();

    record XReg(int number, Span span) implements Arg {}

    record FReg(int number, Span span) implements Arg {}

    /** A DISE-private register {@code $drN}. */
    record DiseReg(int number, Span span) implements Arg {}

    /** An instantiation directive: a static field of the matched instruction. */
    record Directive(InstructionField field, Span span) implements Arg {}

    record Imm(long value, Span span) implements Arg {}

    record LabelRef(String name, Span span) implements Arg {}

    /** {@code symbol(NAME)} or {@code symbol_end(NAME)}: an immediate known at program load. */
    record SymbolAddr(String symbol, boolean end, Span span) implements Arg {}

    /** {@code offset(base)}; offset is an {@link Imm} or an IMM {@link Directive}. */
    record Mem(Arg offset, Arg base, Span span) implements Arg {}

    /** A CSR, rounding mode or fence set, by name. */
    record Symbol(String name, Span span) implements Arg {}

    /** {@code T.INSN} as a call argument (the raw instruction word). */
    record Insn(Span span) implements Arg {}

    /** Something that is not an operand, kept for the operand pass to report. */
    record Invalid(String what, Span span) implements Arg {}
  }
}
