package org.dise.runtime.profiles.sink;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.dise.runtime.cpu.plan.GuestState;
import org.dise.runtime.cpu.plan.SiteCounter;
import org.dise.runtime.elf.Symbol;
import org.dise.runtime.elf.SymbolTable;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.Op;
import org.dise.runtime.isa.OpClass;
import org.dise.runtime.sink.ComponentSpec;
import org.dise.runtime.sink.NamedSink;
import org.dise.runtime.sink.ProfileTable;

/**
 * The hot method profile (first paper, Section 3.5): per method, the number of invocations (a
 * recorded call counts for its callee) and of taken branches recorded in it (the backward ones,
 * with the library's pattern).
 */
public final class MethodCounter extends NamedSink {
  /**
   * The catalogue's entry for this sink ({@code method_counter}): its parameters and what it
   * accepts.
   */
  public static final ComponentSpec SPEC =
      ComponentSpec.instructionSink(
          "method_counter",
          Set.of("proc_call", "branch"),
          "hot methods: invocations per callee plus taken backward branches");

  /** Per callee entry: invocations. */
  private final LongCounters invocations = new LongCounters(1, 1);

  /** Per branch pc: times taken. */
  private final LongCounters branches = new LongCounters(1, 1);

  /** Per callee entry of a direct call: its counter in translated code (beside invocations). */
  private final Map<Long, SiteCounter> calleeSites = new HashMap<>();

  /** Per branch pc: its counter in translated code (beside branches). */
  private final Map<Long, SiteCounter> branchSites = new HashMap<>();

  public MethodCounter(String name) {
    super(name);
  }

  @Override
  public void record(
      GuestState guest, DecodedInsn original, long[] args, long applicationInstructions) {
    OpClass c = original.opClass();
    if (c == OpClass.PROC_CALL) {
      invocations.add(Branches.jumpTarget(original, guest.x()), 0, 1);
    } else if (c == OpClass.BRANCH && Branches.taken(original, guest.x())) {
      branches.add(original.pc, 0, 1);
    }
  }

  @Override
  public SiteCounter site(DecodedInsn original) {
    OpClass c = original.opClass();
    if (c == OpClass.PROC_CALL && original.exec == Op.JAL) {
      // Every direct call to one callee counts for it: its sites share one counter.
      return calleeSites.computeIfAbsent(
          Branches.jumpTarget(original, null), k -> SiteCounter.events());
    }
    if (c == OpClass.BRANCH) {
      return branchSites.computeIfAbsent(original.pc, k -> SiteCounter.takenBranches(original));
    }
    return null; // an indirect call's callee is dynamic; others record nothing
  }

  @Override
  public long registersRead(DecodedInsn original) {
    return Branches.operands(original); // the call's target, the branch's outcome
  }

  /** Adds a site's events to the key's total (a site that never counted adds no entry). */
  static void addEvents(Map<Long, Long> totals, long key, SiteCounter site) {
    if (site.events > 0) {
      totals.merge(key, site.events, Long::sum);
    }
  }

  @Override
  public ProfileTable table(SymbolTable symbols) {
    // Aggregate by function: calls by callee entry, branches by the function containing them.
    Map<Long, long[]> byFunction = new TreeMap<>();
    Map<Long, String> names = new HashMap<>();
    // By address, so that a name is taken from the same address however the events were counted.
    Map<Long, Long> calls = new TreeMap<>();
    invocations.forEach((entry, v) -> calls.merge(entry[0], v[0], Long::sum));
    calleeSites.forEach((entry, site) -> addEvents(calls, entry, site));
    Map<Long, Long> taken = new TreeMap<>();
    branches.forEach((entry, v) -> taken.merge(entry[0], v[0], Long::sum));
    branchSites.forEach((pc, site) -> addEvents(taken, pc, site));
    calls.forEach(
        (addr, n) -> {
          long key = symbols.lookup(addr).map(Symbol::address).orElse(addr);
          names.putIfAbsent(key, RegionCounter.functionAt(symbols, addr));
          byFunction.computeIfAbsent(key, k -> new long[2])[0] += n;
        });
    taken.forEach(
        (pc, n) -> {
          long key = symbols.lookup(pc).map(Symbol::address).orElse(pc);
          names.putIfAbsent(key, RegionCounter.functionAt(symbols, pc));
          byFunction.computeIfAbsent(key, k -> new long[2])[1] += n;
        });
    List<Map.Entry<Long, long[]>> entries = new ArrayList<>(byFunction.entrySet());
    entries.sort(
        (a, b) ->
            Long.compare(b.getValue()[0] + b.getValue()[1], a.getValue()[0] + a.getValue()[1]));
    List<List<String>> rows = new ArrayList<>();
    for (Map.Entry<Long, long[]> e : entries) {
      rows.add(
          List.of(
              names.get(e.getKey()),
              Long.toString(e.getValue()[0]),
              Long.toString(e.getValue()[1]),
              Long.toString(e.getValue()[0] + e.getValue()[1]),
              Branches.hex(e.getKey())));
    }
    // The papers' hot method profile "represents time spent in methods" by invocations plus
    // loop back edges taken (phase-based remote profiling paper, Section 3.2.3), so their sum
    // is what the rows are ranked by and what the accuracy metrics compare.
    return new ProfileTable(
        List.of("method", "invocations", "backward_branches", "events", "address"),
        rows,
        List.of("address"),
        "events");
  }
}
