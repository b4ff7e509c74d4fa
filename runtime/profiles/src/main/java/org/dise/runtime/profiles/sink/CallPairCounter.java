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
import org.dise.runtime.isa.Op;
import org.dise.runtime.sink.ComponentSpec;
import org.dise.runtime.sink.NamedSink;
import org.dise.runtime.sink.ProfileTable;

/**
 * The hot call pair profile (first paper, Section 3.5): invocation counts per caller-callee pair.
 * The callee of an indirect call is read from its register before the call executes.
 */
public final class CallPairCounter extends NamedSink {
  /**
   * The catalogue's entry for this sink ({@code call_pair_counter}): its parameters and what it
   * accepts.
   */
  public static final ComponentSpec SPEC =
      ComponentSpec.instructionSink(
          "call_pair_counter",
          Set.of("proc_call"),
          "hot call pairs: per (caller function, callee)");

  /**
   * A call site and its callee, a map key: equality written out, since a record's own is
   * bootstrapped through method handles on first use (milliseconds of a run's start; the first
   * record so bootstrapped in a process costs 15-20 ms) and runs as a method-handle chain after.
   */
  private record Site(long pc, long callee) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Site s && s.pc == pc && s.callee == callee;
    }

    @Override
    public int hashCode() {
      return Long.hashCode(pc) * 31 + Long.hashCode(callee);
    }
  }

  /** Per (call site pc, callee): invocations. */
  private final LongCounters counts = new LongCounters(2, 1);

  /** Per direct call site: its counter in translated code (its callee is fixed), beside counts. */
  private final Map<Site, SiteCounter> sites = new HashMap<>();

  public CallPairCounter(String name) {
    super(name);
  }

  @Override
  public long registersRead(DecodedInsn original) {
    return Branches.operands(original); // an indirect call's target
  }

  @Override
  public void record(
      GuestState guest, DecodedInsn original, long[] args, long applicationInstructions) {
    counts.add(original.pc, Branches.jumpTarget(original, guest.x()), 0, 1);
  }

  @Override
  public SiteCounter site(DecodedInsn original) {
    if (original.exec != Op.JAL) {
      return null; // an indirect call's callee is read from its register
    }
    return sites.computeIfAbsent(
        new Site(original.pc, Branches.jumpTarget(original, null)), k -> SiteCounter.events());
  }

  @Override
  public ProfileTable table(SymbolTable symbols) {
    // Call sites fold into their function: the pair is (caller function, callee).
    Map<Site, Long> pairs = new HashMap<>();
    counts.forEach(
        (k, v) ->
            pairs.merge(
                new Site(symbols.lookup(k[0]).map(Symbol::address).orElse(k[0]), k[1]),
                v[0],
                Long::sum));
    sites.forEach(
        (k, site) -> {
          if (site.events > 0) {
            pairs.merge(
                new Site(symbols.lookup(k.pc()).map(Symbol::address).orElse(k.pc()), k.callee()),
                site.events,
                Long::sum);
          }
        });
    List<Map.Entry<Site, Long>> entries = new ArrayList<>(pairs.entrySet());
    entries.sort(
        (a, b) ->
            !a.getValue().equals(b.getValue())
                ? Long.compare(b.getValue(), a.getValue())
                : a.getKey().pc() != b.getKey().pc()
                    ? Long.compare(a.getKey().pc(), b.getKey().pc())
                    : Long.compare(a.getKey().callee(), b.getKey().callee()));
    List<List<String>> rows = new ArrayList<>();
    for (Map.Entry<Site, Long> e : entries) {
      Site s = e.getKey();
      rows.add(
          List.of(
              RegionCounter.functionAt(symbols, s.pc()),
              RegionCounter.functionAt(symbols, s.callee()),
              Long.toString(e.getValue()),
              Branches.hex(s.pc()),
              Branches.hex(s.callee())));
    }
    return new ProfileTable(
        List.of("caller", "callee", "count", "caller_address", "callee_address"),
        rows,
        List.of("caller_address", "callee_address"),
        "count");
  }
}
