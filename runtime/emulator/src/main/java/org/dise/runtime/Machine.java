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
import org.dise.runtime.elf.LinkMap;
import org.dise.runtime.elf.SymbolTable;
import org.dise.runtime.isa.DecodedInsn;
import org.dise.runtime.isa.Decoder;
import org.dise.runtime.isa.Disassembler;
import org.dise.runtime.linux.HostCommandLine;
import org.dise.runtime.linux.LinuxKernel;
import org.dise.runtime.linux.Loader;
import org.dise.runtime.linux.OnUnsupported;
import org.dise.runtime.linux.Sandbox;
import org.dise.runtime.linux.Sysroot;
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
      OnUnsupported onUnsupported,
      long quantum,
      long translateWarmup) {
    /**
     * Block executions before the block is translated to JVM bytecode (see spec/emulator.md): low,
     * because translation costs microseconds per block.
     */
    public static final int DEFAULT_TRANSLATE_THRESHOLD = 50;

    /** Instructions a guest thread runs before the next one gets the hart (spec/emulator.md). */
    public static final long DEFAULT_QUANTUM = org.dise.runtime.linux.GuestThreads.DEFAULT_QUANTUM;

    /**
     * Instructions a process retires before its translation threshold falls from 20 times its value
     * to its value, for {@code acf run} (spec/emulator.md, "Translation warm-up"): the translator's
     * first use costs a fresh JVM tens of milliseconds, which a short program never earns back. The
     * options made here start with none (the threshold alone decides).
     */
    public static final long DEFAULT_TRANSLATE_WARMUP = 1_000_000;

    public Options {
      if (quantum < 1) {
        throw new IllegalArgumentException("the quantum must be at least 1 instruction");
      }
      if (translateWarmup < 0) {
        throw new IllegalArgumentException("the translation warm-up cannot be negative");
      }
    }

    public Options(
        Sandbox sandbox, List<String> env, long seed, PrintStream notices, int translateThreshold) {
      this(sandbox, env, seed, notices, translateThreshold, OnUnsupported.FAIL);
    }

    public Options(
        Sandbox sandbox,
        List<String> env,
        long seed,
        PrintStream notices,
        int translateThreshold,
        OnUnsupported onUnsupported) {
      this(sandbox, env, seed, notices, translateThreshold, onUnsupported, DEFAULT_QUANTUM, 0);
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

    public Options withNotices(PrintStream p) {
      return new Options(
          sandbox, env, seed, p, translateThreshold, onUnsupported, quantum, translateWarmup);
    }

    /** 0 interprets everything; 1 translates every block on its first run. */
    public Options withTranslateThreshold(int t) {
      return new Options(sandbox, env, seed, notices, t, onUnsupported, quantum, translateWarmup);
    }

    /** Instructions retired while the threshold is 20 times higher (0: none; see the constant). */
    public Options withTranslateWarmup(long w) {
      return new Options(
          sandbox, env, seed, notices, translateThreshold, onUnsupported, quantum, w);
    }

    /** What a system call acf does not implement does to the run (default: stop it). */
    public Options withOnUnsupported(OnUnsupported u) {
      return new Options(
          sandbox, env, seed, notices, translateThreshold, u, quantum, translateWarmup);
    }

    /** Instructions per thread quantum (guest threads share one hart; spec/emulator.md). */
    public Options withQuantum(long q) {
      return new Options(
          sandbox, env, seed, notices, translateThreshold, onUnsupported, q, translateWarmup);
    }
  }

  /** How a run ended. */
  public record Outcome(StopReason reason, int exitStatus, long instructions, String report) {}

  private ElfFile elf;
  private final Memory memory;
  private final LinuxKernel kernel;
  private final Cpu cpu;
  private final Options options;

  /** The command line the process runs (argv). */
  private List<String> argv;

  /**
   * Told of every process the guest forks (to install an engine on it, say), with the machine that
   * runs it; inherited by the children's children.
   */
  private java.util.function.Consumer<Machine> forkListener;

  /** The processes this one forked, and theirs, in creation order (the first machine's list). */
  private final List<Machine> descendants;

  /** The program, its dynamic linker and the libraries mapped so far, at their load addresses. */
  private final LinkMap linkMap = new LinkMap();

  private Loader.Image image;

  /**
   * Whether the productions installed on this process's hart go on into a program it exec's ({@code
   * acf run --follow-exec}, the default), or are removed at the exec.
   */
  private boolean followExec = true;

  /** The symbols of every object mapped when the program's own code starts (computed once). */
  private org.dise.runtime.elf.ProgramSymbols startupSymbols;

  /** The sysroot a program's dynamic linker comes from; a static program never asks for it. */
  private Sysroot sysrootFor(ElfFile program) {
    return program.isDynamic() ? options.sandbox().sysroot() : null;
  }

  /**
   * A process's hart, for the first process and for a forked child alike: its first thread's id is
   * the process's, it names code through the process's link map, and it translates blocks when the
   * options ask.
   */
  private static Cpu hart(Memory memory, LinuxKernel kernel, LinkMap linkMap, Options options) {
    Cpu cpu = new Cpu(memory, kernel);
    cpu.setThreadId(kernel.pid());
    cpu.setLinkMap(linkMap);
    if (options.translateThreshold() > 0) {
      cpu.setBlockCompiler(
          new BlockCompiler(options.notices()),
          options.translateThreshold(),
          options.translateWarmup());
    }
    return cpu;
  }

  private Machine(ElfFile elf, List<String> argv, Options options) throws ElfException {
    this.elf = elf;
    this.memory = new Memory();
    this.options = options;
    this.argv = List.copyOf(argv);
    this.descendants = new ArrayList<>();
    String exe =
        elf.path() == null
            ? argv.get(0)
            : org.dise.runtime.linux.HostNames.guestString(canonical(elf.path()));
    this.kernel =
        new LinuxKernel(memory, options.sandbox(), options.notices(), exe, options.seed());
    kernel.setOnUnsupported(options.onUnsupported());
    this.cpu = hart(memory, kernel, linkMap, options);
    kernel.threads().setQuantum(options.quantum());
    this.image = Loader.load(elf, memory, argv, options.env(), options.seed(), sysrootFor(elf));
    kernel.setBrkStart(image.brkStart());
    kernel.setMmapTop(image.mmapTop());
    recordLoaded(elf, image);
    cpu.pc = image.entry();
    cpu.x[2] = image.stackPointer();
    kernel.threads().setDescriber(pc -> String.format("0x%x in %s", pc, symbols().describe(pc)));
    kernel.setSpawner(spawner());
  }

  /** The program and its dynamic linker, as the loader mapped them, in the link map. */
  private void recordLoaded(ElfFile program, Loader.Image img) {
    linkMap.add(
        new LinkMap.LoadedObject(
            LinkMap.nameOf(program, program.path()), program, img.bias(), LinkMap.Kind.PROGRAM));
    if (img.interp() != null) {
      linkMap.add(
          new LinkMap.LoadedObject(
              LinkMap.nameOf(img.interp(), img.interp().path()),
              img.interp(),
              img.interpBias(),
              LinkMap.Kind.INTERPRETER));
      kernel.setFileMapListener(this::mappedExecutable);
    }
  }

  private org.dise.runtime.linux.Spawner spawner() {
    return new org.dise.runtime.linux.Spawner() {
      @Override
      public Child spawn(Cpu parent, int pid) {
        return Machine.this.spawn(parent, pid);
      }

      @Override
      public void exec(Cpu cpu, Path program, List<String> newArgv, List<String> env)
          throws ElfException, IOException {
        Machine.this.exec(cpu, program, newArgv, env);
      }
    };
  }

  /**
   * execve: the program at {@code program} replaces this one in the same process. The file is read
   * and checked before anything changes, so a file acf cannot run leaves the old program going.
   */
  private void exec(Cpu cpu, Path program, List<String> newArgv, List<String> env)
      throws ElfException, IOException {
    ElfFile next = ElfFile.read(program);
    memory.unmapAll();
    Loader.Image img = Loader.load(next, memory, newArgv, env, options.seed(), sysrootFor(next));
    synchronized (this) {
      this.elf = next;
      this.image = img;
      this.startupSymbols = null;
    }
    this.argv = List.copyOf(newArgv);
    kernel.execReset(
        img.brkStart(), org.dise.runtime.linux.HostNames.guestString(program.toAbsolutePath()));
    kernel.setMmapTop(img.mmapTop());
    linkMap.clear();
    recordLoaded(next, img);
    java.util.Arrays.fill(cpu.x, 0);
    java.util.Arrays.fill(cpu.f, 0);
    cpu.setFcsr(0);
    cpu.pc = img.entry();
    cpu.x[2] = img.stackPointer();
    cpu.flushDecodeCache();
    if (!followExec) {
      cpu.setDecodeStage(null);
    }
  }

  /** Whether productions go on into programs this process (and its children) exec. */
  public void setFollowExec(boolean follow) {
    this.followExec = follow;
  }

  /**
   * A forked child of {@code parent}: a copy of its memory, its kernel state (open files shared)
   * and the registers of the thread that forked ({@code parentCpu}), as process {@code pid}.
   */
  private Machine(Machine parent, Cpu parentCpu, int pid) {
    this.elf = parent.elf;
    this.image = parent.image;
    this.startupSymbols = parent.startupSymbols;
    parent.linkMap.objects().forEach(linkMap::add);
    this.options = parent.options;
    this.argv = parent.argv;
    this.descendants = parent.descendants;
    this.forkListener = parent.forkListener;
    this.followExec = parent.followExec;
    this.memory = parent.memory.copy();
    this.kernel = parent.kernel.forkChild(memory, pid);
    this.cpu = hart(memory, kernel, linkMap, options);
    org.dise.runtime.cpu.HartContext regs = new org.dise.runtime.cpu.HartContext();
    parentCpu.saveContext(regs);
    cpu.loadContext(regs);
    kernel.threads().setDescriber(pc -> String.format("0x%x in %s", pc, symbols().describe(pc)));
    kernel.setSpawner(spawner());
  }

  private org.dise.runtime.linux.Spawner.Child spawn(Cpu parentCpu, int pid) {
    Machine child = new Machine(this, parentCpu, pid);
    descendants.add(child);
    if (forkListener != null) {
      forkListener.accept(child);
    }
    return new org.dise.runtime.linux.Spawner.Child(child.kernel, child.cpu, child::faultReport);
  }

  /** Calls {@code l} with every process the guest forks from now on (before it runs). */
  public void setForkListener(java.util.function.Consumer<Machine> l) {
    this.forkListener = l;
  }

  /** Every process forked from this one (and from those), in creation order. */
  public List<Machine> descendants() {
    return List.copyOf(descendants);
  }

  /** The process id the guest sees. */
  public int pid() {
    return kernel.pid();
  }

  /** The command line this process was started with (argv; a forked child's is its parent's). */
  public List<String> argv() {
    return argv;
  }

  /** How this process ended, as a shell would report it, or -1 while it runs (forked ones). */
  public int shellStatus() {
    org.dise.runtime.linux.ProcessTree t = kernel.processTree();
    if (t != null) {
      for (org.dise.runtime.linux.ProcessTree.Member m : t.members()) {
        if (m.cpu == cpu) {
          return m.exited() ? m.shellStatus() : -1;
        }
      }
    }
    return cpu.halted() ? cpu.exitCode() : -1;
  }

  /** The program's path as /proc/self/exe names it: absolute, links and dots resolved. */
  private static Path canonical(Path p) {
    try {
      return p.toRealPath();
    } catch (IOException e) {
      return p.toAbsolutePath().normalize();
    }
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
    List<String> raw = HostCommandLine.procStrings("/proc/self/environ");
    if (raw != null) {
      return raw;
    }
    List<String> env = new ArrayList<>();
    System.getenv().forEach((k, v) -> env.add(k + "=" + v));
    env.sort(null);
    return env;
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

  /**
   * The functions of the program and of every object mapped so far at their loaded addresses, read
   * on first use; a library the dynamic linker maps later joins the same table.
   */
  public SymbolTable symbols() {
    return linkMap.symbols();
  }

  /**
   * Every named symbol of the objects mapped so far at its loaded address, for {@code symbol(NAME)}
   * (a library's as {@code NAME@SONAME} too; see {@link LinkMap#programSymbols}).
   */
  public org.dise.runtime.elf.ProgramSymbols programSymbols() {
    return linkMap.programSymbols();
  }

  /**
   * The most instructions the dynamic linker may take to reach the program's entry in {@link
   * #startupSymbols} (glibc's takes about 100,000 for a program that needs libc alone).
   */
  static final long STARTUP_BUDGET = 200_000_000L;

  /**
   * Every named symbol of the program and of the libraries the dynamic linker maps before the
   * program's own code starts (its DT_NEEDED closure), at the addresses this run will give them:
   * what {@code symbol(NAME)} binds against before the run. For a static program, {@link
   * #programSymbols}. For a dynamic one, a scratch copy of this process runs the dynamic linker to
   * the program's entry point (it reads files and maps memory, nothing else: its output goes
   * nowhere) and its link map is taken; load addresses are deterministic, so they are this run's
   * too. A library the program maps later (dlopen) is not among them.
   */
  public synchronized org.dise.runtime.elf.ProgramSymbols startupSymbols() {
    if (!isDynamic()) {
      return programSymbols();
    }
    if (startupSymbols == null) {
      startupSymbols = scratchLinkMap().programSymbols();
    }
    return startupSymbols;
  }

  /** The link map of a scratch copy of this process run to the program's entry point. */
  private LinkMap scratchLinkMap() {
    Machine scratch;
    try {
      scratch =
          new Machine(
              elf,
              argv,
              options.withNotices(new PrintStream(java.io.OutputStream.nullOutputStream())));
    } catch (ElfException e) {
      return linkMap; // it loaded once already; it cannot fail now
    }
    for (int fd = 0; fd < 3; fd++) {
      scratch.kernel.setStdio(
          fd, java.io.InputStream.nullInputStream(), java.io.OutputStream.nullOutputStream());
    }
    long entry = elf.entry() + image.bias();
    scratch.cpu.setBreakpoint(entry);
    scratch.cpu.run(STARTUP_BUDGET);
    scratch.kernel.releaseFiles();
    return scratch.linkMap;
  }

  /** The objects of the process: the program, its dynamic linker, the libraries mapped so far. */
  public LinkMap linkMap() {
    return linkMap;
  }

  /** Whether the program names a dynamic linker (libraries then map while it runs). */
  public boolean isDynamic() {
    return image.interp() != null;
  }

  /**
   * The guest mapped part of a file with execute permission (the dynamic linker mapping a library's
   * code): when it is an ELF object, its symbols join the link map at the bias the mapping implies.
   */
  private void mappedExecutable(Path file, long addr, long offset) {
    ElfFile lib;
    try {
      lib = mappedFiles.computeIfAbsent(file, Machine::readObject);
    } catch (RuntimeException e) {
      return;
    }
    if (lib == null) {
      return;
    }
    for (org.dise.runtime.elf.Segment s : lib.segments()) {
      if (s.type() == org.dise.runtime.elf.Segment.PT_LOAD
          && (s.offset() & ~Memory.PAGE_MASK) == offset) {
        long bias = addr - (s.vaddr() & ~Memory.PAGE_MASK);
        if (!linkMap.has(file, bias)) {
          linkMap.add(
              new LinkMap.LoadedObject(LinkMap.nameOf(lib, file), lib, bias, LinkMap.Kind.LIBRARY));
        }
        return;
      }
    }
  }

  /** ELF files the guest mapped with execute permission, parsed once each (null: not ELF). */
  private final java.util.Map<Path, ElfFile> mappedFiles = new java.util.HashMap<>();

  private static ElfFile readObject(Path file) {
    try {
      return ElfFile.read(file);
    } catch (IOException | ElfException e) {
      return null;
    }
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
      // makes no system call; the hart keeps its state between slices. The limit is the whole
      // process tree's: forked processes run inside the first one's run and count against it.
      long left = Math.max(0, limit - treeInstructions());
      r = cpu.run(Math.min(left, SLICE));
    } while (r == StopReason.STEP_LIMIT && treeInstructions() < limit);
    if (r == StopReason.EXITED || r == StopReason.FAULT || r == StopReason.DEADLOCK) {
      kernel.releaseFiles(); // the guest cannot go on: its host files are the tool's again
      int wstatus =
          r == StopReason.EXITED
              ? (cpu.exitCode() & 0xff) << 8
              : r == StopReason.FAULT ? cpu.fault().signal() & 0x7f : 9;
      // the other processes run to their end, within what is left of the limit
      String rest = kernel.processEnded(wstatus, Math.max(0, limit - treeInstructions()));
      if (rest != null) {
        options.notices().println("acf: " + rest);
      }
    }
    return outcome(r, maxInsns);
  }

  /**
   * Instructions the process tree ran: this process's and every process forked from it (each forked
   * process counts from its fork). {@code --max-insns} bounds this sum.
   */
  public long treeInstructions() {
    long n = cpu.instret();
    for (Machine d : descendants) {
      n += d.cpu.instret();
    }
    return n;
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
              descendants.isEmpty()
                  ? String.format(
                      "guest stopped after %,d instructions (--max-insns %d) at pc 0x%x in %s",
                      cpu.instret(), maxInsns, cpu.pc, symbols().describe(cpu.pc))
                  : String.format(
                      "guest stopped after %,d instructions of the process tree (--max-insns %d;"
                          + " %,d of them in process %d) at pc 0x%x in %s",
                      treeInstructions(),
                      maxInsns,
                      cpu.instret(),
                      pid(),
                      cpu.pc,
                      symbols().describe(cpu.pc)));
      case DEADLOCK -> new Outcome(r, 1, cpu.instret(), kernel.threads().deadlockReport());
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
