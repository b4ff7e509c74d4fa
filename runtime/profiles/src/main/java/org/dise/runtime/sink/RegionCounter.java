package org.dise.runtime.sink;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.elf.Symbol;
import org.dise.runtime.elf.SymbolTable;
import org.dise.runtime.isa.DecodedInsn;

/**
 * The hot code region profile (first paper, Section 3.5): each event is a dynamic branch, and its
 * value the number of application instructions since the previous recorded branch, including the
 * branch itself.
 */
public final class RegionCounter implements Sink {
  private final String name;

  /** Per branch pc: {count, instructions}. */
  private final Map<Long, long[]> byPc = new HashMap<>();

  private long mark;

  public RegionCounter(String name) {
    this.name = name;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void record(Cpu cpu, DecodedInsn original, long[] args, long applicationInstructions) {
    long now = applicationInstructions + 1;
    long[] e = byPc.computeIfAbsent(original.pc, k -> new long[2]);
    e[0]++;
    e[1] += now - mark;
    mark = now;
  }

  @Override
  public void resume(long applicationInstructions) {
    mark = applicationInstructions;
  }

  @Override
  public ProfileTable table(SymbolTable symbols) {
    List<Map.Entry<Long, long[]>> entries = new ArrayList<>(byPc.entrySet());
    entries.sort(
        (a, b) ->
            a.getValue()[0] != b.getValue()[0]
                ? Long.compare(b.getValue()[0], a.getValue()[0])
                : Long.compare(a.getKey(), b.getKey()));
    List<List<String>> rows = new ArrayList<>();
    for (Map.Entry<Long, long[]> e : entries) {
      rows.add(
          List.of(
              Branches.hex(e.getKey()),
              functionAt(symbols, e.getKey()),
              Long.toString(e.getValue()[0]),
              Long.toString(e.getValue()[1])));
    }
    return new ProfileTable(
        List.of("pc", "function", "count", "instructions"), rows, List.of("pc"), "instructions");
  }

  static String functionAt(SymbolTable symbols, long addr) {
    return symbols.lookup(addr).map(Symbol::name).orElse("?");
  }
}
