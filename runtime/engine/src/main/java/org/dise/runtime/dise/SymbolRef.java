package org.dise.runtime.dise;

/**
 * A program symbol that productions name: {@code symbol(NAME)} (its start address) or {@code
 * symbol_end(NAME)} (one past its last byte). {@code origin} says where the ACF names it
 * ({@code file.acf:3:14}), so that a program without the symbol is refused at that place. A
 * production set keeps these symbolic until {@link SymbolBinding} resolves them against the
 * loaded program, so one configuration serves every build of it.
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

  @Override
  public String toString() {
    return spelling();
  }
}
