package org.dise.runtime.cpu;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.Op;

/**
 * A translation region: the blocks that go into one unit with a block that turned hot. Taking only
 * the blocks that crossed the threshold since the interpreter last looked made units of one to four
 * blocks (a loop's blocks cross it a few blocks apart), so control left its unit about every eight
 * guest instructions and paid the dispatcher and the unit's register loads and stores each time. A
 * region instead follows the hot block's static successors (branch targets, fall-throughs, a call's
 * callee and the return point after it) through the blocks the interpreter has already run often
 * enough, so a loop, the functions it calls and the code around it become one unit and its
 * transfers stay JVM jumps inside one method.
 */
final class Region {
  private Region() {}

  /**
   * Divides the translation threshold into the fewest runs that admit a block into a hot block's
   * region: a block run a quarter as often as the threshold is warm code on the hot path (the
   * rarely taken side of a branch in a loop); one run once or twice is start-up or error handling,
   * which would make the unit and C1's work larger for nothing.
   */
  static final int WARM_DIVISOR = 4;

  /**
   * The regions of one translation round: every block reachable from a seed (a block that turned
   * hot) through static successors that the cache holds, has run at least {@code minCount} times,
   * is not translated yet and can be translated; grouped into the sets connected by those edges
   * (either direction, so a function's entry and the loop inside it, or a caller and its callee,
   * that turned hot in the same round share a unit), each in breadth-first order from its first
   * seed and cut into pieces of at most {@code max} blocks.
   */
  static List<List<Block>> form(Cpu cpu, List<Block> seeds, int minCount, int max) {
    // Multi-source breadth-first search: the blocks, in the order found.
    Map<Long, Block> found = new LinkedHashMap<>();
    ArrayDeque<Block> queue = new ArrayDeque<>();
    for (Block s : seeds) {
      if (admits(cpu, s, 1) && found.putIfAbsent(s.start, s) == null) {
        queue.add(s);
      }
    }
    while (!queue.isEmpty()) {
      Block b = queue.poll();
      for (long s : successors(b)) {
        if (s >= 0 && !found.containsKey(s)) {
          Block next = cpu.cachedBlock(s);
          if (next != null && admits(cpu, next, minCount)) {
            found.put(s, next);
            queue.add(next);
          }
        }
      }
    }
    // Undirected edges inside the found set, then its connected parts in breadth-first order.
    Map<Long, List<Block>> adjacent = new HashMap<>();
    for (Block b : found.values()) {
      for (long s : successors(b)) {
        Block next = s >= 0 ? found.get(s) : null;
        if (next != null && next != b) {
          adjacent.computeIfAbsent(b.start, k -> new ArrayList<>()).add(next);
          adjacent.computeIfAbsent(next.start, k -> new ArrayList<>()).add(b);
        }
      }
    }
    List<List<Block>> regions = new ArrayList<>();
    Set<Long> placed = new HashSet<>();
    for (Block first : found.values()) {
      if (!placed.add(first.start)) {
        continue;
      }
      List<Block> part = new ArrayList<>();
      ArrayDeque<Block> q = new ArrayDeque<>();
      q.add(first);
      while (!q.isEmpty()) {
        Block b = q.poll();
        part.add(b);
        for (Block n : adjacent.getOrDefault(b.start, List.of())) {
          if (placed.add(n.start)) {
            q.add(n);
          }
        }
      }
      for (int i = 0; i < part.size(); i += max) {
        regions.add(List.copyOf(part.subList(i, Math.min(part.size(), i + max))));
      }
    }
    return regions;
  }

  private static boolean admits(Cpu cpu, Block b, int minCount) {
    return b.code == null
        && b.count >= minCount
        && cpu.isCurrent(b)
        && BlockCompiler.translatable(b);
  }

  /**
   * Where control can go after {@code b} without an indirect jump: the branch target and the
   * fall-through, a jump's target, and for a call (a link register written) the return point.
   */
  static long[] successors(Block b) {
    DecodedInsn last = b.insns[b.insns.length - 1];
    boolean links = (last.exec == Op.JAL || last.exec == Op.JALR) && last.rdField() != 0;
    return switch (last.exec) {
      case JAL -> new long[] {last.target(), links ? b.end : -1};
      case JALR -> new long[] {links ? b.end : -1};
      default -> new long[] {last.target(), b.end};
    };
  }
}
