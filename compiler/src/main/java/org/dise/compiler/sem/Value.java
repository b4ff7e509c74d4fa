package org.dise.compiler.sem;

/** A compile-time value of a component parameter. */
public sealed interface Value {
  record Int(long value) implements Value {}

  record Str(String value) implements Value {}

  record Bool(boolean value) implements Value {}

  /**
   * {@code symbol(NAME)} or {@code symbol_end(NAME)} given to an integer parameter: an address of
   * the program, resolved when it is loaded; {@code span} is where it is written.
   */
  record Address(String symbol, boolean end, org.dise.compiler.diag.Span span) implements Value {}

  /** A symbolic name: an opcode class, a mnemonic or codeword, a sink or trigger name. */
  record Symbol(String value) implements Value {}

  /** {@code v} as the configuration carries it (what the runtime checks). */
  static String text(Value v) {
    return v instanceof Int i
        ? Long.toString(i.value())
        : v instanceof Str s
            ? s.value()
            : v instanceof Bool b
                ? Boolean.toString(b.value())
                : v instanceof Address a
                    ? new org.dise.runtime.dise.SymbolRef(
                            a.symbol(), a.end(), a.span().isNone() ? "" : a.span().toString())
                        .asParam()
                    : ((Symbol) v).value();
  }
}
