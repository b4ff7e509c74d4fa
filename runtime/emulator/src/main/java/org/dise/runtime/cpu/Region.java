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
  static final int WARM_DIVISOR = EmulatorProperties.WARM_DIVISOR.value();

  /**
   * The regions of one translation round: every block reachable from a seed (a block that turned
   * hot) through static successors that the cache holds, has run at least {@code minCount} times,
   * is not translated yet and can be translated; grouped into the sets connected by those edges
   * (either direction, so a function's entry and the loop inside it, or a caller and its callee,
   * that turned hot in the same round share a unit), each in breadth-first order from its first
   * seed and cut into pieces of at most {@code max} blocks.
   */
  static List<List<Block>> form(Cpu cpu, List<Block> seeds, int minCount, int max) {
    return form(cpu, seeds, minCount, max, 0, 0);
  }

  /**
   * {@link #form(Cpu, List, int, int)}, where each region then takes in the whole of every earlier
   * unit of at most {@code absorb} blocks (0: none) that one of its blocks goes on to by a static
   * edge, while the region stays within {@code max} blocks and {@code maxInsns} guest instructions
   * (the unit limit by the size estimate; 0: nothing is taken). A loop whose blocks turned hot a
   * few rounds apart is otherwise spread over two units, the first formed while the rest was still
   * cold and the later one stopping at the first's blocks, and leaves a unit on every pass (half of
   * SQLite's, chess's, mcf's and motion's direct-edge exits, docs/benchmarks.md). Taking a unit in
   * only whole and only while the region fits keeps the region from being cut, which would part the
   * loop again. The caller translates the taken units' blocks again and retires the units ({@link
   * BlockCompiler#installReady}); a block is taken again at most {@link BlockCompiler#MAX_JOINS}
   * times, so re-translation is bounded.
   */
  static List<List<Block>> form(
      Cpu cpu, List<Block> seeds, int minCount, int max, int absorb, long maxInsns) {
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
    // Blocks of earlier units taken into a region (absorb).
    Set<Long> taken = new HashSet<>();
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
      int partId = UnitContext.EXIT_STATS ? ExitCauses.nextPart() : 0;
      for (int i = 0; i < part.size(); i += max) {
        List<Block> piece = new ArrayList<>(part.subList(i, Math.min(part.size(), i + max)));
        if (absorb > 0 && maxInsns > 0) {
          takeIn(cpu, piece, found, taken, absorb, max, maxInsns);
        }
        piece = List.copyOf(piece);
        regions.add(piece);
        if (UnitContext.EXIT_STATS) {
          recordLeftOut(cpu, piece, partId, ExitCauses.nextPiece(), found, taken);
        }
      }
    }
    return regions;
  }

  /** With exit statistics: where each block went and why each of its successors stayed out. */
  private static void recordLeftOut(
      Cpu cpu, List<Block> piece, int part, int pieceId, Map<Long, Block> found, Set<Long> taken) {
    for (Block b : piece) {
      b.formedPart = part;
      b.formedPiece = pieceId;
      long[] succ = successors(b);
      b.leftOut = new byte[succ.length];
      for (int k = 0; k < succ.length; k++) {
        if (outside(succ[k], found, taken)) {
          b.leftOut[k] = ExitCauses.causeOf(cpu, cpu.cachedBlock(succ[k]));
        }
      }
    }
  }

  /**
   * Adds to {@code piece} the earlier units its blocks (those taken in included) go on to, each
   * whole, while the piece stays within {@code max} blocks and {@code maxInsns} instructions; the
   * blocks taken are added to {@code taken} so that no other piece takes them. Units the piece only
   * goes on to count too, not only loops through both: taking in only those that go back into the
   * piece left interp 6's unit entries as without (336 M against 231 M, docs/benchmarks.md).
   */
  private static void takeIn(
      Cpu cpu,
      List<Block> piece,
      Map<Long, Block> found,
      Set<Long> taken,
      int absorb,
      int max,
      long maxInsns) {
    long insns = 0;
    for (Block b : piece) {
      insns += b.insns.length;
    }
    for (int i = 0; i < piece.size(); i++) {
      for (long s : successors(piece.get(i))) {
        Block next = outside(s, found, taken) ? cpu.cachedBlock(s) : null;
        if (next == null || !absorbable(cpu, next, absorb)) {
          continue;
        }
        long more = 0;
        for (Block u : next.unit) {
          more += u.insns.length;
        }
        if (piece.size() + next.unit.length <= max && insns + more <= maxInsns) {
          for (Block u : next.unit) {
            piece.add(u);
            taken.add(u.start);
          }
          insns += more;
        }
      }
    }
  }

  /** True when successor {@code s} exists and no region of this round has taken it in. */
  private static boolean outside(long s, Map<Long, Block> found, Set<Long> taken) {
    return s >= 0 && !found.containsKey(s) && !taken.contains(s);
  }

  /**
   * True when {@code b} is translated in a unit of at most {@code absorb} blocks, all still current
   * and in that unit, none taken into a larger unit {@link BlockCompiler#MAX_JOINS} times yet.
   */
  private static boolean absorbable(Cpu cpu, Block b, int absorb) {
    Block[] unit = b.unit;
    if (b.code == null || unit == null || unit.length > absorb) {
      return false;
    }
    for (Block u : unit) {
      if (u.code != b.code || !cpu.isCurrent(u) || u.joins >= BlockCompiler.MAX_JOINS) {
        return false;
      }
    }
    return true;
  }

  private static boolean admits(Cpu cpu, Block b, int minCount) {
    return b.code == null
        && !b.inFlight
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
