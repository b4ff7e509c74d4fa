package org.dise.runtime.profiles.sink;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dise.runtime.cpu.plan.GuestState;
import org.dise.runtime.cpu.plan.SiteCounter;
import org.dise.runtime.elf.Symbol;
import org.dise.runtime.elf.SymbolTable;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.sink.ComponentSpec;
import org.dise.runtime.sink.NamedSink;
import org.dise.runtime.sink.ProfileTable;

/**
 * The hot code region profile (first paper, Section 3.5): each event is a dynamic branch, and its
 * value the number of application instructions since the previous recorded branch, including the
 * branch itself.
 */
public final class RegionCounter extends NamedSink {
  /**
   * The catalogue's entry for this sink ({@code region_counter}): its parameters and what it
   * accepts.
   */
  public static final ComponentSpec SPEC =
      ComponentSpec.instructionSink(
          "region_counter",
          Set.of(),
          "hot code regions: per branch pc, count and instructions since the previous one");

  /** Per branch pc: {count, instructions}, as {@link #record} counts them. */
  private final LongCounters byPc = new LongCounters(1, 2);

  /** Per branch pc: its counter in translated code, which counts the same beside byPc. */
  private final Map<Long, SiteCounter> sites = new HashMap<>();

  /** The end of the previous recorded branch, shared with the sites. */
  private final SiteCounter.Mark mark = new SiteCounter.Mark();

  public RegionCounter(String name) {
    super(name);
  }

  @Override
  public void record(
      GuestState guest, DecodedInsn original, long[] args, long applicationInstructions) {
    long now = applicationInstructions + 1;
    byPc.add2(original.pc, now - mark.at);
    mark.at = now;
  }

  @Override
  public SiteCounter site(DecodedInsn original) {
    return sites.computeIfAbsent(original.pc, pc -> SiteCounter.intervals(mark));
  }

  @Override
  public long registersRead(DecodedInsn original) {
    return 0; // the branch's pc and the instruction count only
  }

  @Override
  public void resume(long applicationInstructions) {
    mark.at = applicationInstructions;
  }

  @Override
  public ProfileTable table(SymbolTable symbols) {
    // Each entry: {pc, count, instructions}.
    Map<Long, long[]> byBranch = new HashMap<>();
    byPc.forEach((k, v) -> byBranch.put(k[0], new long[] {k[0], v[0], v[1]}));
    sites.forEach(
        (pc, site) -> {
          if (site.events > 0) {
            long[] e = byBranch.computeIfAbsent(pc, k -> new long[] {k, 0, 0});
            e[1] += site.events;
            e[2] += site.instructions;
          }
        });
    List<long[]> entries = new ArrayList<>(byBranch.values());
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
