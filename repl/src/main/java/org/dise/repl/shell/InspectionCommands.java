package org.dise.repl.shell;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;
import org.dise.runtime.Machine;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.dise.CounterSpec;
import org.dise.runtime.dise.DiseEngine;
import org.dise.runtime.dise.MicroOp;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.config.ConfigPrinter;
import org.dise.runtime.elf.Symbol;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.Decoder;
import org.dise.runtime.isa.Disassembler;
import org.dise.runtime.isa.IllegalInstructionException;
import org.dise.runtime.isa.Registers;
import org.dise.runtime.mem.MemoryFault;

/**
 * The REPL's inspection commands, one group of the session's commands: {@code :regs}, {@code :mem}
 * (bytes and gdb-style typed views), {@code :disasm}, {@code :bt}, {@code :threads}, {@code
 * :thread}, {@code :counters}, {@code :set}. They see the session only through {@link ProgramView},
 * so they run (and test) against any paused machine.
 */
final class InspectionCommands {
  /** What inspection needs of a session: the paused program and its engine. */
  interface ProgramView {
    /** The program, or a {@link ReplError} saying there is none. */
    Machine requireProgram();

    /** The current machine, or null. */
    Machine machine();

    /** The engine the program runs under, or null. */
    DiseEngine engine();

    /** The session's production set, or a {@link ReplError} saying there is none. */
    ProductionSet requireSet();

    ShadowStack shadow();

    /** {@code 5,988 instructions (+176 inserted)}. */
    String instructionCount();

    /** An address: a number, a function, {@code name+offset}, {@code $reg[+offset]}. */
    long address(String s);

    /** A value: a number, or an address. */
    long value(String s);
  }

  private final ProgramView view;
  private final StringBuilder out;

  /**
   * The thread {@code :thread N} selected for {@code :bt} and {@code :regs}, or -1 for the one on
   * the hart; the selection lapses once the program runs again ({@link #selectedAt}).
   */
  private int selected = -1;

  private long selectedAt;

  /** Commands that print into {@code out} (the session's output of the current line). */
  InspectionCommands(ProgramView view, StringBuilder out) {
    this.view = view;
    this.out = out;
  }

  void register(CommandTable t) {
    t.addNoArgs("bt", this::backtrace);
    t.addNoArgs("threads", this::threads);
    t.add("thread", this::thread);
    t.addNoArgs("regs", this::regs);
    t.add("mem", this::mem);
    t.add("disasm", this::disasm);
    t.addNoArgs("counters", this::counters);
    t.add("set", this::set);
    t.add("sample", this::sample);
  }

  private void sample(List<String> a) {
    if (a.size() != 1 || !(a.get(0).equals("on") || a.get(0).equals("off"))) {
      throw new ReplError("usage: :sample on|off");
    }
    setCounter(0, a.get(0).equals("on") ? 0 : 1);
  }

  /** The selected thread's saved state, or null when the thread on the hart is shown. */
  private org.dise.runtime.linux.GuestThreads.ThreadView selectedThread(Machine m) {
    if (selected < 0 || selectedAt != m.cpu().instret()) {
      selected = -1;
      return null;
    }
    for (org.dise.runtime.linux.GuestThreads.ThreadView t : m.kernel().threads().view()) {
      if (t.tid() == selected && t.saved() != null) {
        return t;
      }
    }
    selected = -1;
    return null;
  }

  void threads() {
    Machine m = view.requireProgram();
    org.dise.runtime.linux.GuestThreads.ThreadView shown = selectedThread(m);
    for (org.dise.runtime.linux.GuestThreads.ThreadView t : m.kernel().threads().view()) {
      long pc = t.saved() == null ? m.cpu().pc : t.saved().pc;
      boolean mark = shown == null ? t.saved() == null : t.tid() == shown.tid();
      out.append(
          String.format(
              "%s %-6d %-28s %016x  %s%n",
              mark ? "*" : " ", t.tid(), t.state(), pc, m.symbols().describe(pc)));
    }
  }

  private void thread(List<String> a) {
    if (a.size() != 1) {
      throw new ReplError("usage: :thread N (an id :threads lists)");
    }
    Machine m = view.requireProgram();
    int tid;
    try {
      tid = Integer.parseInt(a.get(0));
    } catch (NumberFormatException e) {
      throw new ReplError("not a thread id: " + a.get(0) + " (:threads lists them)");
    }
    for (org.dise.runtime.linux.GuestThreads.ThreadView t : m.kernel().threads().view()) {
      if (t.tid() == tid) {
        selected = t.saved() == null ? -1 : tid;
        selectedAt = m.cpu().instret();
        long pc = t.saved() == null ? m.cpu().pc : t.saved().pc;
        out.append(
            String.format(
                "thread %d (%s) at %016x  %s%n", tid, t.state(), pc, m.symbols().describe(pc)));
        return;
      }
    }
    throw new ReplError("no live thread " + tid + " (:threads lists them)");
  }

  void backtrace() {
    Machine m = view.requireProgram();
    org.dise.runtime.linux.GuestThreads.ThreadView t = selectedThread(m);
    List<ShadowStack.Frame> frames =
        t == null ? view.shadow().frames() : view.shadow().framesOf(t.tid());
    long pc = t == null ? m.cpu().pc : t.saved().pc;
    out.append(String.format("#0  %016x  %s%n", pc, m.symbols().describeWithLine(pc)));
    int i = 1;
    for (ShadowStack.Frame f : frames) {
      long ra = f.returnAddress();
      // The caller's line is the call's, the instruction before the return address (as gdb says).
      String line = m.symbols().line(ra - 1).map(l -> " (" + l + ")").orElse("");
      out.append(String.format("#%-2d %016x  %s%s%n", i++, ra, m.symbols().describe(ra), line));
    }
    if (view.shadow().dropped() > 0) {
      out.append(String.format("(%,d outer frames not kept)%n", view.shadow().dropped()));
    }
  }

  void regs() {
    Machine m = view.requireProgram();
    Cpu cpu = m.cpu();
    org.dise.runtime.linux.GuestThreads.ThreadView t = selectedThread(m);
    long pc = t == null ? cpu.pc : t.saved().pc;
    long[] x = t == null ? cpu.x : t.saved().x;
    if (t != null) {
      out.append(String.format("thread %d (%s)%n", t.tid(), t.state()));
    }
    out.append(
        String.format(
            "pc   %016x  %s   %s%n", pc, m.symbols().describe(pc), view.instructionCount()));
    for (int i = 0; i < 32; i++) {
      out.append(String.format("%-4s %016x", Registers.x(i), x[i]))
          .append(i % 4 == 3 ? "\n" : "  ");
    }
    if (view.engine() != null) {
      for (int i = 0; i < Cpu.DISE_REGS; i++) {
        out.append(String.format("%-4s %016x", "$dr" + i, cpu.x[Cpu.DISE_REG_BASE + i]))
            .append(i % 4 == 3 ? "\n" : "  ");
      }
    }
  }

  private static final java.util.regex.Pattern TYPED_VIEW =
      java.util.regex.Pattern.compile("x/(\\d*)([xduacs]?)([bhwg]?)");

  void mem(List<String> args) {
    if (!args.isEmpty() && args.get(0).startsWith("x/")) {
      typedMem(args);
      return;
    }
    if (args.isEmpty() || args.size() > 2) {
      throw new ReplError("usage: :mem ADDR [N] | :mem x/NFS ADDR");
    }
    Machine m = view.requireProgram();
    long a = view.address(args.get(0));
    long n = args.size() > 1 ? Args.number(args.get(1)) : 64;
    if (n <= 0 || n > 1 << 16) {
      throw new ReplError(":mem shows 1 to 65536 bytes");
    }
    for (long row = a; row < a + n; row += 16) {
      StringBuilder hex = new StringBuilder();
      StringBuilder text = new StringBuilder();
      for (long p = row; p < row + 16 && p < a + n; p++) {
        int b;
        try {
          b = m.memory().read(p, 1)[0] & 0xff;
        } catch (MemoryFault e) {
          b = -1;
        }
        hex.append(b < 0 ? "??" : String.format("%02x", b)).append(p - row == 7 ? "  " : " ");
        text.append(b >= 0x20 && b < 0x7f ? (char) b : '.');
      }
      out.append(String.format("%08x  %-50s|%s|%n", row, hex, text));
    }
  }

  /**
   * {@code :mem x/NFS ADDR}, as gdb's x: N units of size S (b, h, w, g: 1, 2, 4, 8 bytes) in format
   * F (x hex, d signed, u unsigned, a address with its symbol, c character, s string).
   */
  private void typedMem(List<String> args) {
    java.util.regex.Matcher v = TYPED_VIEW.matcher(args.get(0));
    if (args.size() != 2 || !v.matches()) {
      throw new ReplError(
          "usage: :mem x/NFS ADDR (N a count, F one of x d u a c s, S one of"
              + " b h w g), e.g. :mem x/8xg $sp, :mem x/s ADDR, :mem x/4a $sp");
    }
    Machine m = view.requireProgram();
    long n = v.group(1).isEmpty() ? 1 : Args.number(v.group(1));
    char f = v.group(2).isEmpty() ? 'x' : v.group(2).charAt(0);
    char sz = v.group(3).isEmpty() ? (f == 'a' ? 'g' : f == 'c' ? 'b' : 'w') : v.group(3).charAt(0);
    int size =
        switch (sz) {
          case 'b' -> 1;
          case 'h' -> 2;
          case 'w' -> 4;
          default -> 8;
        };
    if (n <= 0 || n * size > 1 << 16) {
      throw new ReplError(":mem shows 1 to 65536 bytes");
    }
    long a = view.address(args.get(1));
    try {
      if (f == 's') {
        for (int i = 0; i < n; i++) {
          String text = m.memory().readCString(a, 4096);
          out.append(String.format("%08x  \"%s\"%n", a, escape(text)));
          a += text.getBytes(StandardCharsets.ISO_8859_1).length + 1;
        }
        return;
      }
      int perRow = f == 'a' ? 1 : Math.max(1, 16 / size);
      for (long i = 0; i < n; i += perRow) {
        long row = a + i * size;
        StringBuilder line =
            new StringBuilder(
                String.format(
                    "%08x%s:",
                    row,
                    m.symbols().lookup(row).isPresent()
                        ? " <" + m.symbols().describe(row) + ">"
                        : ""));
        for (long k = i; k < Math.min(n, i + perRow); k++) {
          long x = 0;
          byte[] b = m.memory().read(a + k * size, size);
          for (int j = size - 1; j >= 0; j--) {
            x = x << 8 | (b[j] & 0xff);
          }
          long signed = size == 8 ? x : x << (64 - 8 * size) >> (64 - 8 * size);
          line.append("  ")
              .append(
                  switch (f) {
                    case 'd' -> Long.toString(signed);
                    case 'u' -> Long.toUnsignedString(x);
                    case 'c' ->
                        x >= 0x20 && x < 0x7f ? "'" + (char) x + "'" : String.format("\\x%02x", x);
                    case 'a' ->
                        String.format(
                            "0x%x  %s",
                            x, m.symbols().lookup(x).isPresent() ? m.symbols().describe(x) : "");
                    default -> String.format("0x%0" + (2 * size) + "x", x);
                  });
        }
        out.append(line.toString().stripTrailing()).append('\n');
      }
    } catch (MemoryFault e) {
      throw new ReplError(String.format("cannot read memory at 0x%x: %s", a, e.getMessage()));
    }
  }

  private static String escape(String s) {
    StringBuilder sb = new StringBuilder();
    for (char c : s.toCharArray()) {
      switch (c) {
        case '\n' -> sb.append("\\n");
        case '\t' -> sb.append("\\t");
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        default ->
            sb.append(
                c >= 0x20 && c < 0x7f
                    ? String.valueOf(c)
                    : String.format("\\x%02x", (int) c & 0xff));
      }
    }
    return sb.toString();
  }

  void disasm(List<String> args) {
    if (args.size() > 2) {
      throw new ReplError("usage: :disasm [ADDR] [N]");
    }
    Machine m = view.requireProgram();
    long a = args.isEmpty() ? m.cpu().pc : view.address(args.get(0));
    long n = args.size() > 1 ? Args.number(args.get(1)) : 10;
    if (n <= 0 || n > 10_000) {
      throw new ReplError(":disasm shows 1 to 10000 instructions");
    }
    String shown = null;
    for (int i = 0; i < n && a >= 0; i++) {
      Optional<Symbol> s = m.symbols().lookup(a);
      if (s.isPresent() && s.get().address() == a) {
        out.append(String.format("%016x <%s>:%n", a, s.get().name()));
      }
      // The source line above its instructions (objdump -l), for a program built with -g.
      String source = m.symbols().line(a).map(Object::toString).orElse(null);
      if (source != null && !source.equals(shown)) {
        out.append(source).append('\n');
      }
      shown = source;
      a = line(m, a);
    }
  }

  /** The instruction at the pc, marked, as {@code :step} and stops show it. */
  String pcLine(Machine m) {
    int mark = out.length();
    long pc = m.cpu().pc;
    out.append("at ").append(m.symbols().describeWithLine(pc)).append('\n');
    line(m, pc);
    String s = out.substring(mark);
    out.setLength(mark);
    return s.stripTrailing();
  }

  /** Appends one disassembled instruction; returns the next address, or -1 past memory. */
  private long line(Machine m, long a) {
    String mark = a == m.cpu().pc ? "=>" : "  ";
    int lo;
    try {
      lo = m.memory().fetch16(a);
    } catch (MemoryFault e) {
      out.append(String.format("%s %8x:  (not executable memory)%n", mark, a));
      return -1;
    }
    boolean isLong = Decoder.isLong(lo);
    int raw = lo;
    if (isLong) {
      try {
        raw = lo | (m.memory().fetch16(a + 2) << 16);
      } catch (MemoryFault e) {
        out.append(String.format("%s %8x:  (not executable memory)%n", mark, a));
        return -1;
      }
    }
    String bytes = isLong ? String.format("%08x", raw) : String.format("%04x", raw);
    String text;
    try {
      DecodedInsn d = Decoder.decode(a, raw);
      text = Disassembler.format(d, m.symbols()).replace('\t', ' ');
    } catch (IllegalInstructionException e) {
      text = isLong ? ".word 0x" + Integer.toHexString(raw) : ".short 0x" + Integer.toHexString(lo);
    }
    out.append(String.format("%s %8x:  %-8s  %s%n", mark, a, bytes, text));
    return a + (isLong ? 4 : 2);
  }

  void counters() {
    ProductionSet s = view.engine() != null ? view.engine().productionSet() : view.requireSet();
    TreeSet<Integer> indices = new TreeSet<>(s.counterIndices());
    for (CounterSpec c : s.counters()) {
      indices.add(c.index());
    }
    if (view.engine() == null) {
      out.append("(no program is running under these productions: initial values)\n");
    } else {
      // Counters no production names still exist in the hardware; show those set by hand.
      for (int i = 0; i < view.engine().hps().count(); i++) {
        if (view.engine().hps().value(i) != 0 || view.engine().hps().overflow(i)) {
          indices.add(i);
        }
      }
    }
    if (indices.isEmpty()) {
      out.append("no counters\n");
    }
    for (int i : indices) {
      int width = view.engine() == null ? 16 : view.engine().hps().width(i);
      long init = 0;
      for (CounterSpec c : s.counters()) {
        if (c.index() == i) {
          width = c.width();
          init = c.init();
        }
      }
      long value = view.engine() == null ? init : view.engine().hps().value(i);
      boolean zero = value == 0;
      boolean overflow = view.engine() != null && view.engine().hps().overflow(i);
      out.append(
          String.format(
              "counter %d: %d  zero_%d=%s  overflow_%d=%s  (%d bits)%s%n",
              i,
              value,
              i,
              zero ? 1 : 0,
              i,
              overflow ? 1 : 0,
              width,
              i == 0 ? (zero ? "  sampling on" : "  sampling off") : ""));
    }
    out.append(ConfigPrinter.hpsRegisters(s));
  }

  void set(List<String> args) {
    if (args.size() != 3 || !List.of("counter", "reg", "overflow").contains(args.get(0))) {
      throw new ReplError(
          "usage: :set counter N VALUE | :set overflow N 0|1" + " | :set reg NAME VALUE");
    }
    if (args.get(0).equals("counter")) {
      long n = Args.number(args.get(1));
      setCounter((int) n, Args.number(args.get(2)));
      return;
    }
    if (args.get(0).equals("overflow")) {
      int c = counterIndex(Args.number(args.get(1)));
      long v = Args.number(args.get(2));
      if (v != 0 && v != 1) {
        throw new ReplError("a flag is 0 or 1");
      }
      view.engine().hps().restore(c, view.engine().hps().value(c), v == 1);
      out.append(String.format("overflow_%d = %d%n", c, v));
      return;
    }
    Machine m = view.requireProgram();
    String name = args.get(1);
    if (name.equalsIgnoreCase("pc")) {
      m.cpu().pc = view.address(args.get(2));
      out.append(pcLine(m)).append('\n');
      return;
    }
    if (name.toLowerCase(Locale.ROOT).startsWith("$dr")) {
      if (view.engine() == null) {
        throw new ReplError("DISE registers exist while a program runs under productions");
      }
      int i;
      try {
        i = Integer.parseInt(name.substring(3));
      } catch (NumberFormatException e) {
        i = -1;
      }
      if (i < 0 || i >= Cpu.DISE_REGS) {
        throw new ReplError(
            "no register named "
                + name
                + " (DISE registers are $dr0..$dr"
                + (Cpu.DISE_REGS - 1)
                + ")");
      }
      long v = view.value(args.get(2));
      m.cpu().x[Cpu.DISE_REG_BASE + i] = v;
      out.append(String.format("$dr%d = 0x%x%n", i, v));
      return;
    }
    int r = Args.register(name, "use ABI names such as a0, or x10");
    if (r == 0) {
      throw new ReplError("zero is always 0");
    }
    long v = view.value(args.get(2));
    m.cpu().x[r] = v;
    out.append(String.format("%s = 0x%x%n", Registers.x(r), v));
  }

  private int counterIndex(long counter) {
    if (view.engine() == null) {
      throw new ReplError(
          "counters exist while a program runs under productions"
              + " (:program, then :step or :run)");
    }
    int count = view.engine().hps().count();
    if (counter < 0 || counter >= count) {
      throw new ReplError("no counter " + counter + " (counters 0.." + (count - 1) + ")");
    }
    return (int) counter;
  }

  void setCounter(int counter, long value) {
    counterIndex(counter);
    view.engine().hps().apply(MicroOp.setConstant(counter, value));
    out.append(String.format("counter %d = %d%n", counter, view.engine().hps().value(counter)));
  }
}
