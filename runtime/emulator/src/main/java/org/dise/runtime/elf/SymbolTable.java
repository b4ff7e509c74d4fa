package org.dise.runtime.elf;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Function symbols of a process, sorted by address, for naming PCs in reports. A dynamically linked
 * process's table grows as the dynamic linker maps libraries ({@link #add}): whoever holds the
 * table sees their functions from then on.
 */
public final class SymbolTable {
  /** The largest range an unsized symbol is stretched over (beyond it, it names itself only). */
  static final long MAX_UNSIZED = 64 * 1024;

  /** The symbols and their start addresses, replaced whole when an object is added. */
  private record Sorted(Symbol[] byAddress, long[] starts) {
    static Sorted of(List<Symbol> unique) {
      Symbol[] by = unique.toArray(new Symbol[0]);
      long[] st = new long[by.length];
      for (int i = 0; i < by.length; i++) {
        st[i] = by[i].address();
      }
      return new Sorted(by, st);
    }
  }

  /** Null until a query needs it: a run whose profile names no pc never sorts the table. */
  private volatile Sorted sorted;

  /**
   * Each object's symbols, in the order given, waiting to be read, prepared and merged: a run whose
   * report names no pc never reads the program's symbol table at all.
   */
  private final List<Supplier<List<Symbol>>> pending = new ArrayList<>();

  /** An object's line table and where it was loaded: its pcs are link-time pc + bias. */
  private record Lines(ElfFile elf, long bias) {}

  /** The objects whose source lines {@link #line} looks up, read only when a line is asked for. */
  private final java.util.List<Lines> lines = new java.util.concurrent.CopyOnWriteArrayList<>();

  public SymbolTable(List<Symbol> symbols) {
    this(given(symbols));
  }

  private SymbolTable(Supplier<List<Symbol>> symbols) {
    pending.add(symbols);
  }

  /** A table of the symbols {@code symbols} gives, asked for when a query first needs them. */
  public static SymbolTable deferred(Supplier<List<Symbol>> symbols) {
    return new SymbolTable(symbols);
  }

  /** Symbols known now, as a pending object's supplier (a copy: the caller's list may change). */
  private static Supplier<List<Symbol>> given(List<Symbol> symbols) {
    List<Symbol> copy = List.copyOf(symbols);
    return () -> copy;
  }

  /** The sorted table, built on first use from the objects added so far. */
  private Sorted sorted() {
    Sorted t = sorted;
    return t != null ? t : build();
  }

  private synchronized Sorted build() {
    if (sorted == null) {
      List<Symbol> unique = prepare(pending.get(0).get());
      for (int i = 1; i < pending.size(); i++) {
        List<Symbol> more = pending.get(i).get();
        if (!more.isEmpty()) {
          unique = merged(unique, more);
        }
      }
      pending.clear();
      sorted = Sorted.of(unique);
    }
    return sorted;
  }

  /**
   * One object's symbols, one per address, sorted: among aliases at one address the sized, then the
   * shortest public-looking name; an unsized one stretched to the next symbol.
   */
  private static List<Symbol> prepare(List<Symbol> symbols) {
    List<Symbol> sorted = new ArrayList<>(symbols);
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
    return unique;
  }

  /**
   * Adds the functions of an object mapped since (a shared library, at its load address). Each
   * object's symbols are prepared on their own, so that an unsized one is not stretched into
   * another object.
   */
  public void add(List<Symbol> symbols) {
    addDeferred(given(symbols));
  }

  /** As {@link #add}, with the symbols read only when a query first needs them. */
  public synchronized void addDeferred(Supplier<List<Symbol>> symbols) {
    if (sorted == null) {
      pending.add(symbols);
    } else {
      List<Symbol> now = symbols.get();
      if (!now.isEmpty()) {
        sorted = Sorted.of(merged(List.of(sorted.byAddress()), now));
      }
    }
  }

  /** {@code table} (prepared) with another object's symbols; the earlier keeps a shared address. */
  private static List<Symbol> merged(List<Symbol> table, List<Symbol> symbols) {
    List<Symbol> all = new ArrayList<>(table);
    all.addAll(prepare(symbols));
    all.sort(Comparator.comparingLong(Symbol::address));
    List<Symbol> unique = new ArrayList<>();
    for (Symbol s : all) {
      if (unique.isEmpty() || unique.get(unique.size() - 1).address() != s.address()) {
        unique.add(s);
      }
    }
    return unique;
  }

  /** The same symbols moved by {@code bias} (a position-independent program's load address). */
  public SymbolTable rebased(long bias) {
    if (bias == 0) {
      return this;
    }
    SymbolTable t = new SymbolTable(moved(List.of(sorted().byAddress()), bias, ""));
    for (Lines l : lines) {
      t.addLines(l.elf(), l.bias() + bias);
    }
    return t;
  }

  /** Names the source lines of {@code elf}'s pcs, loaded at {@code bias}, from its .debug_line. */
  public void addLines(ElfFile elf, long bias) {
    for (Lines l : lines) {
      if (l.elf() == elf && l.bias() == bias) {
        return;
      }
    }
    lines.add(new Lines(elf, bias));
  }

  /**
   * The source line of {@code addr} ({@code lines.c:12}) from the line table of the object that
   * holds it; empty when that object was built without {@code -g} (libraries often are).
   */
  public Optional<LineTable.SourceLine> line(long addr) {
    for (Lines l : lines) {
      long linkTime = addr - l.bias();
      // Only the object whose segments hold the pc: another's table could cover the same offset.
      if (l.elf().fileOffset(linkTime) >= 0) {
        return l.elf().lineTable().lookup(linkTime);
      }
    }
    return Optional.empty();
  }

  /** Whether any object of this table has a line table (was built with {@code -g}). */
  public boolean hasLines() {
    for (Lines l : lines) {
      if (!l.elf().lineTable().isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@link #describe} with the source line after it when there is one: {@code main+0x8
   * (lines.c:12)}.
   */
  public String describeWithLine(long addr) {
    String d = describe(addr);
    return line(addr).map(l -> d + " (" + l + ")").orElse(d);
  }

  /** {@code symbols} moved by {@code bias}, each name followed by {@code suffix}. */
  public static List<Symbol> moved(List<Symbol> symbols, long bias, String suffix) {
    List<Symbol> moved = new ArrayList<>();
    for (Symbol s : symbols) {
      moved.add(new Symbol(s.name() + suffix, s.address() + bias, s.size()));
    }
    return moved;
  }

  public static SymbolTable empty() {
    return new SymbolTable(Collections.emptyList());
  }

  public List<Symbol> symbols() {
    return List.of(sorted().byAddress());
  }

  /** The function whose range contains {@code addr}. */
  public Optional<Symbol> lookup(long addr) {
    Sorted t = sorted();
    int i = java.util.Arrays.binarySearch(t.starts(), addr);
    if (i < 0) {
      i = -i - 2;
    }
    if (i < 0) {
      return Optional.empty();
    }
    Symbol s = t.byAddress()[i];
    return s.contains(addr) ? Optional.of(s) : Optional.empty();
  }

  /** The symbol with this exact name. */
  public Optional<Symbol> byName(String name) {
    for (Symbol s : sorted().byAddress()) {
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
    return sorted().byAddress().length;
  }
}
