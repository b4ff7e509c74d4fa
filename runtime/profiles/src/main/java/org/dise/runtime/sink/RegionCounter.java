package org.dise.runtime.sink;

import java.util.ArrayList;
import java.util.List;
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
  private final LongCounters byPc = new LongCounters(1, 2);

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
    byPc.add2(original.pc, now - mark);
    mark = now;
  }

  @Override
  public long registersRead(DecodedInsn original) {
    return 0; // the branch's pc and the instruction count only
  }

  @Override
  public void resume(long applicationInstructions) {
    mark = applicationInstructions;
  }

  @Override
  public ProfileTable table(SymbolTable symbols) {
    // Each entry: {pc, count, instructions}.
    List<long[]> entries = new ArrayList<>();
    byPc.forEach((k, v) -> entries.add(new long[] {k[0], v[0], v[1]}));
    entries.sort((a, b) -> a[1] != b[1] ? Long.compare(b[1], a[1]) : Long.compare(a[0], b[0]));
    List<List<String>> rows = new ArrayList<>();
    for (long[] e : entries) {
      rows.add(
          List.of(
              Branches.hex(e[0]),
              functionAt(symbols, e[0]),
              Long.toString(e[1]),
              Long.toString(e[2])));
    }
    return new ProfileTable(
        List.of("pc", "function", "count", "instructions"), rows, List.of("pc"), "instructions");
  }

  static String functionAt(SymbolTable symbols, long addr) {
    return symbols.lookup(addr).map(Symbol::name).orElse("?");
  }
}
