package org.dise.runtime;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dise.runtime.cpu.BlockCompiler;
import org.dise.runtime.cpu.Cpu;
import org.dise.runtime.cpu.GuestFault;
import org.dise.runtime.cpu.StopReason;
import org.dise.runtime.elf.ElfException;
import org.dise.runtime.elf.ElfFile;
import org.dise.runtime.elf.SymbolTable;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.Decoder;
import org.dise.runtime.isa.Disassembler;
import org.dise.runtime.linux.LinuxKernel;
import org.dise.runtime.linux.Loader;
import org.dise.runtime.linux.OnUnsupported;
import org.dise.runtime.linux.Sandbox;
import org.dise.runtime.mem.Memory;
import org.dise.runtime.mem.MemoryFault;

/**
 * One emulated process: a program loaded into memory, a hart, and the Linux kernel below it. The
 * entry point for running a RISC-V program.
 */
public final class Machine {
  /** Options for loading and running a program. */
  public record Options(
      Sandbox sandbox,
      List<String> env,
      long seed,
      PrintStream notices,
      int translateThreshold,
      OnUnsupported onUnsupported) {
    /**
     * Block executions before the block is translated to JVM bytecode (see spec/emulator.md): low,
     * because translation costs microseconds per block.
     */
    public static final int DEFAULT_TRANSLATE_THRESHOLD = 50;

    public Options(
        Sandbox sandbox, List<String> env, long seed, PrintStream notices, int translateThreshold) {
      this(sandbox, env, seed, notices, translateThreshold, OnUnsupported.FAIL);
    }

    public Options(Sandbox sandbox, List<String> env, long seed, PrintStream notices) {
      this(sandbox, env, seed, notices, DEFAULT_TRANSLATE_THRESHOLD);
    }

    public static Options defaults() {
      return new Options(
          new Sandbox(org.dise.runtime.linux.HostNames.workingDirectory()),
          defaultEnv(),
          0x5eed,
          System.err);
    }

    public Options withSandbox(Sandbox s) {
      return new Options(s, env, seed, notices, translateThreshold, onUnsupported);
    }

    public Options withEnv(List<String> e) {
      return new Options(sandbox, e, seed, notices, translateThreshold, onUnsupported);
    }

    public Options withNotices(PrintStream p) {
      return new Options(sandbox, env, seed, p, translateThreshold, onUnsupported);
    }

    /** 0 interprets everything; 1 translates every block on its first run. */
    public Options withTranslateThreshold(int t) {
      return new Options(sandbox, env, seed, notices, t, onUnsupported);
    }

    /** What a system call acf does not implement does to the run (default: stop it). */
    public Options withOnUnsupported(OnUnsupported u) {
      return new Options(sandbox, env, seed, notices, translateThreshold, u);
    }
  }

  /** How a run ended. */
  public record Outcome(StopReason reason, int exitStatus, long instructions, String report) {}

  private final ElfFile elf;
  private final Memory memory = new Memory();
  private final LinuxKernel kernel;
  private final Cpu cpu;

  /** The program's function symbols at their loaded addresses, read on first use. */
  private SymbolTable symbols;

  private final Loader.Image image;

  private Machine(ElfFile elf, List<String> argv, Options options) throws ElfException {
    this.elf = elf;
    String exe =
        elf.path() == null
            ? argv.get(0)
            : org.dise.runtime.linux.HostNames.guestString(elf.path().toAbsolutePath());
    this.kernel =
        new LinuxKernel(memory, options.sandbox(), options.notices(), exe, options.seed());
    kernel.setOnUnsupported(options.onUnsupported());
    this.cpu = new Cpu(memory, kernel);
    if (options.translateThreshold() > 0) {
      cpu.setBlockCompiler(new BlockCompiler(options.notices()), options.translateThreshold());
    }
    this.image = Loader.load(elf, memory, argv, options.env(), options.seed());
    kernel.setBrkStart(image.brkStart());
    cpu.pc = image.entry();
    cpu.x[2] = image.stackPointer();
  }

  /**
   * Loads a program. {@code argv[0]} is the program name the guest sees.
   *
   * @throws ElfException with a message saying what is wrong with the file
   */
  public static Machine load(Path program, List<String> args, Options options)
      throws IOException, ElfException {
    ElfFile elf = ElfFile.read(program);
    List<String> argv = new ArrayList<>();
    argv.add(org.dise.runtime.linux.HostNames.guestString(program));
    argv.addAll(args);
    return new Machine(elf, argv, options);
  }

  /**
   * The guest's environment unless asked otherwise: empty, the same on every host and every run, so
   * that two runs of one command are comparable (glibc's start-up scans the environment, so even
   * three variables move a small program's branch profile by 12%). See spec/emulator.md,
   * "Environment".
   */
  public static final List<String> DEFAULT_ENV = List.of();

  /** A fresh, mutable copy of {@link #DEFAULT_ENV}. */
  public static List<String> defaultEnv() {
    return new ArrayList<>(DEFAULT_ENV);
  }

  /**
   * The host environment as the guest should see it. Read from /proc/self/environ, byte for byte
   * where possible, because the JVM decodes System.getenv() with the locale's charset.
   */
  public static List<String> hostEnv() {
    List<String> raw = procStrings("/proc/self/environ");
    if (raw != null) {
      return raw;
    }
    List<String> env = new ArrayList<>();
    System.getenv().forEach((k, v) -> env.add(k + "=" + v));
    env.sort(null);
    return env;
  }

  /**
   * NUL-separated strings of a /proc file, their bytes kept exactly (see {@link
   * org.dise.runtime.linux.SurrogateEscape}), or null where there is none.
   */
  public static List<String> procStrings(String file) {
    try {
      byte[] b = java.nio.file.Files.readAllBytes(Path.of(file));
      List<String> out = new ArrayList<>();
      int start = 0;
      for (int i = 0; i < b.length; i++) {
        if (b[i] == 0) {
          out.add(org.dise.runtime.linux.SurrogateEscape.decode(b, start, i - start));
          start = i + 1;
        }
      }
      return out;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  public Cpu cpu() {
    return cpu;
  }

  public Memory memory() {
    return memory;
  }

  public LinuxKernel kernel() {
    return kernel;
  }

  public synchronized SymbolTable symbols() {
    if (symbols == null) {
      symbols = elf.symbols().rebased(image.bias());
    }
    return symbols;
  }

  /** Every named symbol of the program at its loaded address, for {@code symbol(NAME)}. */
  public org.dise.runtime.elf.ProgramSymbols programSymbols() {
    return elf.programSymbols().rebased(image.bias());
  }

  public ElfFile elf() {
    return elf;
  }

  /**
   * Runs until the guest exits or faults, or {@code maxInsns} instructions have run (a negative
   * limit means none).
   */
  public Outcome run(long maxInsns) {
    long limit = maxInsns < 0 ? Long.MAX_VALUE : maxInsns;
    StopReason r;
    do {
      // In slices, so that instret() (what a progress line shows) advances in a loop that
      // makes no system call; the hart keeps its state between slices.
      long left = Math.max(0, limit - cpu.instret());
      r = cpu.run(Math.min(left, SLICE));
    } while (r == StopReason.STEP_LIMIT && cpu.instret() < limit);
    if (r == StopReason.EXITED || r == StopReason.FAULT) {
      kernel.releaseFiles(); // the guest cannot go on: its host files are the tool's again
    }
    return outcome(r, maxInsns);
  }

  /** Instructions between two updates of {@link Cpu#instret()} in {@link #run}. */
  static final long SLICE = 20_000_000L;

  /** The outcome of the last stop, with a report for faults and limits. */
  public Outcome outcome(StopReason r, long maxInsns) {
    return switch (r) {
      case EXITED -> new Outcome(r, cpu.exitCode(), cpu.instret(), null);
      case FAULT ->
          new Outcome(r, 128 + cpu.fault().signal(), cpu.instret(), faultReport(cpu.fault()));
      case STEP_LIMIT ->
          new Outcome(
              r,
              1,
              cpu.instret(),
              String.format(
                  "guest stopped after %,d instructions (--max-insns %d) at pc 0x%x in %s",
                  cpu.instret(), maxInsns, cpu.pc, symbols().describe(cpu.pc)));
      default -> new Outcome(r, 1, cpu.instret(), "guest stopped: " + r);
    };
  }

  /** A one-paragraph fault report: reason, PC, function, instruction bytes and disassembly. */
  public String faultReport(GuestFault f) {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format("guest fault (%s): %s%n", f.signalName(), f.reason()));
    String where =
        symbols().lookup(f.pc()).isPresent()
            ? "in " + symbols().describe(f.pc())
            : "(not in any function)";
    sb.append(String.format("  pc:          0x%x %s%n", f.pc(), where));
    int raw = f.raw();
    int size = f.size();
    if (size == 0) {
      try {
        int lo = memory.fetch16(f.pc());
        raw = Decoder.isLong(lo) ? lo | (memory.fetch16(f.pc() + 2) << 16) : lo;
        size = Decoder.isLong(lo) ? 4 : 2;
      } catch (MemoryFault e) {
        size = 0;
      }
    }
    if (size > 0) {
      String bytes = size == 2 ? String.format("%04x", raw & 0xffff) : String.format("%08x", raw);
      String dis;
      try {
        DecodedInsn d = Decoder.decode(f.pc(), raw);
        dis = Disassembler.format(d, symbols()).replace('\t', ' ');
      } catch (RuntimeException e) {
        dis = "(not a valid instruction)";
      }
      sb.append(String.format("  instruction: %s  %s%n", bytes, dis));
    } else {
      sb.append("  instruction: (no instruction: the pc is not in executable memory)\n");
    }
    sb.append(String.format("  after %,d instructions", cpu.instret()));
    return sb.toString();
  }
}
