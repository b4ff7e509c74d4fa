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
 * is.
 */
final class ShadowStack {
  /** One active call: where it was made, where it returns, the function it entered. */
  record Frame(long callSite, long returnAddress, long entry) {}

  /** Deeper than this, the oldest frames are dropped (runaway recursion stays cheap). */
  static final int MAX_DEPTH = 100_000;

  private final ArrayDeque<Frame> frames = new ArrayDeque<>();
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

  /** The active frames, innermost first. */
  List<Frame> frames() {
    return new ArrayList<>(frames);
  }

  long dropped() {
    return dropped;
  }

  void clear() {
    frames.clear();
    dropped = 0;
  }
}
