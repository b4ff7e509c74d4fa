package org.dise.runtime.dise;

/**
 * A program symbol that productions name: {@code symbol(NAME)} (its start address) or {@code
 * symbol_end(NAME)} (one past its last byte). {@code origin} says where the ACF names it ({@code
 * file.acf:3:14}), so that a program without the symbol is refused at that place. A production set
 * keeps these symbolic until {@link SymbolBinding} resolves them against the loaded program, so one
 * configuration serves every build of it.
 */
public record SymbolRef(String name, boolean end, String origin) {
  public SymbolRef {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("a symbol reference needs a name");
    }
    origin = origin == null ? "" : origin;
  }

  /** As the language writes it: {@code symbol(name)} or {@code symbol_end(name)}. */
  public String spelling() {
    boolean plain = name.matches("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z0-9_]+)*");
    String n = plain ? name : "\"" + name.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    return (end ? "symbol_end(" : "symbol(") + n + ")";
  }

  private static final java.util.regex.Pattern PARAM =
      java.util.regex.Pattern.compile(
          "(symbol|symbol_end)\\((\"(?:[^\"\\\\]|\\\\.)*\"|[^()\"]+)\\)(?: at (.+))?");

  /**
   * As a sink or trigger parameter's text (parameters are text in a production set and a
   * configuration): {@code symbol(name) at file.acf:3:14}; see {@link #fromParam}.
   */
  public String asParam() {
    return spelling() + (origin.isEmpty() ? "" : " at " + origin);
  }

  /** The reference a parameter's text holds, when it is one ({@link #asParam}). */
  public static java.util.Optional<SymbolRef> fromParam(String text) {
    java.util.regex.Matcher m = PARAM.matcher(text);
    if (!m.matches()) {
      return java.util.Optional.empty();
    }
    String name = m.group(2);
    if (name.startsWith("\"")) {
      name = name.substring(1, name.length() - 1).replaceAll("\\\\(.)", "$1");
    }
    return java.util.Optional.of(
        new SymbolRef(name, m.group(1).equals("symbol_end"), m.group(3) == null ? "" : m.group(3)));
  }

  @Override
  public String toString() {
    return spelling();
  }
}
