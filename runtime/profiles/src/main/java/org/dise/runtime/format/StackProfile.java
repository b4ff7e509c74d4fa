package org.dise.runtime.format;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.dise.runtime.sink.ProfileTable;

/**
 * A profile as weighted stacks of functions, the root first: what flame graphs, pprof and callgrind
 * show. Read from the profile tables that have stacks: calling contexts (full stacks, instructions
 * and cycles), call pairs (caller;callee, calls) and methods (one frame, events).
 */
public record StackProfile(List<ValueType> types, List<Sample> samples) {
  /** What a sample's value counts (pprof's ValueType: {@code instructions}, {@code count}). */
  public record ValueType(String type, String unit) {}

  /** One frame: a function's name and entry address (0 when unknown). */
  public record Frame(String name, long address) {}

  /**
   * One stack, root first, with a value per {@link ValueType}, and how many times it was entered
   * (its calls; 0 when the profile does not say).
   */
  public record Sample(List<Frame> stack, long[] values, long calls) {
    public Sample {
      stack = List.copyOf(stack);
    }
  }

  public StackProfile {
    types = List.copyOf(types);
    samples = List.copyOf(samples);
  }

  /** The stacks of {@code t}, or empty when its profile has none. */
  public static Optional<StackProfile> of(ProfileTable t) {
    List<String> h = t.header();
    List<Sample> samples = new ArrayList<>();
    if (h.containsAll(List.of("stack", "addresses", "instructions", "cycles"))) {
      int s = h.indexOf("stack");
      int a = h.indexOf("addresses");
      int i = h.indexOf("instructions");
      int c = h.indexOf("cycles");
      int n = h.indexOf("calls");
      for (List<String> r : t.rows()) {
        String[] names = r.get(s).split(";", -1);
        String[] addresses = r.get(a).split(";", -1);
        List<Frame> stack = new ArrayList<>();
        for (int k = 0; k < names.length; k++) {
          stack.add(new Frame(names[k], k < addresses.length ? address(addresses[k]) : 0));
        }
        samples.add(
            new Sample(
                stack,
                new long[] {number(r.get(i)), number(r.get(c))},
                n < 0 ? 0 : number(r.get(n))));
      }
      return Optional.of(
          new StackProfile(
              List.of(new ValueType("instructions", "count"), new ValueType("cycles", "count")),
              samples));
    }
    if (h.containsAll(List.of("caller", "callee", "count"))) {
      int a = h.indexOf("caller");
      int b = h.indexOf("callee");
      int c = h.indexOf("count");
      int aa = h.indexOf("caller_address");
      int ba = h.indexOf("callee_address");
      for (List<String> r : t.rows()) {
        samples.add(
            new Sample(
                List.of(
                    new Frame(r.get(a), aa < 0 ? 0 : address(r.get(aa))),
                    new Frame(r.get(b), ba < 0 ? 0 : address(r.get(ba)))),
                new long[] {number(r.get(c))},
                number(r.get(c))));
      }
      return Optional.of(new StackProfile(List.of(new ValueType("calls", "count")), samples));
    }
    if (h.contains("method") && h.contains("invocations")) {
      int m = h.indexOf("method");
      int w = h.indexOf(t.weight());
      int a = h.indexOf("address");
      for (List<String> r : t.rows()) {
        samples.add(
            new Sample(
                List.of(new Frame(r.get(m), a < 0 ? 0 : address(r.get(a)))),
                new long[] {number(r.get(w))},
                0));
      }
      return Optional.of(new StackProfile(List.of(new ValueType(t.weight(), "count")), samples));
    }
    return Optional.empty();
  }

  /**
   * Folded stacks ({@code a;b;c value} per line, Brendan Gregg's format, which flamegraph.pl,
   * speedscope and inferno read), weighted by value {@code index}; zero samples are left out and
   * equal stacks merged. {@code ;} and spaces in names become {@code :} and {@code _}.
   */
  public String folded(int index) {
    Map<String, Long> lines = new LinkedHashMap<>();
    for (Sample s : samples) {
      if (s.values()[index] != 0) {
        String key = String.join(";", s.stack().stream().map(f -> frameName(f.name())).toList());
        lines.merge(key, s.values()[index], Long::sum);
      }
    }
    StringBuilder sb = new StringBuilder();
    lines.forEach((k, v) -> sb.append(k).append(' ').append(v).append('\n'));
    return sb.toString();
  }

  /** The sum of value {@code index} over every sample. */
  public long total(int index) {
    long sum = 0;
    for (Sample s : samples) {
      sum += s.values()[index];
    }
    return sum;
  }

  /** A frame name without the separators of the folded format. */
  public static String frameName(String name) {
    return name.replace(';', ':').replace(' ', '_');
  }

  private static long address(String cell) {
    try {
      return cell.startsWith("0x") ? Long.parseUnsignedLong(cell.substring(2), 16) : 0;
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static long number(String cell) {
    try {
      return Long.parseLong(cell);
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
