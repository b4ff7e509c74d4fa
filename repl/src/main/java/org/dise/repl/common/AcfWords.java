package org.dise.repl.common;

import java.util.List;

/**
 * The ACF keywords both completers offer, the REPL's ({@code shell.ReplCompleter}) and the LSP
 * server's ({@code lsp.AcfCompletion}), so that a new keyword is added once: the declarations, the
 * values, and the two HPS registers (spec/acf-language.md).
 */
public final class AcfWords {
  private AcfWords() {}

  /** In the order the LSP server lists them. */
  public static final List<String> KEYWORDS =
      List.of(
          "import",
          "acf",
          "use",
          "const",
          "register",
          "counter",
          "sink",
          "trigger",
          "null",
          "call",
          "true",
          "false");

  public static final List<String> HPS_REGISTERS = List.of("HPS_R0", "HPS_R1");
}
