package org.dise.runtime.profiles.sink.rap;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.dise.runtime.cpu.plan.GuestState;
import org.dise.runtime.elf.Symbol;
import org.dise.runtime.elf.SymbolTable;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.sink.ComponentSpec;
import org.dise.runtime.sink.NamedSink;
import org.dise.runtime.sink.ParamSpec;
import org.dise.runtime.sink.ProfileTable;
import org.dise.runtime.sink.TaggedSink;

/**
 * The {@code rap_tree} sink (Mysore et al., Sections 3.2 and 4): a RAP tree over the first argument
 * of each {@code call} (the matched instruction's pc when the call has none), so that any ACF
 * chooses the stream: branch pcs for hot code, loaded values, addresses. Fed by {@code tag(sink)}
 * instead, it takes the retired record's {@code stream} field ({@code value}, {@code address} or
 * {@code pc}) with no replacement cost. With {@code exact} it also keeps the perfect profiler's
 * counts of the same stream, for the percent error of Section 4.3.
 */
public final class RapSink extends NamedSink implements TaggedSink {
  /** The catalogue's entry for this sink ({@code rap_tree}): its parameters and what it accepts. */
  public static final ComponentSpec SPEC =
      ComponentSpec.taggedSink(
              "rap_tree",
              new ComponentSpec.Arity(1, 1, false, false),
              Set.of(),
              "Range Adaptive Profiling tree of values, addresses or pcs",
              List.of(
                  ParamSpec.cost(0),
                  ParamSpec.integer(
                      "capacity",
                      0,
                      Integer.MAX_VALUE,
                      String.valueOf(RapConfig.DEFAULT.maxNodes()),
                      "node capacity (0: unbounded)"),
                  ppm(
                      "epsilon_ppm",
                      RapConfig.DEFAULT.epsilon(),
                      "RAP's epsilon, parts per million"),
                  ParamSpec.powerOfTwo(
                      "branching",
                      2,
                      256,
                      String.valueOf(RapConfig.DEFAULT.branching()),
                      "branching factor"),
                  ParamSpec.integer(
                      "range_bits",
                      1,
                      64,
                      String.valueOf(RapConfig.DEFAULT.rangeBits()),
                      "width of the profiled values"),
                  ppm(
                      "hot_ppm",
                      RapConfig.DEFAULT.hotFraction(),
                      "hot range threshold, parts per million"),
                  ParamSpec.integer(
                      "merge_ratio_pct",
                      100,
                      Integer.MAX_VALUE,
                      String.valueOf(Math.round(RapConfig.DEFAULT.mergeRatio() * 100)),
                      "merge interval ratio q, percent"),
                  ParamSpec.atLeast(
                      "first_merge",
                      1,
                      String.valueOf(RapConfig.DEFAULT.firstMerge()),
                      "events before the first merge batch"),
                  ParamSpec.bool("exact", "true", "keep an exact profile for the percent error"),
                  ParamSpec.bool("code", "false", "name ranges by the functions at their ends"),
                  ParamSpec.choice(
                      "stream",
                      List.of("value", "address", "pc"),
                      "value",
                      "what a tagged instruction contributes")))
          .withCheck(RapSink::capacityFitsBranching);

  /** A fraction given in parts per million (1 to 1,000,000), by default {@code dflt}. */
  private static ParamSpec ppm(String name, double dflt, String doc) {
    return ParamSpec.integer(name, 1, 1_000_000, String.valueOf(Math.round(dflt * 1e6)), doc);
  }

  private static Optional<ComponentSpec.Problem> capacityFitsBranching(Map<String, String> p) {
    long branching =
        Long.parseLong(p.getOrDefault("branching", String.valueOf(RapConfig.DEFAULT.branching())));
    long capacity =
        Long.parseLong(p.getOrDefault("capacity", String.valueOf(RapConfig.DEFAULT.maxNodes())));
    if (capacity != 0 && capacity < 1 + branching) {
      return Optional.of(
          new ComponentSpec.Problem(
              "capacity",
              "capacity must be 0 (unbounded) or at least 1 +"
                  + " branching ("
                  + (1 + branching)
                  + ") nodes, got "
                  + capacity));
    }
    return Optional.empty();
  }

  private final RapTree tree;
  private final ExactCounter exact;
  private final boolean code;

  /** What a tagged record contributes: 0 value, 1 address, 2 pc. */
  private final int stream;

  private java.util.function.LongConsumer tap;

  /**
   * A sink with the binding's parameters (see {@link RapConfig#of}), plus {@code exact} (bool,
   * default true) and {@code code} (bool: name ranges by the functions at their ends).
   */
  public RapSink(String name, Map<String, String> params) {
    super(name);
    this.tree = new RapTree(RapConfig.of(params));
    this.exact = bool(params, "exact", true) ? new ExactCounter() : null;
    this.code = bool(params, "code", false);
    String st = params.getOrDefault("stream", "value");
    this.stream =
        switch (st) {
          case "value" -> 0;
          case "address" -> 1;
          case "pc" -> 2;
          default ->
              throw new IllegalArgumentException(
                  "stream must be value, address or pc, not `" + st + "`");
        };
  }

  /** A tagged instruction retired: its value, address or pc is the event. */
  @Override
  public void retire(DecodedInsn insn, long value, long address, long now) {
    add(stream == 0 ? value : stream == 1 ? address : insn.pc);
  }

  /** RAP is hardware of its own (Section 3.3): it never interrupts the main processor. */
  @Override
  public long interrupts() {
    return 0;
  }

  @Override
  public long interruptCycles() {
    return 0;
  }

  private static boolean bool(Map<String, String> params, String key, boolean dflt) {
    String v = params.get(key);
    return v == null ? dflt : !(v.equals("0") || v.equalsIgnoreCase("false"));
  }

  public RapTree tree() {
    return tree;
  }

  /** The exact counts of the stream, or null when {@code exact = false}. */
  public ExactCounter exact() {
    return exact;
  }

  @Override
  public void record(
      GuestState guest, DecodedInsn original, long[] args, long applicationInstructions) {
    add(args.length > 0 ? args[0] : original.pc);
  }

  /**
   * Also hands every event to {@code listener} (benchmarks replay the stream into other counters);
   * null removes it.
   */
  public void tap(java.util.function.LongConsumer listener) {
    this.tap = listener;
  }

  /** One event. */
  public void add(long v) {
    if (tap != null) {
      tap.accept(v);
    }
    tree.add(v);
    if (exact != null) {
      exact.add(v);
    }
  }

  public List<HotRange> hotRanges() {
    return HotRanges.find(tree, exact);
  }

  public RapReport report(SymbolTable symbols) {
    return new RapReport(
        tree,
        hotRanges(),
        code && symbols != null ? a -> symbols.lookup(a).map(Symbol::name).orElse(null) : null);
  }

  /** The hot ranges, outermost first, with their shares and accuracy. */
  @Override
  public ProfileTable table(SymbolTable symbols) {
    List<List<String>> rows = new ArrayList<>();
    long n = Math.max(1, tree.events());
    for (HotRange h : hotRanges()) {
      String where = "";
      if (code && symbols != null) {
        String a = symbols.lookup(h.lo()).map(Symbol::name).orElse("?");
        String b = symbols.lookup(h.hi()).map(Symbol::name).orElse("?");
        where = a.equals(b) ? a : a + " .. " + b;
      }
      rows.add(
          List.of(
              RapReport.hex(h.lo()),
              RapReport.hex(h.hi()),
              where,
              Integer.toString(h.depth()),
              Integer.toString(h.parent()),
              Long.toString(h.count()),
              pct(100.0 * h.count() / n),
              Long.toString(h.inclusive()),
              pct(100.0 * h.inclusive() / n),
              Long.toString(h.exact()),
              Double.isNaN(h.percentError()) ? "" : pct(h.percentError())));
    }
    return new ProfileTable(
        List.of(
            "lo",
            "hi",
            "functions",
            "depth",
            "parent",
            "count",
            "percent",
            "inclusive",
            "inclusive_percent",
            "exact",
            "percent_error"),
        rows,
        List.of("lo", "hi"),
        "count");
  }

  private static String pct(double d) {
    return String.format(Locale.ROOT, "%.2f", d);
  }

  @Override
  public Map<String, String> files(SymbolTable symbols) {
    // NAME.json is the profile table every sink writes; the tree gets files of its own.
    RapReport r = report(symbols);
    Map<String, String> out = new LinkedHashMap<>();
    out.put("tree.json", r.json());
    out.put("tree.txt", String.join("\n", r.text()) + "\n");
    return out;
  }

  @Override
  public List<String> summary() {
    double[] err = report(null).errors();
    return List.of(
        String.format(
            Locale.ROOT,
            "RAP: %d events, nodes max %d (%d after the first %d events), average %.1f, now %d;"
                + " hot-range percent error max %.2f%%, average %.2f%%",
            tree.events(),
            tree.maxNodes(),
            tree.steadyMaxNodes(),
            RapTree.WARMUP_EVENTS,
            tree.averageNodes(),
            tree.nodes(),
            err[0],
            err[1]));
  }
}
