package org.dise.runtime.elf;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** Function symbols of a program, sorted by address, for naming PCs in reports. */
public final class SymbolTable {
  /** The largest range an unsized symbol is stretched over (beyond it, it names itself only). */
  static final long MAX_UNSIZED = 64 * 1024;

  private final Symbol[] byAddress;
  private final long[] starts;

  public SymbolTable(List<Symbol> symbols) {
    List<Symbol> sorted = new ArrayList<>(symbols);
    // Among aliases at one address prefer the sized, then the shortest public-looking name.
    sorted.sort(
        Comparator.comparingLong(Symbol::address)
            .thenComparing((Symbol s) -> s.size() == 0)
            .thenComparing((Symbol s) -> s.name().startsWith("_"))
            .thenComparingInt(s -> s.name().length()));
    List<Symbol> unique = new ArrayList<>();
    for (Symbol s : sorted) {
      if (unique.isEmpty() || unique.get(unique.size() - 1).address() != s.address()) {
        unique.add(s);
      }
    }
    // A function symbol without a size (hand-written assembly often has none) covers the code
    // up to the next symbol, as debuggers assume, so its PCs get a name in reports.
    for (int i = 0; i + 1 < unique.size(); i++) {
      Symbol s = unique.get(i);
      long gap = unique.get(i + 1).address() - s.address();
      if (s.size() == 0 && gap <= MAX_UNSIZED) {
        unique.set(i, new Symbol(s.name(), s.address(), gap));
      }
    }
    this.byAddress = unique.toArray(new Symbol[0]);
    this.starts = new long[byAddress.length];
    for (int i = 0; i < byAddress.length; i++) {
      starts[i] = byAddress[i].address();
    }
  }

  /** The same symbols moved by {@code bias} (a position-independent program's load address). */
  public SymbolTable rebased(long bias) {
    if (bias == 0) {
      return this;
    }
    List<Symbol> moved = new ArrayList<>();
    for (Symbol s : byAddress) {
      moved.add(new Symbol(s.name(), s.address() + bias, s.size()));
    }
    return new SymbolTable(moved);
  }

  public static SymbolTable empty() {
    return new SymbolTable(Collections.emptyList());
  }

  public List<Symbol> symbols() {
    return List.of(byAddress);
  }

  /** The function whose range contains {@code addr}. */
  public Optional<Symbol> lookup(long addr) {
    int i = java.util.Arrays.binarySearch(starts, addr);
    if (i < 0) {
      i = -i - 2;
    }
    if (i < 0) {
      return Optional.empty();
    }
    Symbol s = byAddress[i];
    return s.contains(addr) ? Optional.of(s) : Optional.empty();
  }

  /** The symbol with this exact name. */
  public Optional<Symbol> byName(String name) {
    for (Symbol s : byAddress) {
      if (s.name().equals(name)) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
  }

  /** {@code name+0x1c}, {@code name}, or the bare hex address when no function contains it. */
  public String describe(long addr) {
    Optional<Symbol> s = lookup(addr);
    if (s.isEmpty()) {
      return String.format("0x%x", addr);
    }
    long off = addr - s.get().address();
    return off == 0 ? s.get().name() : String.format("%s+0x%x", s.get().name(), off);
  }

  public int size() {
    return byAddress.length;
  }
}
