package org.dise.runtime.elf;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every named symbol of a program's symbol table by name: functions, data objects and the linker's
 * untyped markers ({@code _end}), with their binding. What {@code symbol(NAME)} in an ACF resolves
 * against; {@link SymbolTable} keeps functions only, one per address, for naming PCs.
 */
public final class ProgramSymbols {
  /** ELF symbol types this table keeps (st_info's low nibble). */
  public enum Kind {
    NOTYPE,
    OBJECT,
    FUNC
  }

  /** One symbol table entry: name, [address, address + size), type, and global or not. */
  public record Entry(String name, long address, long size, Kind kind, boolean global) {
    public long end() {
      return address + size;
    }
  }

  private final Map<String, List<Entry>> byName;

  public ProgramSymbols(List<Entry> entries) {
    Map<String, List<Entry>> m = new LinkedHashMap<>();
    for (Entry e : entries) {
      m.computeIfAbsent(e.name(), k -> new ArrayList<>()).add(e);
    }
    this.byName = Collections.unmodifiableMap(m);
  }

  public static ProgramSymbols empty() {
    return new ProgramSymbols(List.of());
  }

  /** The same symbols moved by {@code bias} (a position-independent program's load address). */
  public ProgramSymbols rebased(long bias) {
    if (bias == 0) {
      return this;
    }
    List<Entry> moved = new ArrayList<>();
    for (List<Entry> l : byName.values()) {
      for (Entry e : l) {
        moved.add(new Entry(e.name(), e.address() + bias, e.size(), e.kind(), e.global()));
      }
    }
    return new ProgramSymbols(moved);
  }

  /**
   * The symbol called {@code name}: the global (or weak) definition when there is one, else the
   * only local one. Empty when the program has none; see {@link #candidates} for several locals.
   */
  public Optional<Entry> lookup(String name) {
    List<Entry> l = byName.getOrDefault(name, List.of());
    List<Entry> globals = l.stream().filter(Entry::global).toList();
    if (!globals.isEmpty()) {
      return Optional.of(globals.get(0));
    }
    long distinct = l.stream().map(Entry::address).distinct().count();
    return distinct == 1 ? Optional.of(l.get(0)) : Optional.empty();
  }

  /** Every entry called {@code name} (several local statics of different files share names). */
  public List<Entry> candidates(String name) {
    return byName.getOrDefault(name, List.of());
  }

  /** Every entry, grouped by name in the order names first appeared. */
  public List<Entry> entries() {
    List<Entry> all = new ArrayList<>();
    byName.values().forEach(all::addAll);
    return all;
  }

  public java.util.Set<String> names() {
    return byName.keySet();
  }

  public int size() {
    return byName.size();
  }
}
