package org.dise.runtime.elf;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The ELF objects of one process at their load addresses, as the dynamic linker's link map holds
 * them: the program, its dynamic linker, and each library the dynamic linker maps while the program
 * runs. It names PCs across objects ({@link #symbols}) and resolves {@code symbol(NAME)} in any of
 * them ({@link #programSymbols}); a library's functions are named {@code printf@libc.so.6}.
 */
public final class LinkMap {
  /** One mapped object: its ELF file, load bias and the name its symbols are qualified with. */
  public record LoadedObject(String name, ElfFile elf, long bias, Kind kind) {
    /** {@code @name} for a library's or the dynamic linker's symbols; nothing for the program's. */
    public String suffix() {
      return kind == Kind.PROGRAM ? "" : "@" + name;
    }

    /** Whether the object's loaded image covers {@code addr}. */
    public boolean covers(long addr) {
      for (Segment s : elf.segments()) {
        if (s.type() == Segment.PT_LOAD
            && addr >= s.vaddr() + bias
            && addr < s.vaddr() + bias + s.memSize()) {
          return true;
        }
      }
      return false;
    }
  }

  /** What an object is to the process. */
  public enum Kind {
    PROGRAM,
    INTERPRETER,
    LIBRARY
  }

  private final List<LoadedObject> objects = new CopyOnWriteArrayList<>();
  private final List<Consumer<LoadedObject>> listeners = new CopyOnWriteArrayList<>();

  /** Built on first use (a plain run never names a pc), then kept up to date by {@link #add}. */
  private SymbolTable table;

  /** The name an object's symbols are qualified with: its DT_SONAME, else its file name. */
  public static String nameOf(ElfFile elf, Path file) {
    String so = elf.soname();
    if (so != null && !so.isEmpty()) {
      return so;
    }
    Path f = file != null ? file : elf.path();
    return f == null ? "?" : f.getFileName().toString();
  }

  /** Records an object mapped at {@code bias} and tells the listeners. */
  public void add(LoadedObject o) {
    synchronized (this) {
      objects.add(o);
      if (table != null) {
        table.addDeferred(functions(o));
        table.addLines(o.elf(), o.bias());
      }
    }
    for (Consumer<LoadedObject> l : listeners) {
      l.accept(o);
    }
  }

  /** execve: the objects of the old program are gone (listeners stay). */
  public synchronized void clear() {
    objects.clear();
    table = null;
  }

  /** Calls {@code l} for each object added from now on (a library the dynamic linker mapped). */
  public void onLoad(Consumer<LoadedObject> l) {
    listeners.add(l);
  }

  public void removeListener(Consumer<LoadedObject> l) {
    listeners.remove(l);
  }

  /** The objects in the order they were mapped. */
  public List<LoadedObject> objects() {
    return List.copyOf(objects);
  }

  /** Whether an object of this file is already mapped at this bias. */
  public boolean has(Path file, long bias) {
    for (LoadedObject o : objects) {
      if (o.bias() == bias && file.equals(o.elf().path())) {
        return true;
      }
    }
    return false;
  }

  /** The object whose image covers {@code addr}. */
  public Optional<LoadedObject> objectAt(long addr) {
    for (LoadedObject o : objects) {
      if (o.covers(addr)) {
        return Optional.of(o);
      }
    }
    return Optional.empty();
  }

  /** The functions of every object mapped so far, live: objects mapped later join it. */
  public synchronized SymbolTable symbols() {
    if (table == null) {
      // Each object's unsized symbols stretch within that object only: add them one by one.
      // Each object's symbol table is read when a report first names a pc, not before.
      table =
          objects.isEmpty() ? SymbolTable.empty() : SymbolTable.deferred(functions(objects.get(0)));
      for (int i = 1; i < objects.size(); i++) {
        table.addDeferred(functions(objects.get(i)));
      }
      for (LoadedObject o : objects) {
        table.addLines(o.elf(), o.bias());
      }
    }
    return table;
  }

  private static java.util.function.Supplier<List<Symbol>> functions(LoadedObject o) {
    return () -> SymbolTable.moved(o.elf().symbols().symbols(), o.bias(), o.suffix());
  }

  /**
   * Every named symbol of every object mapped so far, for {@code symbol(NAME)}: the program's by
   * their names, a library's as {@code NAME@SONAME}, and a library's global symbol also by its
   * plain name when the program has none of that name and no object before it defines it (the
   * dynamic linker's search order: the program, then libraries in load order, the dynamic linker
   * last).
   */
  public ProgramSymbols programSymbols() {
    List<ProgramSymbols.Entry> out = new ArrayList<>();
    java.util.Set<String> plain = new java.util.HashSet<>();
    List<LoadedObject> order = new ArrayList<>();
    objects.stream().filter(o -> o.kind() == Kind.PROGRAM).forEach(order::add);
    objects.stream().filter(o -> o.kind() == Kind.LIBRARY).forEach(order::add);
    objects.stream().filter(o -> o.kind() == Kind.INTERPRETER).forEach(order::add);
    for (LoadedObject o : order) {
      List<ProgramSymbols.Entry> mine = o.elf().programSymbols().rebased(o.bias()).entries();
      if (o.kind() == Kind.PROGRAM) {
        out.addAll(mine);
        mine.forEach(e -> plain.add(e.name()));
        continue;
      }
      java.util.Set<String> definedHere = new java.util.HashSet<>();
      for (ProgramSymbols.Entry e : mine) {
        out.add(
            new ProgramSymbols.Entry(
                e.name() + o.suffix(), e.address(), e.size(), e.kind(), e.global()));
        if (e.global() && !plain.contains(e.name())) {
          out.add(e);
          definedHere.add(e.name());
        }
      }
      plain.addAll(definedHere);
    }
    return new ProgramSymbols(out);
  }
}
