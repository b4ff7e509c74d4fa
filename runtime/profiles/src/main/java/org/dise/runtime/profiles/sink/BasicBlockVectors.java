package org.dise.runtime.profiles.sink;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * Basic block vectors per interval, as SimPoint reads them (the phase-based remote profiling paper,
 * Section 3.2, tracks phases with such vectors): each event is a control transfer that ends a
 * dynamic basic block, which runs from the previous recorded transfer's destination to it; the
 * block's weight is its instructions. Each interval of {@code interval} application instructions
 * becomes one vector; {@code buckets > 0} folds block ids into that many buckets. The first block,
 * and the first after unrecorded transfers (sampling off), are skipped: their starts are unknown. A
 * block's id is derived from its start address, so it is the same in every run of the program
 * (SimPoint compares vectors of one run, but tools that compare runs need it).
 */
public final class BasicBlockVectors extends NamedSink {
  /** The catalogue's entry for this sink ({@code bbv}): its parameters and what it accepts. */
  public static final ComponentSpec SPEC =
      ComponentSpec.instructionSink(
          "bbv",
          Set.of(),
          "SimPoint basic block vectors per interval",
          ParamSpec.atLeast(
              "interval",
              1,
              String.valueOf(BasicBlockVectors.DEFAULT_INTERVAL),
              "application instructions per interval"),
          ParamSpec.integer(
              "buckets",
              0,
              Integer.MAX_VALUE,
              "0",
              "hash blocks into this many buckets (0: none)"));

  /** The papers' interval: 10 million instructions. */
  public static final long DEFAULT_INTERVAL = 10_000_000;

  /** A dynamic basic block: its first instruction and the control transfer that ends it. */
  /** A block, a map key per event: equality written out (see {@link CallPairCounter}'s Site). */
  private record Block(long start, long end) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Block b && b.start == start && b.end == end;
    }

    @Override
    public int hashCode() {
      return Long.hashCode(start) * 31 + Long.hashCode(end);
    }
  }

  private final long interval;
  private final int buckets;

  /** Per block its serial number, in order of first execution (its row of {@link #totals}). */
  private final Map<Block, Integer> ids = new LinkedHashMap<>();

  /** Per block serial: {executions, instructions}. */
  private final List<long[]> totals = new ArrayList<>();

  private final List<Map<Integer, Long>> finished = new ArrayList<>();

  /** The interval number of each finished vector. */
  private final List<Long> finishedIntervals = new ArrayList<>();

  private Map<Integer, Long> current = new TreeMap<>();
  private long intervalEnd;
  private long mark;
  private static final long UNKNOWN = -1;

  /** Where the next block starts; unknown before the first recorded transfer. */
  private long start = UNKNOWN;

  /** Blocks skipped because transfers before them went unrecorded. */
  private long gaps;

  public BasicBlockVectors(String name, long interval, int buckets) {
    super(name);
    this.interval = interval;
    this.buckets = buckets;
    this.intervalEnd = interval;
  }

  @Override
  public void record(
      GuestState guest, DecodedInsn original, long[] args, long applicationInstructions) {
    long now = applicationInstructions + 1;
    if (now > intervalEnd) {
      // Intervals with no recorded block are left out, as SimPoint has no use for empty lines.
      if (!current.isEmpty()) {
        finished.add(current);
        finishedIntervals.add(intervalEnd / interval - 1);
        current = new TreeMap<>();
      }
      intervalEnd += ((now - intervalEnd + interval - 1) / interval) * interval;
    }
    long n = now - mark;
    mark = now;
    long bytes = original.pc - start;
    if (start == UNKNOWN || bytes < 2 * (n - 1) || bytes > 4 * (n - 1)) {
      // The first transfer only tells where the next block starts. Later, a block whose
      // instructions cannot lie between its start and this transfer follows unrecorded
      // transfers (sampling was off): its start and length are unknown, so it is skipped.
      if (start != UNKNOWN) {
        gaps++;
      }
      start = next(original, guest.x());
      return;
    }
    Block b = new Block(start, original.pc);
    Integer id = ids.get(b);
    if (id == null) {
      id = ids.size() + 1;
      ids.put(b, id);
      totals.add(new long[2]);
    }
    long[] t = totals.get(id - 1);
    t[0]++;
    t[1] += n;
    current.merge(vectorId(b), n, Long::sum);
    start = next(original, guest.x());
  }

  /**
   * The block's dimension in the vectors: its start address halved (instructions are 2-byte
   * aligned, so two blocks with different starts never share one), plus 1 since SimPoint's ids
   * start at 1; or its bucket with {@code buckets}. Blocks are keyed by their start: from one
   * start, the recorded transfers always end the block at the same place.
   */
  private int vectorId(Block b) {
    if (buckets > 0) {
      return bucket(b);
    }
    long id = (b.start() >>> 1) + 1;
    return id <= Integer.MAX_VALUE ? (int) id : bucket(b, Integer.MAX_VALUE - 1);
  }

  private int bucket(Block b) {
    return bucket(b, buckets);
  }

  private static int bucket(Block b, int buckets) {
    long h = (b.start() * 0x9E3779B97F4A7C15L) ^ (b.end() * 0xC2B2AE3D27D4EB4FL);
    return (int) Long.remainderUnsigned(h ^ (h >>> 29), buckets) + 1;
  }

  /** Where control goes after {@code d}, read from the registers before it executes. */
  private static long next(DecodedInsn d, long[] x) {
    OpClass c = d.opClass();
    if (c == OpClass.BRANCH) {
      return Branches.taken(d, x) ? d.target() : d.npc;
    }
    if (c == OpClass.JUMP || c == OpClass.PROC_CALL || c == OpClass.RETURN) {
      return Branches.jumpTarget(d, x);
    }
    return d.npc;
  }

  /** Blocks skipped because the transfers before them went unrecorded (sampling was off). */
  public long gaps() {
    return gaps;
  }

  /** The vectors so far, one per interval that recorded a block, the current one last. */
  public List<Map<Integer, Long>> vectors() {
    List<Map<Integer, Long>> all = new ArrayList<>(finished);
    if (!current.isEmpty()) {
      all.add(current);
    }
    return all;
  }

  /**
   * The interval number (from 0, in {@code interval}s of application instructions) of each of
   * {@link #vectors()}: the side file that maps the {@code .bb} file's lines to intervals, since
   * intervals that recorded no block (sampling was off) have no line.
   */
  public List<Long> vectorIntervals() {
    List<Long> all = new ArrayList<>(finishedIntervals);
    if (!current.isEmpty()) {
      all.add(intervalEnd / interval - 1);
    }
    return all;
  }

  @Override
  public ProfileTable table(SymbolTable symbols) {
    List<Map.Entry<Block, Integer>> entries = new ArrayList<>(ids.entrySet());
    entries.sort(
        (a, b) -> {
          long x = totals.get(a.getValue() - 1)[1];
          long y = totals.get(b.getValue() - 1)[1];
          return x != y ? Long.compare(y, x) : Integer.compare(a.getValue(), b.getValue());
        });
    List<List<String>> rows = new ArrayList<>();
    for (Map.Entry<Block, Integer> e : entries) {
      Block b = e.getKey();
      long[] t = totals.get(e.getValue() - 1);
      int id = vectorId(b);
      rows.add(
          List.of(
              Integer.toString(id),
              Branches.hex(b.start()),
              Branches.hex(b.end()),
              RegionCounter.functionAt(symbols, b.end()),
              Long.toString(t[0]),
              Long.toString(t[1])));
    }
    return new ProfileTable(
        List.of("id", "start", "end", "function", "executions", "instructions"),
        rows,
        List.of("start", "end"),
        "instructions");
  }

  @Override
  public Map<String, String> files(SymbolTable symbols) {
    Map<String, String> f = new HashMap<>();
    f.put("bb", SimPointBb.format(vectors()));
    StringBuilder lines = new StringBuilder();
    vectorIntervals().forEach(i -> lines.append(i).append('\n'));
    f.put("bb.intervals", lines.toString());
    return f;
  }
}
