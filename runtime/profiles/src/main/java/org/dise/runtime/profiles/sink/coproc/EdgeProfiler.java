package org.dise.runtime.profiles.sink.coproc;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.dise.runtime.elf.SymbolTable;
import org.dise.runtime.metrics.Accuracy;
import org.dise.runtime.sink.ComponentSpec;
import org.dise.runtime.sink.ProfileTable;

/**
 * Edge profiling on the co-processor (Zilles and Sohi, Section 4, "edge profiling"): the same
 * hardware as {@link ValueProfiler} with another program. A slot per branch counts each place it
 * went (the retired record's value is the actual next pc: taken target or fall-through, or an
 * indirect jump's target); a branch without a slot takes one by informational replacement; failed
 * replacements interrupt the main processor, which adds the slots' counts to its edge table in
 * memory. The runtime component {@code edge_profile}.
 */
public final class EdgeProfiler extends CoProcessor {
  /** The catalogue's entry for this sink ({@code edge_profile}): its parameters. */
  public static final ComponentSpec SPEC =
      ComponentSpec.taggedSink(
          "edge_profile",
          null,
          Set.of("branch", "jump", "proc_call", "return"),
          "co-processor edge profile of branches (tag only)",
          CoProcessor.params(
              CoProcessor.slotParams("targets", "slots"),
              List.of(CoProcessor.interval("16 x slots"), CoProcessor.EXACT)));

  private static final class Slot {
    long pc;
    long total;
    final Map<Long, Long> targets = new LinkedHashMap<>();
  }

  private long processedSinceInterrupt;
  private final Map<Long, Slot> associative = new HashMap<>();
  private final Slot[] slots;
  private int nextCandidate;
  private int failed;
  private long lostSamples;
  private final Map<Long, Map<Long, Long>> memory = new TreeMap<>();

  public EdgeProfiler(String name, Map<String, String> given) {
    this(name, SPEC.withDefaults(given), 0);
  }

  private EdgeProfiler(String name, Map<String, String> p, int filled) {
    super(name, p, 1, 16);
    this.slots = new Slot[config.slots()];
  }

  @Override
  protected void process(long pc, long next, long address) {
    if (++processedSinceInterrupt >= interval) {
      copyOut(); // periodically, so that slots go to the branches that are hot now
    }
    Slot s = associative.get(pc);
    if (s == null) {
      int i = -1;
      for (int k = 0; k < slots.length && i < 0; k++) {
        if (slots[k] == null) {
          i = k;
        }
      }
      if (i < 0) {
        Slot c = slots[nextCandidate];
        if (random(replaceMax) > c.total) {
          i = nextCandidate;
          lostSamples += c.total; // an infrequent branch's counts: little information lost
          associative.remove(c.pc);
        }
        nextCandidate = (nextCandidate + 1) % slots.length;
      }
      if (i < 0) {
        lostSamples++;
        if (++failed >= failThreshold) {
          copyOut();
        }
        return;
      }
      s = new Slot();
      s.pc = pc;
      slots[i] = s;
      associative.put(pc, s);
      failed = Math.max(0, failed - 1);
    }
    if (s.targets.containsKey(next) || s.targets.size() < valuesPerSlot) {
      s.targets.merge(next, 1L, Long::sum);
      s.total++;
    } else {
      lostSamples++; // more targets than the data array holds for one branch
    }
  }

  private void copyOut() {
    int copied = drainSlots();
    interrupt(copied);
  }

  private int drainSlots() {
    int copied = 0;
    for (int i = 0; i < slots.length; i++) {
      Slot s = slots[i];
      if (s != null) {
        Map<Long, Long> m = memory.computeIfAbsent(s.pc, k -> new TreeMap<>());
        s.targets.forEach((t, n) -> m.merge(t, n, Long::sum));
        slots[i] = null;
        copied++;
      }
    }
    associative.clear();
    failed = 0;
    processedSinceInterrupt = 0;
    return copied;
  }

  @Override
  protected int finalCopy() {
    return drainSlots();
  }

  /** The profiled edges: branch pc -> next pc -> samples counted. */
  public Map<Long, Map<Long, Long>> edges() {
    finish();
    return memory;
  }

  private static Map<String, Long> flat(Map<Long, Map<Long, Long>> m) {
    Map<String, Long> out = new HashMap<>();
    m.forEach((pc, t) -> t.forEach((to, n) -> out.put(pc + ">" + to, n)));
    return out;
  }

  @Override
  public ProfileTable table(SymbolTable symbols) {
    List<List<String>> rows = new ArrayList<>();
    edges()
        .forEach(
            (pc, t) ->
                t.forEach(
                    (to, n) ->
                        rows.add(
                            List.of(
                                "0x" + Long.toHexString(pc),
                                functionAt(symbols, pc),
                                "0x" + Long.toHexString(to),
                                Long.toString(n),
                                keepExact ? Long.toString(exact.count(pc, to)) : ""))));
    rows.sort((a, b) -> Long.compare(Long.parseLong(b.get(3)), Long.parseLong(a.get(3))));
    return new ProfileTable(
        List.of("pc", "function", "to", "count", "exact"), rows, List.of("pc", "to"), "count");
  }

  @Override
  public List<String> summary() {
    List<String> out = new ArrayList<>(super.summary());
    double err = keepExact ? Accuracy.countError(flat(exact.asMap()), scaled()) : Double.NaN;
    out.add(
        String.format(
            Locale.ROOT,
            "edge profile: %d branches, %d samples lost to full or replaced slots" + "%s",
            memory.size(),
            lostSamples,
            keepExact
                ? String.format(
                    Locale.ROOT, "; count error of the scaled profile %.2f%%", 100 * err)
                : ""));
    return out;
  }

  /** The profiled edge counts scaled to the exact total, for the count error. */
  private Map<String, Long> scaled() {
    Map<String, Long> p = flat(edges());
    long got = p.values().stream().mapToLong(Long::longValue).sum();
    long all = flat(exact.asMap()).values().stream().mapToLong(Long::longValue).sum();
    Map<String, Long> out = new HashMap<>();
    p.forEach((k, v) -> out.put(k, got == 0 ? 0 : Math.round((double) v * all / got)));
    return out;
  }
}
