package org.dise.runtime.timing;

/**
 * A core timing model: fed one committed instruction at a time ({@link #step}), with the DISE
 * events between them ({@link #stall}, {@link #handler}), it keeps its caches and predictors and
 * counts cycles, attributed to what caused them (application, inserted, handler, stall).
 */
public abstract class Core {
  /** Attribution categories (spec/timing.md, "Attribution"). */
  public static final int APPLICATION = 0;

  public static final int INSERTED = 1;
  public static final int HANDLER = 2;
  public static final int STALL = 3;

  protected final TimingConfig config;
  protected final MemoryHierarchy mem;
  protected final BranchPredictor bp;
  protected final BranchTargetBuffer btb; // null: none
  protected final ReturnAddressStack ras; // null: none

  protected final int latAlu;
  protected final int latLoad;
  protected final int latMul;
  protected final int latDiv;
  protected final int latFpAdd;
  protected final int latFpMul;
  protected final int latFpDiv;
  protected final int latFpSqrt;
  protected final int frontend;

  private final int handlerCodeBytes;
  private final int handlerEntryBytes;
  private final int handlerEntries;

  /** Cycles by category. */
  protected final long[] attributed = new long[4];

  protected long applicationInstructions;
  protected long insertedInstructions;
  protected long branches;
  protected long mispredictions;
  protected long handlerCalls;
  protected long handlerInstructions;

  /** The application's register ready cycles while a handler runs on its own registers. */
  private final long[] savedReady = new long[128];

  /**
   * Instructions (application and inserted) by unit ({@link OpTable}): the energy model's classes.
   */
  protected final long[] byUnit = new long[16];

  /**
   * Cycles in which the core ran no instruction of its own: replacement stalls, modelled handler
   * calls and the refills after mispredicted or late-known transfers (the energy model prices each
   * as an integer instruction's cycle, spec/timing.md "Energy").
   */
  protected long bubbleCycles;

  /** Ready cycle of each register: x0..x40 (DISE registers included) at 0.., f at 64... */
  protected final long[] regReady = new long[128];

  /** The I-cache line last fetched (a fetch group does not look the cache up again). */
  protected long fetchLine = -1;

  protected Core(TimingConfig c) {
    this.config = c;
    this.mem = new MemoryHierarchy(c);
    this.bp = BranchPredictor.of(c);
    this.btb =
        c.integer("btb.entries") == 0
            ? null
            : new BranchTargetBuffer(c.integer("btb.entries"), c.integer("btb.ways"));
    this.ras =
        c.integer("ras.entries") == 0 ? null : new ReturnAddressStack(c.integer("ras.entries"));
    latAlu = c.integer("lat.alu");
    latLoad = c.integer("lat.load");
    latMul = c.integer("lat.mul");
    latDiv = c.integer("lat.div");
    latFpAdd = c.integer("lat.fp_add");
    latFpMul = c.integer("lat.fp_mul");
    latFpDiv = c.integer("lat.fp_div");
    latFpSqrt = c.integer("lat.fp_sqrt");
    frontend = c.integer("frontend");
    handlerCodeBytes = c.integer("handler.code_bytes");
    handlerEntryBytes = c.integer("handler.entry_bytes");
    handlerEntries = c.integer("handler.table_entries");
  }

  /** Times one committed instruction. */
  public abstract void step(Retired r);

  /**
   * Functional warming (SMARTS): {@code r} updates the caches, the predictor, the BTB and the RAS
   * and is counted, but takes no time; the core's clock stands still.
   */
  public final void warm(Retired r) {
    count(r);
    if (!r.inserted) {
      long line = mem.iline(r.pc);
      if (line != fetchLine) {
        fetchLine = line;
        mem.fetch(r.pc);
      }
    }
    switch (r.unit) {
      case OpTable.LOAD, OpTable.ATOMIC -> mem.data(r.addr, r.width, r.unit == OpTable.ATOMIC);
      case OpTable.STORE -> mem.data(r.addr, r.width, true);
      default -> {
        if (predict(r) != 0) {
          fetchLine = -1;
        }
      }
    }
  }

  /** A handler call under functional warming: its modelled memory traffic, no time. */
  public final void warmHandler(int sink, long key) {
    handlerMisses(sink, key);
  }

  /** A DISE replacement's decode stall of {@code cycles}. */
  public abstract void stall(long cycles);

  /**
   * A handler call that the model charges {@code cycles} plus the misses of its modelled memory
   * traffic: its code ({@code handler.code_bytes}) through the L1 I and one table entry (read and
   * written) through the L1 D, at the slot {@code key} hashes to (spec/timing.md, "Handlers").
   */
  public abstract void handler(int sink, long cycles, long key);

  /**
   * A co-processor interrupt that costs the main processor {@code cycles} (its handler and the copy
   * of the co-processor's slots, spec/engine.md): charged as a serialising block, attributed to
   * handlers.
   */
  public abstract void interrupt(long cycles);

  /** The cycles so far (the last instruction committed). */
  public abstract long cycles();

  /** Cycles beyond the handler's declared cost that its modelled memory traffic takes. */
  protected final int handlerMisses(int sink, long key) {
    handlerCalls++;
    long code = 0x7f00_0000_0000L + ((long) sink << 24);
    int extra = 0;
    for (int b = 0; b < handlerCodeBytes; b += 4) {
      long line = mem.iline(code + b);
      if (line != fetchLine) {
        fetchLine = line;
        extra += mem.fetch(code + b);
      }
    }
    fetchLine = -1; // the application's next fetch looks its line up again
    long h = key * 0x9E3779B97F4A7C15L;
    long slot = (h >>> 32) % handlerEntries;
    long entry = 0x7e00_0000_0000L + ((long) sink << 32) + slot * handlerEntryBytes;
    extra += mem.data(entry, 8, false);
    mem.data(entry, 8, true);
    return extra;
  }

  /**
   * Predicts a control transfer; returns 0 when the front end followed it, the misfetch penalty
   * when only the target came late (decoded from a direct instruction), or -1 for a misprediction
   * that the core resolves when the instruction executes.
   */
  protected final int predict(Retired r) {
    switch (r.unit) {
      case OpTable.BRANCH -> {
        branches++;
        long key = r.inserted ? r.pc ^ ((long) r.raw << 13) ^ r.imm : r.pc;
        if (!bp.predict(key, r.taken)) {
          mispredictions++;
          return -1;
        }
        if (r.taken && !r.inserted && (btb == null || !btb.lookup(r.pc, r.target))) {
          return btb == null ? frontendTaken() : 2;
        }
        return 0;
      }
      case OpTable.JAL -> {
        if (r.rdLink && ras != null) {
          ras.push(r.pc + r.size);
        }
        if (btb == null) {
          return frontendTaken();
        }
        return btb.lookup(r.pc, r.target) ? 0 : 2;
      }
      case OpTable.JALR -> {
        branches++;
        boolean ok;
        if (r.isReturn && ras != null) {
          ok = ras.pop(r.target);
        } else {
          ok = btb != null && btb.lookup(r.pc, r.target);
        }
        if (r.rdLink && ras != null) {
          ras.push(r.pc + r.size);
        }
        if (!ok) {
          mispredictions++;
          return -1;
        }
        return 0;
      }
      default -> {
        return 0;
      }
    }
  }

  /** A taken transfer on a core without a BTB: the target is known only at execute. */
  private int frontendTaken() {
    return frontend;
  }

  /** The result latency of a non-memory instruction. */
  protected final int latency(int unit) {
    return switch (unit) {
      case OpTable.MUL -> latMul;
      case OpTable.DIV -> latDiv;
      case OpTable.FP_ADD -> latFpAdd;
      case OpTable.FP_MUL -> latFpMul;
      case OpTable.FP_DIV -> latFpDiv;
      case OpTable.FP_SQRT -> latFpSqrt;
      default -> latAlu;
    };
  }

  /**
   * A handler's code starts running (handler.ShadowHandlers): the replacement's call is a control
   * transfer that the decode stage resolves (no prediction), pushing {@code returnAddress} on the
   * return-address stack so the handler's return is predicted. The handler runs on a register
   * context of its own [choice], so its registers' ready cycles are kept apart from the
   * application's until {@link #leaveHandler}.
   */
  public void enterHandler(long returnAddress) {
    handlerCalls++;
    if (ras != null) {
      ras.push(returnAddress);
    }
    fetchLine = -1;
    System.arraycopy(regReady, 0, savedReady, 0, regReady.length);
    java.util.Arrays.fill(regReady, handlerStart());
  }

  /** The handler returned: the application's registers are back. */
  public void leaveHandler() {
    fetchLine = -1;
    System.arraycopy(savedReady, 0, regReady, 0, regReady.length);
  }

  /** The cycle from which a handler's argument registers are ready (its call dispatched). */
  protected abstract long handlerStart();

  /** Instructions of handlers run as code. */
  public final long handlerInstructions() {
    return handlerInstructions;
  }

  /** Handler calls, modelled or run as code. */
  public final long handlerCalls() {
    return handlerCalls;
  }

  /** The attribution category of {@code r}. */
  protected static int category(Retired r) {
    return r.handler ? HANDLER : r.inserted ? INSERTED : APPLICATION;
  }

  protected final void count(Retired r) {
    byUnit[r.unit]++;
    if (r.handler) {
      handlerInstructions++;
    } else if (r.inserted) {
      insertedInstructions++;
    } else {
      applicationInstructions++;
    }
  }

  /** What this core measured. */
  public final TimingReport report() {
    Cache l2 = mem.l2();
    return new TimingReport(
        config.model(),
        cycles(),
        attributed.clone(),
        applicationInstructions,
        insertedInstructions,
        handlerCalls,
        mem.l1i().accesses(),
        mem.l1i().misses(),
        mem.l1d().accesses(),
        mem.l1d().misses(),
        l2 == null ? 0 : l2.accesses(),
        l2 == null ? 0 : l2.misses(),
        branches,
        mispredictions,
        byUnit[OpTable.LOAD] + byUnit[OpTable.ATOMIC],
        byUnit[OpTable.STORE],
        byUnit[OpTable.FP_ADD]
            + byUnit[OpTable.FP_MUL]
            + byUnit[OpTable.FP_DIV]
            + byUnit[OpTable.FP_SQRT],
        mem.l1dReadMisses(),
        mem.l1dWriteMisses(),
        bubbleCycles,
        handlerInstructions);
  }

  /** The core of {@code config.model()}. */
  public static Core of(TimingConfig config) {
    int period = config.integer("sample.period");
    if (period < 0
        || config.integer("sample.unit") < 1
        || config.integer("sample.warmup") < 0
        || (period > 0
            && period < config.integer("sample.unit") + config.integer("sample.warmup"))) {
      throw new IllegalArgumentException(
          "sampled timing needs sample.period 0 (off) or at least sample.unit + sample.warmup,"
              + " sample.unit at least 1 and sample.warmup at least 0");
    }
    return switch (config.model()) {
      case "inorder" -> new InOrderCore(config);
      case "ooo" -> new WindowCore(config);
      default -> throw new IllegalArgumentException("unknown timing model " + config.model());
    };
  }
}
