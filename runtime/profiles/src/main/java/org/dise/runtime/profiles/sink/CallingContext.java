package org.dise.runtime.profiles.sink;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.cpu.plan.GuestState;
import org.dise.runtime.elf.Symbol;
import org.dise.runtime.elf.SymbolTable;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.OpClass;
import org.dise.runtime.sink.ClockedSink;
import org.dise.runtime.sink.ComponentSpec;
import org.dise.runtime.sink.NamedSink;
import org.dise.runtime.sink.ParamSpec;
import org.dise.runtime.sink.ProfileTable;

/**
 * The calling context profile (component {@code calling_context}): a shadow call stack kept from
 * the calls, returns and jumps the productions hand it, and a calling context tree whose nodes are
 * charged the application instructions and modelled cycles that ran between two events
 * (spec/profiles.md, "Calling context"). Calls push, returns pop (unwinding past frames left by a
 * {@code longjmp}), and a jump retargets the top frame, which makes a tail call replace its
 * caller's frame. Each guest thread has its own shadow stack ({@link #threadSwitched}); their
 * contexts share one tree, as they share the functions.
 */
public final class CallingContext extends NamedSink implements ClockedSink {
  /**
   * The catalogue's entry for this sink ({@code calling_context}): its parameters and what it
   * accepts.
   */
  public static final ComponentSpec SPEC =
      ComponentSpec.instructionSink(
          "calling_context",
          Set.of("proc_call", "return", "jump"),
          "calling contexts: full stacks with their instructions and cycles",
          ParamSpec.integer(
              "max_depth",
              1,
              Integer.MAX_VALUE,
              String.valueOf(CallingContext.DEFAULT_MAX_DEPTH),
              "frames kept apart; deeper ones share a context"),
          ParamSpec.bool(
              "unwind", "true", "recover the stack from the guest when sampling turns on"));

  /** Frames deeper than this share the deepest context (deep recursion). */
  public static final int DEFAULT_MAX_DEPTH = 1024;

  /** A node of the calling context tree: a path of frames from the root. */
  static final class Node {
    final Node parent;
    final long address;
    final int depth;
    private Map<Long, Node> children;
    long instructions;
    long cycles;
    long calls;

    Node(Node parent, long address) {
      this.parent = parent;
      this.address = address;
      this.depth = parent == null ? 0 : parent.depth + 1;
    }

    Node child(long address) {
      if (children == null) {
        children = new HashMap<>(4);
      }
      Node n = children.get(address);
      if (n == null) {
        n = new Node(this, address);
        children.put(address, n);
      }
      return n;
    }
  }

  /**
   * One activation on the shadow stack: its context (the top frame's changes on a jump), the
   * address its return goes to, and the stack pointer at its call (the caller's).
   */
  private static final class Frame {
    Node node;
    final long returnAddress;
    final long sp;

    Frame(Node node, long returnAddress, long sp) {
      this.node = node;
      this.returnAddress = returnAddress;
      this.sp = sp;
    }
  }

  private final int maxDepth;
  private final Node root = new Node(null, 0);

  /** The running thread's shadow stack: one per guest thread, as each has its own calls. */
  private Deque<Frame> stack = new ArrayDeque<>();

  /** The other threads' stacks, by thread id, while another thread runs. */
  private final Map<Integer, Deque<Frame>> parked = new HashMap<>();

  private Clock clock;
  private long lastInstructions;
  private long lastCycles;
  private boolean paused;
  private long unwound;
  private long deepest;

  public CallingContext(String name, int maxDepth) {
    this(name, maxDepth, true);
  }

  /**
   * {@code unwind} false keeps the shadow stack as it was when sampling turned off (the stale stack
   * of issue 32, for measuring what the unwinding buys).
   */
  public CallingContext(String name, int maxDepth, boolean unwind) {
    super(name);
    this.maxDepth = maxDepth;
    this.unwind = unwind;
  }

  private final boolean unwind;

  @Override
  public void clock(Clock clock) {
    this.clock = clock;
  }

  @Override
  public void record(GuestState guest, DecodedInsn d, long[] args, long applicationInstructions) {
    if (resync) {
      // The first event since sampling turned on: the stack the shadow stack missed is read
      // from the guest's own registers and memory, as a sampling profiler's interrupt does.
      resync = false;
      recover(guest, d.pc);
    }
    if (stack.isEmpty()) {
      // The first event (program entry, or a stack that could not be recovered): its function
      // is the root, and what ran before it in that function is charged to it.
      stack.push(new Frame(root.child(d.pc), -1, Long.MAX_VALUE));
    }
    charge(applicationInstructions);
    OpClass c = d.opClass();
    long to = Branches.jumpTarget(d, guest.x());
    long sp = guest.x()[2];
    Frame top = stack.peek();
    switch (c) {
      case PROC_CALL -> {
        Node n = top.node.depth >= maxDepth ? top.node : top.node.child(to);
        n.calls++;
        deepest = Math.max(deepest, stack.size() + 1);
        stack.push(new Frame(n, d.pc + d.size, sp));
      }
      case RETURN -> ret(to, sp);
      // A jump stays in its function (the tree is resolved to functions when written) or is
      // a tail call: either way the top frame is now where it goes.
      case JUMP -> top.node = top.node.parent.child(to);
      default -> {}
    }
  }

  /**
   * A return to {@code to} with the stack pointer already restored to {@code sp}. A return that
   * does not go where the top frame was called from is an unwind ({@code longjmp} restores the
   * stack pointer of the function that called {@code setjmp} and returns into it): the frames whose
   * call happened deeper than {@code sp} are dropped first.
   */
  private void ret(long to, long sp) {
    Frame top = stack.peek();
    if (top.returnAddress != to) {
      while (stack.size() > 1 && Long.compareUnsigned(top.sp, sp) < 0) {
        stack.pop();
        unwound++;
        top = stack.peek();
      }
    }
    if (stack.size() > 1) {
      stack.pop();
    } else {
      // Returned past the first frame seen: the caller becomes the root.
      stack.pop();
      stack.push(new Frame(root.child(to), -1, Long.MAX_VALUE));
    }
  }

  /**
   * Replaces the shadow stack by the guest's stack unwound at {@code pc} ({@link GuestUnwinder}):
   * its frames become the path from the root, without counting calls (they happened while sampling
   * was off). An unwinder that knows no objects leaves the stack empty, rooted at the next event.
   */
  private void recover(GuestState guest, long pc) {
    stack.clear();
    GuestUnwinder.Stack s = unwinder.unwind(guest, pc);
    if (s == null || s.frames().isEmpty()) {
      unrecovered++;
      return;
    }
    recovered[s.method().ordinal()]++;
    Node n = root;
    int depth = 0;
    for (GuestUnwinder.Frame f : s.frames()) {
      n = n.depth >= maxDepth ? n : n.child(f.function());
      depth++;
      stack.push(new Frame(n, f.returnAddress(), depth == 1 ? Long.MAX_VALUE : f.sp()));
    }
    deepest = Math.max(deepest, depth);
  }

  private final GuestUnwinder unwinder = new GuestUnwinder();

  /** Whether sampling ever turned the profile on after it was off. */
  private boolean sampled;

  /** Set when sampling turns on: the next event recovers the stack first. */
  private boolean resync;

  /** Stacks recovered at intervals' starts, by {@link GuestUnwinder.Method}. */
  private final long[] recovered = new long[GuestUnwinder.Method.values().length];

  /** Intervals whose stack could not be read at all (no objects known). */
  private long unrecovered;

  /** Charges what ran since the previous event to the top frame's context. */
  private void charge(long applicationInstructions) {
    long i = clock == null ? applicationInstructions : clock.applicationInstructions();
    long c = clock == null ? i : clock.cycles();
    Frame top = stack.peek();
    if (top != null && !paused) {
      top.node.instructions += i - lastInstructions;
      top.node.cycles += c - lastCycles;
    }
    lastInstructions = i;
    lastCycles = c;
  }

  /**
   * The core changed threads: what ran since the last event was the old thread's and is charged to
   * its stack; the new thread's own stack (empty for a new thread, whose first event makes its
   * function a root) is where calls and returns go from now on.
   */
  @Override
  public void threadSwitched(int from, int to, long applicationInstructions) {
    charge(applicationInstructions);
    parked.put(from, stack);
    Deque<Frame> next = parked.remove(to);
    stack = next == null ? new ArrayDeque<>() : next;
  }

  @Override
  public void pause(long applicationInstructions) {
    charge(applicationInstructions);
    paused = true;
  }

  /** The note of a sampled run, whose shadow stack missed the calls made while it was off. */
  public static final String STALE_STACKS =
      "WARNING: sampled run: some intervals' stacks could not be unwound completely, so a"
          + " stack may lack the frames entered while sampling was off (even `main`) and its"
          + " weights may sit under the wrong context; compare with an exhaustive run before"
          + " trusting these stacks (spec/profiles.md)";

  @Override
  public void resume(long applicationInstructions) {
    // Nothing that ran while sampling was off is charged; the stack is recovered at the next
    // event, where the guest's registers are at hand.
    paused = false;
    resync = unwind;
    sampled = true;
    lastInstructions = clock == null ? applicationInstructions : clock.applicationInstructions();
    lastCycles = clock == null ? lastInstructions : clock.cycles();
  }

  /** Sampling turned on with the hart at hand: the stack is recovered now, at {@code cpu.pc}. */
  @Override
  public void resume(Cpu cpu, long applicationInstructions) {
    resume(applicationInstructions);
    if (unwind && cpu != null && cpu.linkMap() != null) {
      resync = false;
      recover(cpu, cpu.pc);
    }
  }

  @Override
  public List<String> notes() {
    List<String> notes = new ArrayList<>();
    long intervals = unrecovered;
    for (long r : recovered) {
      intervals += r;
    }
    if (intervals > 0) {
      // Issue 32: a sampled run put 56% of the instructions under a stack without `main` when
      // the shadow stack started stale at every interval; now each interval's stack is unwound.
      notes.add(
          "sampled run: the stack at each of "
              + intervals
              + " sampled intervals' first event was unwound from the guest's registers and"
              + " memory: "
              + recovered[GuestUnwinder.Method.CFI.ordinal()]
              + " by call frame information alone, "
              + recovered[GuestUnwinder.Method.MIXED.ordinal()]
              + " also by prologue analysis or the frame pointer (code without CFI), "
              + recovered[GuestUnwinder.Method.INCOMPLETE.ordinal()]
              + " incomplete (rooted at the outermost frame found)"
              + (unrecovered > 0 ? ", " + unrecovered + " not unwound (stale stack)" : ""));
    }
    if (unrecovered > 0
        || recovered[GuestUnwinder.Method.INCOMPLETE.ordinal()] > 0
        || (sampled && !unwind)) {
      notes.add(STALE_STACKS);
    }
    if (unwound > 0) {
      notes.add(unwound + " frames were unwound by returns that skipped them (longjmp)");
    }
    if (deepest > maxDepth) {
      notes.add(
          "stacks deeper than "
              + maxDepth
              + " frames (up to "
              + deepest
              + ") share their deepest context (max_depth)");
    }
    return notes;
  }

  /**
   * One row per calling context (a full stack of functions, the root first): its own instructions
   * and cycles, and the calls that entered it. Contexts are resolved to the functions of the ELF
   * symbols, so jumps inside a function merge back into it.
   */
  @Override
  public ProfileTable table(SymbolTable symbols) {
    if (clock != null) {
      charge(0); // up to now: the instructions after the last event
    }
    Map<List<Long>, long[]> contexts = new LinkedHashMap<>();
    Map<Long, String> names = new HashMap<>();
    Deque<Object[]> work = new ArrayDeque<>();
    if (root.children != null) {
      root.children.values().forEach(n -> work.push(new Object[] {n, List.<Long>of()}));
    }
    while (!work.isEmpty()) {
      Object[] w = work.pop();
      Node n = (Node) w[0];
      @SuppressWarnings("unchecked")
      List<Long> parent = (List<Long>) w[1];
      long f = symbols.lookup(n.address).map(Symbol::address).orElse(n.address);
      names.computeIfAbsent(f, a -> RegionCounter.functionAt(symbols, n.address));
      List<Long> path = new ArrayList<>(parent);
      path.add(f);
      List<Long> key = List.copyOf(path);
      long[] v = contexts.computeIfAbsent(key, k -> new long[3]);
      v[0] += n.instructions;
      v[1] += n.cycles;
      v[2] += n.calls;
      if (n.children != null) {
        n.children.values().forEach(c -> work.push(new Object[] {c, key}));
      }
    }
    List<Map.Entry<List<Long>, long[]>> entries = new ArrayList<>(contexts.entrySet());
    entries.removeIf(e -> e.getValue()[0] == 0 && e.getValue()[1] == 0 && e.getValue()[2] == 0);
    entries.sort(
        (a, b) ->
            a.getValue()[0] != b.getValue()[0]
                ? Long.compare(b.getValue()[0], a.getValue()[0])
                : a.getKey().toString().compareTo(b.getKey().toString()));
    List<List<String>> rows = new ArrayList<>();
    for (Map.Entry<List<Long>, long[]> e : entries) {
      List<Long> path = e.getKey();
      List<String> frames = path.stream().map(names::get).toList();
      List<String> addresses = path.stream().map(Branches::hex).toList();
      long[] v = e.getValue();
      rows.add(
          List.of(
              frames.get(frames.size() - 1),
              Long.toString(v[0]),
              Long.toString(v[1]),
              Long.toString(v[2]),
              Integer.toString(path.size()),
              String.join(";", frames),
              String.join(";", addresses)));
    }
    return new ProfileTable(
        List.of("function", "instructions", "cycles", "calls", "depth", "stack", "addresses"),
        rows,
        List.of("addresses"),
        "instructions");
  }
}
