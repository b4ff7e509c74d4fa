package org.dise.runtime.profiles.sink;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.Decoder;
import org.dise.runtime.isa.Op;
import org.dise.runtime.isa.OpClass;
import org.dise.runtime.mem.Memory;

/**
 * The control-flow graph of one function, explored from its entry in memory, and the back edges of
 * a depth-first search of it: where Ball-Larus paths end and start (phase-based remote profiling
 * paper's hot paths; Ball and Larus, "Efficient path profiling"). Basic blocks start at the entry,
 * at branch and jump targets and after branches; calls do not end blocks; returns and indirect
 * jumps have no static successors.
 */
final class ControlFlowGraph {
  /** Bounds the exploration of code that is not a well-formed function. */
  static final int MAX_INSNS = 262_144;

  /** An edge, a map key per event: equality written out (see {@link CallPairCounter}'s Site). */
  private record Edge(long from, long to) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Edge e && e.from == from && e.to == to;
    }

    @Override
    public int hashCode() {
      return Long.hashCode(from) * 31 + Long.hashCode(to);
    }
  }

  private final Memory mem;
  private final Map<Long, DecodedInsn> code = new HashMap<>();
  private final TreeSet<Long> leaders = new TreeSet<>();

  /** Per block: successors, and the pc of the instruction each edge leaves from. */
  private final Map<Long, long[][]> succ = new HashMap<>();

  /** Back edges taken by a control transfer: observable by the profile's productions. */
  private final Set<Edge> backEdges = new HashSet<>();

  /** Back edges that are fall-throughs into a loop head (no transfer instruction to see). */
  private int hiddenBackEdges;

  ControlFlowGraph(Memory mem, long entry) {
    this.mem = mem;
    explore(entry);
    for (long l : leaders) {
      block(l);
    }
    search(entry);
  }

  /** Whether the transfer at {@code from} to {@code to} is a back edge of the search. */
  boolean isBackEdge(long from, long to) {
    return backEdges.contains(new Edge(from, to));
  }

  int blocks() {
    return leaders.size();
  }

  int hiddenBackEdges() {
    return hiddenBackEdges;
  }

  /** Finds the reachable instructions and the block leaders. */
  private void explore(long entry) {
    Deque<Long> work = new ArrayDeque<>();
    work.push(entry);
    leaders.add(entry);
    while (!work.isEmpty() && code.size() < MAX_INSNS) {
      long pc = work.pop();
      while (!code.containsKey(pc) && code.size() < MAX_INSNS) {
        DecodedInsn d = decode(pc);
        if (d == null) {
          break;
        }
        code.put(pc, d);
        OpClass c = d.opClass();
        if (c == OpClass.BRANCH) {
          leaders.add(d.npc);
          leaders.add(d.target());
          work.push(d.target());
          work.push(d.npc);
          break;
        }
        if (c == OpClass.JUMP && d.exec == Op.JAL) {
          leaders.add(d.target());
          work.push(d.target());
          break;
        }
        if (c == OpClass.JUMP || c == OpClass.RETURN) {
          break;
        }
        pc = d.npc;
      }
    }
    leaders.retainAll(code.keySet());
  }

  /** The block at {@code leader}: its edges as {pc the edge leaves from, successor}. */
  private void block(long leader) {
    List<long[]> out = new ArrayList<>(2);
    long pc = leader;
    while (true) {
      DecodedInsn d = code.get(pc);
      if (d == null) {
        break;
      }
      OpClass c = d.opClass();
      if (c == OpClass.BRANCH) {
        out.add(new long[] {pc, d.npc});
        out.add(new long[] {pc, d.target()});
        break;
      }
      if (c == OpClass.JUMP || c == OpClass.RETURN) {
        if (d.exec == Op.JAL) {
          out.add(new long[] {pc, d.target()});
        }
        break;
      }
      if (leaders.contains(d.npc)) {
        out.add(new long[] {-1, d.npc}); // a fall-through: no transfer instruction
        break;
      }
      pc = d.npc;
    }
    succ.put(leader, out.toArray(new long[0][]));
  }

  /** Iterative depth-first search; an edge into a block on the stack is a back edge. */
  private void search(long entry) {
    if (!succ.containsKey(entry)) {
      return;
    }
    Set<Long> seen = new HashSet<>();
    Set<Long> onStack = new HashSet<>();
    Deque<long[]> stack = new ArrayDeque<>(); // {block, next edge index}
    seen.add(entry);
    onStack.add(entry);
    stack.push(new long[] {entry, 0});
    while (!stack.isEmpty()) {
      long[] top = stack.peek();
      long[][] s = succ.get(top[0]);
      if (top[1] >= s.length) {
        onStack.remove(top[0]);
        stack.pop();
        continue;
      }
      long[] e = s[(int) top[1]++];
      long next = e[1];
      if (onStack.contains(next)) {
        if (e[0] < 0) {
          hiddenBackEdges++;
        } else {
          backEdges.add(new Edge(e[0], next));
        }
      } else if (succ.containsKey(next) && seen.add(next)) {
        onStack.add(next);
        stack.push(new long[] {next, 0});
      }
    }
  }

  private DecodedInsn decode(long pc) {
    try {
      int lo = mem.fetch16(pc);
      int raw = Decoder.isLong(lo) ? lo | (mem.fetch16(pc + 2) << 16) : lo;
      return Decoder.decode(pc, raw);
    } catch (RuntimeException e) {
      return null; // not code: the exploration stops here
    }
  }
}
