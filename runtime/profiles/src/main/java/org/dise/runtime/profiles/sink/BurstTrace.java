package org.dise.runtime.profiles.sink;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.dise.runtime.cpu.plan.GuestState;
import org.dise.runtime.elf.SymbolTable;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.OpClass;
import org.dise.runtime.sink.ComponentSpec;
import org.dise.runtime.sink.NamedSink;
import org.dise.runtime.sink.ParamSpec;
import org.dise.runtime.sink.ProfileTable;

/**
 * The data reference trace of bursty tracing and its hot data streams (bursty tracing paper,
 * Section 5.2): each event is a load or store, recorded as (pc, effective address) before it
 * executes. With {@code streams} the profile is the hot data streams, identified by their access
 * signature (the ordered pcs) and weighted by heat = length x frequency; without, the references
 * per pc. The first {@code capacity} references are kept. A codeword event ({@code on_trig_inst}),
 * or any other event that is not a load or store (such as the check that ends a burst of the
 * bursty_tracing trigger, which turns sampling off with micro-ops and injects no codeword), starts
 * a new burst: no stream spans two.
 */
public final class BurstTrace extends NamedSink {
  /**
   * The catalogue's entry for this sink ({@code burst_trace}): its parameters and what it accepts.
   */
  public static final ComponentSpec SPEC =
      ComponentSpec.instructionSink(
              "burst_trace",
              Set.of(),
              "bursty trace of data references; hot data streams",
              ParamSpec.integer(
                  "capacity",
                  1,
                  Integer.MAX_VALUE,
                  String.valueOf(BurstTrace.DEFAULT_CAPACITY),
                  "trace entries kept"),
              ParamSpec.bool("streams", "true", "find hot data streams in the trace"),
              ParamSpec.integer(
                  "min_length",
                  2,
                  Integer.MAX_VALUE,
                  String.valueOf(StreamFinder.MIN_LENGTH),
                  "shortest stream"),
              ParamSpec.integer(
                  "max_length",
                  2,
                  Integer.MAX_VALUE,
                  String.valueOf(StreamFinder.MAX_LENGTH),
                  "longest stream"),
              ParamSpec.integer(
                  "coverage_pct",
                  1,
                  100,
                  String.valueOf(StreamFinder.COVERAGE_PCT),
                  "share of the trace the streams cover"))
          .withCheck(BurstTrace::lengthsInOrder);

  private static Optional<ComponentSpec.Problem> lengthsInOrder(Map<String, String> p) {
    long min =
        Long.parseLong(p.getOrDefault("min_length", String.valueOf(StreamFinder.MIN_LENGTH)));
    long max =
        Long.parseLong(p.getOrDefault("max_length", String.valueOf(StreamFinder.MAX_LENGTH)));
    if (min > max) {
      return Optional.of(
          new ComponentSpec.Problem(
              "min_length", "min_length (" + min + ") must not exceed max_length (" + max + ")"));
    }
    return Optional.empty();
  }

  public static final int DEFAULT_CAPACITY = 256 * 1024;

  private final boolean streams;
  private final int capacity;
  private final StreamFinder finder;
  private long[] pcs = new long[1024];
  private long[] addresses = new long[1024];
  private int[] bursts = new int[1024];
  private int burst;
  private int n;
  private long dropped;
  private ProfileTable cached;
  private int cachedAt = -1;
  private long searchNanos;
  private long searchCpuNanos;

  public BurstTrace(String name, boolean streams, int capacity, StreamFinder finder) {
    super(name);
    this.streams = streams;
    this.capacity = capacity;
    this.finder = finder;
  }

  @Override
  public void record(
      GuestState guest, DecodedInsn original, long[] args, long applicationInstructions) {
    OpClass k = original.opClass();
    if (k != OpClass.LOAD && k != OpClass.STORE) {
      // on_trig_inst, or a check that ends a burst: no stream may span the gap.
      burst++;
      return;
    }
    if (n == capacity) {
      dropped++;
      return;
    }
    if (n == pcs.length) {
      pcs = Arrays.copyOf(pcs, Math.min(capacity, 2 * n));
      addresses = Arrays.copyOf(addresses, pcs.length);
      bursts = Arrays.copyOf(bursts, pcs.length);
    }
    bursts[n] = burst;
    pcs[n] = original.pc;
    addresses[n] = guest.x()[original.rs1] + original.imm;
    n++;
  }

  /** References traced (at most the capacity). */
  public int traced() {
    return n;
  }

  /** Events that started a burst (codewords and other events that are not references). */
  public int boundaries() {
    return burst;
  }

  /** Bursts that hold at least one reference of the trace. */
  public int bursts() {
    int count = 0;
    for (int i = 0; i < n; i++) {
      if (i == 0 || bursts[i] != bursts[i - 1]) {
        count++;
      }
    }
    return count;
  }

  /**
   * The hot data streams as if the bursts were one trace (streams may span the gaps between them),
   * for comparison.
   */
  public List<StreamFinder.Stream> hotStreamsJoined() {
    return finder.find(pcs, addresses, null, n);
  }

  /** References that arrived after the trace was full. */
  public long dropped() {
    return dropped;
  }

  @Override
  public List<String> notes() {
    if (dropped == 0) {
      return List.of();
    }
    return List.of(
        String.format(
            "the trace holds the first %,d references; %,d more were"
                + " dropped (raise the sink's capacity, or sample)",
            n, dropped));
  }

  /** The hot data streams of the trace so far, hottest first, before merging by signature. */
  public List<StreamFinder.Stream> hotStreams() {
    java.lang.management.ThreadMXBean threads =
        java.lang.management.ManagementFactory.getThreadMXBean();
    long t0 = System.nanoTime();
    long c0 = threads.getCurrentThreadCpuTime();
    List<StreamFinder.Stream> found = finder.find(pcs, addresses, bursts, n);
    searchNanos = System.nanoTime() - t0;
    searchCpuNanos = threads.getCurrentThreadCpuTime() - c0;
    return found;
  }

  /** Wall time of the last hot data stream search, in nanoseconds. */
  public long searchNanos() {
    return searchNanos;
  }

  /**
   * CPU time of the thread that made the last search, in nanoseconds (on a shared machine wall time
   * mostly measures the load).
   */
  public long searchCpuNanos() {
    return searchCpuNanos;
  }

  @Override
  public ProfileTable table(SymbolTable symbols) {
    if (cachedAt != n) {
      cached = streams ? streamTable(symbols) : referenceTable(symbols);
      cachedAt = n;
    }
    return cached;
  }

  private ProfileTable streamTable(SymbolTable symbols) {
    // Streams with one access signature are one stream (Section 5.2: addresses change between
    // runs), so their heats add up.
    Map<String, long[]> bySignature = new LinkedHashMap<>();
    Map<String, StreamFinder.Stream> firstOf = new LinkedHashMap<>();
    for (StreamFinder.Stream s : hotStreams()) {
      String sig = signature(s.pcs());
      firstOf.putIfAbsent(sig, s);
      long[] e = bySignature.computeIfAbsent(sig, k -> new long[2]);
      e[0] += s.frequency();
      e[1] += s.heat();
    }
    List<Map.Entry<String, long[]>> entries = new ArrayList<>(bySignature.entrySet());
    entries.sort((a, b) -> Long.compare(b.getValue()[1], a.getValue()[1]));
    List<List<String>> rows = new ArrayList<>();
    for (Map.Entry<String, long[]> e : entries) {
      StreamFinder.Stream s = firstOf.get(e.getKey());
      rows.add(
          List.of(
              functions(symbols, s.pcs()),
              Integer.toString(s.length()),
              Long.toString(e.getValue()[0]),
              Long.toString(e.getValue()[1]),
              String.format("%.6f", n == 0 ? 0.0 : (double) e.getValue()[1] / n),
              Branches.hex(s.addresses()[0]),
              e.getKey()));
    }
    return new ProfileTable(
        List.of("functions", "length", "frequency", "heat", "share", "first_address", "signature"),
        rows,
        List.of("signature"),
        "heat");
  }

  private ProfileTable referenceTable(SymbolTable symbols) {
    Map<Long, Long> perPc = new TreeMap<>();
    for (int i = 0; i < n; i++) {
      perPc.merge(pcs[i], 1L, Long::sum);
    }
    List<Map.Entry<Long, Long>> entries = new ArrayList<>(perPc.entrySet());
    entries.sort((a, b) -> Long.compare(b.getValue(), a.getValue()));
    List<List<String>> rows = new ArrayList<>();
    for (Map.Entry<Long, Long> e : entries) {
      rows.add(
          List.of(
              Branches.hex(e.getKey()),
              RegionCounter.functionAt(symbols, e.getKey()),
              Long.toString(e.getValue())));
    }
    return new ProfileTable(
        List.of("pc", "function", "references"), rows, List.of("pc"), "references");
  }

  /** The access signature: the stream's pcs in order. */
  public static String signature(long[] pcs) {
    StringBuilder sb = new StringBuilder();
    for (long pc : pcs) {
      sb.append(sb.length() == 0 ? "" : " ").append(Long.toHexString(pc));
    }
    return sb.toString();
  }

  /** The functions a stream's references come from, in first-seen order. */
  private static String functions(SymbolTable symbols, long[] pcs) {
    List<String> names = new ArrayList<>();
    for (long pc : pcs) {
      String f = RegionCounter.functionAt(symbols, pc);
      if (!names.contains(f)) {
        names.add(f);
      }
    }
    return String.join(";", names);
  }
}
