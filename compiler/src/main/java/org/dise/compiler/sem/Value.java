package org.dise.compiler.sem;

/** A compile-time value of a component parameter. */
public sealed interface Value {
  record Int(long value) implements Value {}

  record Str(String value) implements Value {}

  record Bool(boolean value) implements Value {}

  /** A symbolic name: an opcode class, a mnemonic or codeword, a sink or trigger name. */
  record Symbol(String value) implements Value {}
}
