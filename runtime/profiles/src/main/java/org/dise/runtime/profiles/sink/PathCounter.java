package org.dise.runtime.profiles.sink;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dise.runtime.cpu.plan.GuestState;
import org.dise.runtime.elf.SymbolTable;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.OpClass;
import org.dise.runtime.sink.ComponentSpec;
import org.dise.runtime.sink.NamedSink;
import org.dise.runtime.sink.ProfileTable;

/**
 * The hot path profile (Ball-Larus acyclic intraprocedural paths, which the phase-based remote
 * profiling paper's hot path metric counts): each event is a control transfer. A path starts at a
 * function's entry or at the target of a back edge and ends at a back edge or a return; the handler
 * traces it as the sequence of blocks it enters, with a shadow stack of activations so that a call
 * suspends the caller's path. Back edges come from a depth-first search of the function's {@link
 * ControlFlowGraph}; a transfer through an indirect jump also ends a path.
 */
public final class PathCounter extends NamedSink {
  /**
   * The catalogue's entry for this sink ({@code path_counter}): its parameters and what it accepts.
   */
  public static final ComponentSpec SPEC =
      ComponentSpec.instructionSink(
          "path_counter",
          Set.of("proc_call", "return", "branch", "jump"),
          "Ball-Larus hot paths per function");

  /** A path longer than this many blocks is ended (a guard against unmatched returns). */
  static final int MAX_BLOCKS = 4096;

  /** Activations deeper than this are forgotten from the bottom (deep recursion). */
  static final int MAX_DEPTH = 100_000;

  /** A path: the blocks it enters, its start first. */
  private record Path(long[] blocks) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Path p && Arrays.equals(blocks, p.blocks);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(blocks);
    }
  }

  /** One activation: its function's graph and the path in progress. */
  private static final class Frame {
    final ControlFlowGraph cfg;
    long[] blocks = new long[8];
    int n;

    Frame(ControlFlowGraph cfg, long start) {
      this.cfg = cfg;
      add(start);
    }

    boolean contains(long block) {
      for (int i = 0; i < n; i++) {
        if (blocks[i] == block) {
          return true;
        }
      }
      return false;
    }

    void add(long block) {
      if (n == blocks.length) {
        blocks = Arrays.copyOf(blocks, 2 * n);
      }
      blocks[n++] = block;
    }
  }

  private final Map<Long, ControlFlowGraph> graphs = new HashMap<>();
  private final Deque<Frame> stack = new ArrayDeque<>();
  private final Map<Path, Long> counts = new HashMap<>();

  public PathCounter(String name) {
    super(name);
  }

  @Override
  public void record(GuestState guest, DecodedInsn d, long[] args, long applicationInstructions) {
    OpClass c = d.opClass();
    if (c == OpClass.PROC_CALL) {
      long callee = Branches.jumpTarget(d, guest.x());
      if (stack.size() == MAX_DEPTH) {
        stack.removeLast();
      }
      stack.push(new Frame(graph(guest, callee), callee));
      return;
    }
    Frame f = stack.peek();
    if (c == OpClass.RETURN) {
      if (f != null) {
        end(f);
        stack.pop();
      }
      if (stack.isEmpty()) {
        // Returned past the first activation seen: the caller's path starts here.
        long to = Branches.jumpTarget(d, guest.x());
        stack.push(new Frame(graph(guest, to), to));
      }
      return;
    }
    long to =
        c == OpClass.BRANCH
            ? (Branches.taken(d, guest.x()) ? d.target() : d.npc)
            : Branches.jumpTarget(d, guest.x());
    if (f == null) {
      // The first transfer seen (program entry, or sampling just turned on).
      f = new Frame(graph(guest, d.pc), d.pc);
      stack.push(f);
    }
    boolean indirect = c == OpClass.JUMP && d.target() == -1L;
    // A block already on the path would close a cycle through a back edge that is a
    // fall-through (no transfer to see): end the path there too, so paths stay acyclic.
    if (indirect || f.cfg.isBackEdge(d.pc, to) || f.contains(to) || f.n == MAX_BLOCKS) {
      end(f);
      f.n = 0;
    }
    f.add(to);
  }

  private ControlFlowGraph graph(GuestState guest, long entry) {
    return graphs.computeIfAbsent(entry, e -> new ControlFlowGraph(guest.memory(), e));
  }

  private void end(Frame f) {
    counts.merge(new Path(Arrays.copyOf(f.blocks, f.n)), 1L, Long::sum);
  }

  @Override
  public ProfileTable table(SymbolTable symbols) {
    List<Map.Entry<Path, Long>> entries = new ArrayList<>(counts.entrySet());
    entries.sort(
        (a, b) ->
            !a.getValue().equals(b.getValue())
                ? Long.compare(b.getValue(), a.getValue())
                : Arrays.compare(a.getKey().blocks(), b.getKey().blocks()));
    List<List<String>> rows = new ArrayList<>();
    for (Map.Entry<Path, Long> e : entries) {
      long[] b = e.getKey().blocks();
      StringBuilder path = new StringBuilder();
      for (long a : b) {
        path.append(path.length() == 0 ? "" : " ").append(Long.toHexString(a));
      }
      rows.add(
          List.of(
              RegionCounter.functionAt(symbols, b[0]),
              Branches.hex(b[0]),
              Integer.toString(b.length),
              Long.toString(e.getValue()),
              path.toString()));
    }
    return new ProfileTable(
        List.of("function", "start", "blocks", "count", "path"), rows, List.of("path"), "count");
  }
}
