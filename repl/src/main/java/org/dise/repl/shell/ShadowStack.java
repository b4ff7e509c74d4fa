package org.dise.repl.shell;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The guest's call stack as the decode stage saw it: every executed procedure call pushes a frame,
 * every return pops to the frame it returns to. Unlike a frame-pointer walk this needs nothing of
 * the program (statically linked libc is built without frame pointers) and is exact for calls made
 * since the program started; a return to no recorded frame (longjmp-like) leaves the stack as it
 * is. Each guest thread has its own stack: the one shown is the thread's on the hart, the others
 * are parked by thread id while it runs.
 */
final class ShadowStack {
  /** One active call: where it was made, where it returns, the function it entered. */
  record Frame(long callSite, long returnAddress, long entry) {}

  /** Deeper than this, the oldest frames are dropped (runaway recursion stays cheap). */
  static final int MAX_DEPTH = 100_000;

  private ArrayDeque<Frame> frames = new ArrayDeque<>();
  private final java.util.Map<Integer, ArrayDeque<Frame>> parked = new java.util.HashMap<>();
  private long dropped;

  void call(long callSite, long returnAddress, long entry) {
    if (frames.size() == MAX_DEPTH) {
      frames.removeLast();
      dropped++;
    }
    frames.push(new Frame(callSite, returnAddress, entry));
  }

  /** A return to {@code target}: pops the frames down to the one returning there, if any. */
  void ret(long target) {
    int depth = 0;
    for (Iterator<Frame> it = frames.iterator(); it.hasNext(); depth++) {
      if (it.next().returnAddress() == target) {
        for (int i = 0; i <= depth; i++) {
          frames.pop();
        }
        return;
      }
    }
  }

  /** The hart switched threads: the stack of {@code to} (empty for a new thread) is current. */
  void switchThread(int from, int to) {
    parked.put(from, frames);
    ArrayDeque<Frame> next = parked.remove(to);
    frames = next == null ? new ArrayDeque<>() : next;
  }

  /** The active frames of thread {@code tid} while another runs (empty if it made no call). */
  List<Frame> framesOf(int tid) {
    ArrayDeque<Frame> f = parked.get(tid);
    return f == null ? List.of() : new ArrayList<>(f);
  }

  /** The active frames, innermost first. */
  List<Frame> frames() {
    return new ArrayList<>(frames);
  }

  long dropped() {
    return dropped;
  }

  void clear() {
    frames.clear();
    parked.clear();
    dropped = 0;
  }
}
