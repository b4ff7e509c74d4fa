package org.dise.runtime.timing;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.IntConsumer;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.cpu.GuestFault;
import org.dise.runtime.cpu.RetireObserver;
import org.dise.runtime.cpu.StopReason;
import org.dise.runtime.cpu.SyscallHandler;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.OpClass;
import org.dise.runtime.mem.Memory;

/**
 * Profile handlers run as RISC-V code (spec/timing.md, "Handlers as real code"). Each sink that has
 * a handler (the library's for its component, or the one its {@code handler =} names) gets a data
 * region (its table) in the shadow window, an address range the guest does not use; every {@code
 * call(...)} of that sink then runs the handler on a shadow hart: a second {@link Cpu} over the
 * guest's memory with registers, pc and stack of its own. Its instructions reach the timing core as
 * handler instructions (fetched through the I-cache, loads and stores through the D-cache, branches
 * through the predictor), displacing the application's lines and entries; the guest's registers and
 * memory outside the window are never written, so guest output and profiles are those of the run
 * without timing.
 */
public final class ShadowHandlers {
  /** The shadow window: above the guest's stack (linux.Loader.STACK_TOP), below 4 GiB. */
  public static final long WINDOW = 0xF000_0000L;

  public static final long WINDOW_END = Memory.LIMIT;

  /** Where the library image is linked (src/main/handlers/handlers.ld). */
  static final long LIBRARY_BASE = 0xF800_0000L;

  /** Where user handlers compiled on the fly are linked, 1 MiB apart. */
  static final long USER_BASE = 0xF900_0000L;

  private static final long STACK = 0xFA00_0000L;
  private static final long STACK_SIZE = 64 << 10;
  private static final long TABLES = 0xFB00_0000L;

  /** Bytes of a table's header (struct table in acf_handler.h) before its slots. */
  static final int HEADER_BYTES = 512;

  static final int SLOT_BYTES = 32;

  /** A handler that has not returned after this many instructions is stopped with a report. */
  static final long MAX_STEPS = 10_000_000;

  /**
   * The components with a library handler (acf_handler.h's functions), each named after its
   * component except those in {@link #SHARED_HANDLER}.
   */
  private static final Set<String> LIBRARY =
      Set.of(
          "region_counter",
          "method_counter",
          "call_pair_counter",
          "path_counter",
          "calling_context",
          "bbv",
          "burst_trace",
          "watchpoint",
          "count_map",
          "sum_map",
          "avg_map",
          "min_map",
          "max_map",
          "state_map",
          "hist_map");

  /** avg_map keeps what sum_map keeps (a sum and a count per key): it runs sum_map's handler. */
  private static final Map<String, String> SHARED_HANDLER = Map.of("avg_map", "sum_map");

  /** Event classes, as acf_handler.h's EV_*. */
  static final int EV_OTHER = 0;

  static final int EV_BRANCH = 1;
  static final int EV_CALL = 2;
  static final int EV_RETURN = 3;
  static final int EV_JUMP = 4;
  static final int EV_LOAD = 5;
  static final int EV_STORE = 6;
  static final int EV_TAKEN = 256;

  private final List<SinkHandler> sinks;
  private final int slots;
  private final List<HandlerImage> images = new ArrayList<>();
  private final List<long[]> imageWindows = new ArrayList<>();

  /** Per sink: its handler's entry, or -1 (none: the model's fallback charges it). */
  private final long[] entry;

  /** Per sink: where its handler came from (for the report). */
  private final String[] origin;

  private final long[] table;
  private final long[] calls;
  private final long[] instructions;
  private final long sentinel;

  private Memory mem;
  private Cpu hart;
  private Core core;
  private final Retired record = new Retired();

  /**
   * Resolves every sink's handler now (compiling a {@code handler = "file.c"}), so that a missing
   * symbol or a compile error stops the run before it starts; {@code slots} is each table's size.
   *
   * @throws IllegalArgumentException naming the sink and what is wrong with its handler
   */
  public ShadowHandlers(List<SinkHandler> sinks, int slots) {
    if (slots < 1 || Integer.bitCount(slots) != 1 || slots > (1 << 20)) {
      throw new IllegalArgumentException(
          "handler.table_entries must be a power of two up to 1048576, got " + slots);
    }
    this.sinks = List.copyOf(sinks);
    this.slots = slots;
    int n = sinks.size();
    entry = new long[n];
    origin = new String[n];
    table = new long[n];
    calls = new long[n];
    instructions = new long[n];
    HandlerImage library = HandlerImage.library();
    images.add(library);
    imageWindows.add(new long[] {LIBRARY_BASE, USER_BASE});
    sentinel = library.symbol("acf_handler_return").orElseThrow();
    Map<String, HandlerImage> loaded = new HashMap<>();
    long tableAt = TABLES;
    long tableBytes = align(HEADER_BYTES + (long) slots * SLOT_BYTES);
    for (int i = 0; i < n; i++) {
      SinkHandler s = sinks.get(i);
      entry[i] = -1;
      String named = s.params().get("handler");
      try {
        if (named != null && !named.isEmpty()) {
          resolveUser(i, named, loaded);
        } else if (LIBRARY.contains(s.component())) {
          String fn = SHARED_HANDLER.getOrDefault(s.component(), s.component());
          entry[i] = library.symbol(fn).orElseThrow();
          origin[i] = LIBRARY_FILE + ":" + fn;
        }
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("sink `" + s.name() + "`: " + e.getMessage());
      }
      if (entry[i] >= 0) {
        table[i] = tableAt;
        tableAt += tableBytes;
        if (tableAt > WINDOW_END) {
          throw new IllegalArgumentException(
              "the handlers' tables do not fit the shadow window: lower handler.table_entries");
        }
      }
    }
  }

  private static final String LIBRARY_FILE = "runtime/timing/src/main/handlers/handlers.c";

  /** {@code handler = "FILE.c"}, {@code "FILE.c:FUNCTION"} or {@code "FILE.elf:SYMBOL"}. */
  private void resolveUser(int i, String named, Map<String, HandlerImage> loaded) {
    int colon = named.lastIndexOf(':');
    String file = colon > 0 ? named.substring(0, colon) : named;
    String fn = colon > 0 ? named.substring(colon + 1) : "handler";
    HandlerImage img = loaded.get(file);
    if (img == null) {
      if (file.endsWith(".c")) {
        long base = USER_BASE + (long) loaded.size() * (1 << 20);
        if (base >= STACK) {
          throw new IllegalArgumentException("too many handler sources (at most 16)");
        }
        img = HandlerImage.compile(Path.of(file), base);
        imageWindows.add(new long[] {base, base + (1 << 20)});
      } else {
        img = HandlerImage.read(Path.of(file));
        imageWindows.add(new long[] {WINDOW, LIBRARY_BASE});
      }
      loaded.put(file, img);
      images.add(img);
    }
    OptionalLong a = img.symbol(fn);
    if (a.isEmpty()) {
      throw new IllegalArgumentException(
          "handler `" + fn + "` is not a function of " + img.origin());
    }
    entry[i] = a.getAsLong();
    origin[i] = img.origin() + ":" + fn;
  }

  /** True when sink {@code i} runs its handler as code. */
  public boolean runs(int i) {
    return i < entry.length && entry[i] >= 0;
  }

  /** Sinks whose handler runs as code. */
  public int handlersRun() {
    int k = 0;
    for (long e : entry) {
      k += e >= 0 ? 1 : 0;
    }
    return k;
  }

  /** The address handlers return to (the shadow hart stops there). */
  public long sentinel() {
    return sentinel;
  }

  /** Sink {@code i}'s table (struct table) in the guest's memory. */
  public long table(int i) {
    return table[i];
  }

  /** Calls of sink {@code i} run as code, and their instructions. */
  public long calls(int i) {
    return calls[i];
  }

  public long instructions(int i) {
    return instructions[i];
  }

  /** Handler instructions of all sinks. */
  public long totalInstructions() {
    long t = 0;
    for (long v : instructions) {
      t += v;
    }
    return t;
  }

  public long totalCalls() {
    long t = 0;
    for (long v : calls) {
      t += v;
    }
    return t;
  }

  /**
   * Maps the images, the shadow stack and the tables into {@code memory} (the guest's) and makes
   * the shadow hart over it; its instructions will be fed to {@code into}.
   */
  public void install(Memory memory, Core into) {
    this.core = into;
    if (memory == mem && mem.isMapped(STACK)) {
      return;
    }
    this.mem = memory;
    long tableEnd = TABLES + align(HEADER_BYTES + (long) slots * SLOT_BYTES) * sinks.size();
    if (!memory.isFree(STACK, STACK_SIZE) || !memory.isFree(TABLES, tableEnd - TABLES)) {
      throw new IllegalArgumentException(
          String.format(
              "the guest maps memory at 0x%x-0x%x, where the timing model runs its handlers",
              STACK, tableEnd));
    }
    for (int k = 0; k < images.size(); k++) {
      long[] w = imageWindows.get(k);
      images.get(k).mapInto(memory, w[0], w[1]);
    }
    memory.map(STACK, STACK_SIZE, Memory.PROT_READ | Memory.PROT_WRITE);
    for (int i = 0; i < sinks.size(); i++) {
      if (entry[i] >= 0) {
        long bytes = align(HEADER_BYTES + (long) slots * SLOT_BYTES);
        memory.map(table[i], bytes, Memory.PROT_READ | Memory.PROT_WRITE);
        writeHeader(memory, table[i], sinks.get(i));
      }
    }
    // A second hart over the same memory. Its constructor takes the memory's code-write listener
    // for itself: the guest's goes back, since only the guest's code can be written (the
    // handlers' text is read-only and no guest store reaches the window).
    IntConsumer guestListener = memory.codeWriteListener();
    hart = new Cpu(memory, NO_KERNEL);
    memory.setCodeWriteListener(guestListener);
    hart.setRetireObserver(new Feed());
  }

  /** The table header's fields the runtime fills (struct table: mask, then param[0..3]). */
  private void writeHeader(Memory memory, long at, SinkHandler s) {
    memory.write64(at, slots - 1);
    long[] p = new long[4];
    Map<String, String> params = s.params();
    switch (s.component()) {
      case "bbv" -> p[0] = number(params.get("interval"), 10_000_000);
      case "watchpoint" -> {
        p[0] = number(params.get("address"), 0);
        p[1] = number(params.get("length"), 1);
      }
      case "hist_map" -> {
        if ("linear".equals(params.get("kind"))) {
          p[0] = 1;
          p[1] = number(params.get("lo"), 0);
          p[2] = Math.max(1, number(params.get("step"), 1));
        }
      }
      default -> {}
    }
    for (int k = 0; k < 4; k++) {
      memory.write64(at + 32 + 8L * k, p[k]);
    }
  }

  /**
   * Runs sink {@code i}'s handler for the event {@code d} (about to execute on {@code guest}, after
   * {@code applicationInstructions} application instructions) with the call's {@code args}.
   *
   * @throws HandlerFault when the handler faults, calls the kernel or does not return
   */
  public void call(int i, DecodedInsn d, Cpu guest, long applicationInstructions, long[] args) {
    if (guest.memory() != mem || !mem.isMapped(STACK)) {
      install(guest.memory(), core); // a fork's or exec's new address space
    }
    long[] gx = guest.x;
    long[] x = hart.x;
    x[1] = sentinel;
    x[2] = STACK + STACK_SIZE;
    x[10] = table[i];
    x[11] = d.pc;
    int kind = kind(d, gx);
    x[12] = target(d, gx, kind);
    x[13] = applicationInstructions;
    x[14] = kind;
    x[15] = gx[2];
    x[16] = args.length > 0 ? args[0] : 0;
    x[17] = args.length > 1 ? args[1] : 0;
    hart.pc = entry[i];
    hart.setBreakpoint(sentinel);
    long before = hart.instret();
    core.enterHandler(sentinel);
    StopReason r;
    try {
      r = hart.run(MAX_STEPS);
    } finally {
      core.leaveHandler();
    }
    calls[i]++;
    instructions[i] += hart.instret() - before;
    if (r != StopReason.BREAKPOINT) {
      GuestFault f = hart.fault();
      throw new HandlerFault(
          String.format(
              Locale.ROOT,
              "handler %s of sink `%s` %s (shadow hart at pc 0x%x)",
              origin[i],
              sinks.get(i).name(),
              r == StopReason.STEP_LIMIT
                  ? "did not return within " + MAX_STEPS + " instructions"
                  : r == StopReason.FAULT && f != null ? "faulted: " + f : "stopped: " + r,
              hart.pc));
    }
  }

  /** Where sink {@code i}'s handler came from. */
  public String origin(int i) {
    return origin[i];
  }

  public String name(int i) {
    return sinks.get(i).name();
  }

  public int size() {
    return sinks.size();
  }

  static int kind(DecodedInsn d, long[] x) {
    OpClass c = d.opClass();
    return switch (c) {
      case BRANCH -> EV_BRANCH | (taken(d, x) ? EV_TAKEN : 0);
      case PROC_CALL -> EV_CALL;
      case RETURN -> EV_RETURN;
      case JUMP -> EV_JUMP;
      case LOAD, ATOMIC -> EV_LOAD;
      case STORE -> EV_STORE;
      default -> EV_OTHER;
    };
  }

  /** The event's dynamic target: where a transfer goes, or a memory access's address. */
  static long target(DecodedInsn d, long[] x, int kind) {
    return switch (kind & 15) {
      case EV_BRANCH -> (kind & EV_TAKEN) != 0 ? d.pc + d.imm : d.npc;
      case EV_CALL, EV_RETURN, EV_JUMP ->
          switch (d.exec) {
            case JALR -> (x[d.rs1] + d.imm) & ~1L;
            case JAL -> d.pc + d.imm;
            default -> d.target();
          };
      case EV_LOAD, EV_STORE -> d.opClass() == OpClass.ATOMIC ? x[d.rs1] : x[d.rs1] + d.imm;
      default -> d.npc;
    };
  }

  private static boolean taken(DecodedInsn d, long[] x) {
    return d.taken(x);
  }

  private static long align(long bytes) {
    return (bytes + Memory.PAGE_MASK) & ~Memory.PAGE_MASK;
  }

  /** A parameter as a number (decimal, 0x hex, or with a K/M/G suffix), else {@code dflt}. */
  static long number(String v, long dflt) {
    if (v == null || v.isEmpty()) {
      return dflt;
    }
    String s = v.strip().replace("_", "");
    long scale = 1;
    char last = Character.toUpperCase(s.charAt(s.length() - 1));
    if (last == 'K' || last == 'M' || last == 'G') {
      scale = last == 'K' ? 1_000 : last == 'M' ? 1_000_000 : 1_000_000_000;
      s = s.substring(0, s.length() - 1);
    }
    try {
      return s.startsWith("0x") || s.startsWith("0X")
          ? Long.parseUnsignedLong(s.substring(2), 16) * scale
          : Long.parseLong(s) * scale;
    } catch (NumberFormatException e) {
      return dflt;
    }
  }

  /** Feeds the shadow hart's instructions to the core as handler instructions. */
  private final class Feed implements RetireObserver {
    @Override
    public void retire(DecodedInsn d, Cpu cpu) {
      Retired r = record.fill(d, cpu);
      r.handler = true;
      core.step(r);
    }
  }

  /** The shadow hart has no kernel: a handler that calls it is stopped. */
  private static final SyscallHandler NO_KERNEL =
      new SyscallHandler() {
        @Override
        public void ecall(Cpu cpu) {
          throw new HandlerFault(
              String.format("a profile handler called the kernel (ecall at 0x%x)", cpu.pc));
        }
      };

  /** A handler run as code went wrong: the run stops with this report. */
  public static final class HandlerFault extends RuntimeException {
    public HandlerFault(String message) {
      super(message);
    }
  }
}
