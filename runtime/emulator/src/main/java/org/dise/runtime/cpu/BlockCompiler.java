package org.dise.runtime.cpu;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.javac.InMemoryJavac;

/**
 * Translates hot blocks for the JIT. The default back end ({@link Backend#BYTECODE}) writes JVM
 * bytecode with ASM on the emulating thread, in microseconds per block, so blocks are translated
 * soon after they turn hot and no second thread competes for the CPU. The older back end
 * ({@link Backend#JAVAC}, {@code -Dacf.translator=javac}) writes Java source and compiles it with
 * the JDK's compiler in the background; the interpreter keeps running a block until its
 * translation is published, and without a JDK compiler nothing is translated. Guest-visible
 * behaviour is identical whichever runs.
 */
public final class BlockCompiler {
  private static final String PKG = "org.dise.runtime.cpu.gen";
  private static final AtomicInteger CLASSES = new AtomicInteger();
  private static final int BATCH = 48;

  /** How blocks become JVM code. */
  public enum Backend {
    /** ASM bytecode, generated on the emulating thread when the interpreter next looks. */
    BYTECODE,
    /** Java source compiled by javac in a background thread. */
    JAVAC;

    /** The back end {@code -Dacf.translator=bytecode|javac} names (bytecode by default). */
    public static Backend fromProperty() {
      return "javac".equals(System.getProperty("acf.translator")) ? JAVAC : BYTECODE;
    }
  }

  /**
   * Most blocks in one generated class (its dispatch switch follows control among them); a
   * unit whose dispatch method passes HotSpot's 8000-byte limit is split further.
   */
  private static final int MAX_UNIT = 48;

  private final Backend backend;
  /** BYTECODE: blocks waiting for the emulating thread's next {@link #installReady}. */
  private final List<Block> waiting = new ArrayList<>();
  private final LinkedBlockingQueue<Block> queue = new LinkedBlockingQueue<>();
  private final boolean javac;
  private final PrintStream notices;
  private volatile boolean failed;
  private Thread thread;
  private final AtomicInteger compiledBlocks = new AtomicInteger();
  /** Blocks submitted and not yet compiled (or dropped). */
  private final AtomicInteger pending = new AtomicInteger();

  public BlockCompiler(PrintStream notices) {
    this(notices, Backend.fromProperty());
  }

  public BlockCompiler(PrintStream notices, Backend backend) {
    this.notices = notices;
    this.backend = backend;
    this.javac = backend == Backend.JAVAC && InMemoryJavac.available();
  }

  public Backend backend() {
    return backend;
  }

  /** Whether translations report their blocks to the cpu's block observer. */
  private volatile boolean observed;

  /** Makes later translations call {@link Cpu#observe} (set while a block observer is installed). */
  void setObserved(boolean on) {
    observed = on;
  }

  /** True when a JDK compiler is present and nothing has failed. */
  public boolean available() {
    return (backend == Backend.BYTECODE || javac) && !failed;
  }

  /** Number of blocks translated so far. */
  public int compiledBlocks() {
    return compiledBlocks.get();
  }

  /** Queues a hot block for translation. */
  void submit(Block b) {
    if (!available() || !BlockTranslator.translatable(b)) {
      return;
    }
    if (backend == Backend.BYTECODE) {
      waiting.removeIf(o -> o.start == b.start);
      waiting.add(b);
      return;
    }
    synchronized (this) {
      if (thread == null) {
        thread = new Thread(this::loop, "acf-block-compiler");
        thread.setDaemon(true);
        thread.start();
      }
    }
    pending.incrementAndGet();
    queue.add(b);
  }

  /** Waits until every submitted block has been compiled (installing needs a run); false on timeout. */
  public boolean awaitIdle(long millis) throws InterruptedException {
    long deadline = System.currentTimeMillis() + millis;
    while (pending.get() > 0) {
      if (System.currentTimeMillis() > deadline || failed) {
        return false;
      }
      Thread.sleep(5);
    }
    return true;
  }

  private void loop() {
    try {
      while (!failed) {
        List<Block> batch = new ArrayList<>();
        batch.add(queue.take());
        int taken = 1;
        // Gather what else turns hot soon, so one javac run covers many blocks.
        long deadline = System.nanoTime() + 50_000_000L;
        while (taken < BATCH) {
          long left = deadline - System.nanoTime();
          Block b = left > 0 ? queue.poll(left, TimeUnit.NANOSECONDS) : queue.poll();
          if (b == null) {
            break;
          }
          taken++;
          // One block per address in a unit (its lookup switches on the address): a block
          // decoded again after a flush replaces the one before.
          batch.removeIf(o -> o.start == b.start);
          batch.add(b);
        }
        Unit u = compile(batch);
        if (u != null) {
          ready.add(u);
          hasReady = true;
        }
        pending.addAndGet(-taken);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** A compiled unit waiting to be installed by the emulating thread. */
  record Unit(List<Block> blocks, CompiledBlocks code) {}

  private final java.util.concurrent.ConcurrentLinkedQueue<Unit> ready =
      new java.util.concurrent.ConcurrentLinkedQueue<>();
  private volatile boolean hasReady;

  /** True when compiled units wait for {@link #installReady}. */
  boolean hasReady() {
    return backend == Backend.BYTECODE ? !waiting.isEmpty() : hasReady;
  }

  /**
   * Installs compiled units, on the emulating thread, so blocks only ever change there. A unit
   * one of whose blocks was dropped while it compiled (its code changed) is marked out of date.
   */
  void installReady(Cpu cpu) {
    if (backend == Backend.BYTECODE) {
      for (int i = 0; i < waiting.size(); i += MAX_UNIT) {
        compileSplitting(List.copyOf(waiting.subList(i, Math.min(waiting.size(), i + MAX_UNIT))),
            cpu);
      }
      waiting.clear();
      return;
    }
    hasReady = false;
    Unit u;
    while ((u = ready.poll()) != null) {
      install(u, cpu);
    }
  }

  static void install(Unit u, Cpu cpu) {
    for (int i = 0; i < u.blocks().size(); i++) {
      Block b = u.blocks().get(i);
      if (cpu.isCurrent(b)) {
        b.codeId = i;
        b.code = u.code();
      } else {
        u.code().invalidate();
      }
    }
  }

  /**
   * Translates blocks to bytecode and installs them, in halves when the unit's dispatch method
   * would be too large for HotSpot to compile (a lone block that large stays interpreted).
   */
  private void compileSplitting(List<Block> blocks, Cpu cpu) {
    if (failed) {
      return;
    }
    try {
      CompiledBlocks code = BytecodeTranslator.define(blocks, observed, cpu.decodeStage());
      compiledBlocks.addAndGet(blocks.size());
      install(new Unit(blocks, code), cpu);
    } catch (BytecodeTranslator.TooLarge e) {
      if (blocks.size() > 1) {
        int half = blocks.size() / 2;
        compileSplitting(blocks.subList(0, half), cpu);
        compileSplitting(blocks.subList(half, blocks.size()), cpu);
      }
    } catch (Exception | LinkageError e) {
      failed = true;
      notices.println("acf: block translation disabled (" + e + "); the interpreter runs"
          + " everything");
    }
  }

  /** Compiles blocks on the caller's thread; null when translation failed. */
  Unit compile(List<Block> batch) {
    if (backend == Backend.BYTECODE) {
      try {
        CompiledBlocks code = BytecodeTranslator.define(batch, observed, null);
        compiledBlocks.addAndGet(batch.size());
        return new Unit(List.copyOf(batch), code);
      } catch (BytecodeTranslator.TooLarge e) {
        return null;
      } catch (Exception | LinkageError e) {
        failed = true;
        notices.println("acf: block translation disabled (" + e + "); the interpreter runs"
            + " everything");
        return null;
      }
    }
    String name = "Blocks" + CLASSES.incrementAndGet();
    String source = BlockTranslator.classSource(PKG, name, batch, observed);
    try {
      CompiledBlocks code = load(name, source);
      DecodedInsn[][] insns = new DecodedInsn[batch.size()][];
      for (int i = 0; i < batch.size(); i++) {
        insns[i] = batch.get(i).insns;
      }
      code.getClass().getField("INSNS").set(null, insns);
      compiledBlocks.addAndGet(batch.size());
      return new Unit(List.copyOf(batch), code);
    } catch (Exception | LinkageError e) {
      failed = true;
      notices.println("acf: block translation disabled (" + e.getMessage()
          + "); the interpreter runs everything");
      return null;
    }
  }

  private CompiledBlocks load(String name, String source) throws Exception {
    Class<?> c = InMemoryJavac.compile(PKG + "." + name, source,
        BlockCompiler.class.getClassLoader());
    return (CompiledBlocks) c.getDeclaredConstructor().newInstance();
  }
}
