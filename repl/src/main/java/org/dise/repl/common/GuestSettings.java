package org.dise.repl.common;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dise.runtime.Machine;
import org.dise.runtime.linux.GuestLimits;
import org.dise.runtime.linux.OnUnsupported;
import org.dise.runtime.linux.Sandbox;
import org.dise.runtime.linux.Sysroot;

/**
 * How a guest starts, as {@code acf run}'s options and the REPL's {@code :env}, {@code :allow},
 * {@code :limit} set it: the environment, the folders it may read and write beyond the working
 * folder ({@code --allow-*} confinement), resource limits, the seed, the translation threshold and
 * what an unimplemented system call does. One class for both, so that the two confine and start a
 * guest the same way ({@link RunService}).
 */
public final class GuestSettings {
  /** AT_RANDOM's and getrandom's seed when none is given. */
  public static final long DEFAULT_SEED = 0x5eed;

  private final List<Path> allowRead = new ArrayList<>();
  private final List<Path> allowWrite = new ArrayList<>();
  private final List<Path> protect = new ArrayList<>();
  private final List<String> limits = new ArrayList<>();
  private List<String> env = Machine.defaultEnv();
  private long seed = DEFAULT_SEED;
  private int translateThreshold = Machine.Options.DEFAULT_TRANSLATE_THRESHOLD;
  private long translateWarmup;
  private Path sysroot;

  /** Instructions retired before the first translation (0, the default here: none). */
  public GuestSettings translateWarmup(long w) {
    if (w < 0) {
      throw new UserError("--translate-warmup must be 0 or more", ExitStatus.USAGE);
    }
    translateWarmup = w;
    return this;
  }

  /**
   * The directory dynamically linked programs take their dynamic linker and libraries from ({@code
   * --sysroot}, qemu-riscv64's {@code -L}); without one, {@code $ACF_SYSROOT} or {@link
   * Sysroot#DEFAULT}.
   *
   * @throws UserError (usage) when {@code dir} is not a directory
   */
  public GuestSettings sysroot(Path dir) {
    try {
      Sysroot.at(dir);
    } catch (IllegalArgumentException e) {
      throw new UserError("--sysroot " + e.getMessage(), ExitStatus.USAGE);
    }
    sysroot = dir;
    return this;
  }

  /** The sysroot a run uses (see {@link #sysroot(Path)}), or null when there is none. */
  public static Sysroot chooseSysroot(Path explicit) {
    try {
      return Sysroot.choose(explicit);
    } catch (IllegalArgumentException e) {
      throw new UserError(
          (explicit != null ? "--sysroot " : Sysroot.ENV + "=") + e.getMessage(), ExitStatus.USAGE);
    }
  }

  private long quantum = Machine.Options.DEFAULT_QUANTUM;
  private OnUnsupported onUnsupported = OnUnsupported.FAIL;

  /** Lets the guest read files under {@code dir} too. */
  public GuestSettings allowRead(Path dir) {
    allowRead.add(dir);
    return this;
  }

  /** Lets the guest read and write files under {@code dir} too. */
  /**
   * Keeps {@code p} out of the guest's reach for changes (acf's state: --out, --spool; the rest is
   * {@link AcfState}).
   */
  public GuestSettings protect(Path p) {
    protect.add(p);
    return this;
  }

  public GuestSettings allowWrite(Path dir) {
    allowWrite.add(dir);
    return this;
  }

  /**
   * Sets a resource limit ({@code nofile=N}, {@code as=SIZE}); {@code command} ({@code --limit},
   * {@code :limit}) names where it came from in the error.
   *
   * @throws UserError (usage) when the limit is not one the guest knows
   */
  public GuestSettings limit(String nameValue, String command) {
    try {
      GuestLimits.defaults().with(nameValue);
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage().replace("--limit", command), ExitStatus.USAGE);
    }
    String name = nameValue.substring(0, Math.max(0, nameValue.indexOf('=')) + 1);
    limits.removeIf(l -> l.startsWith(name));
    limits.add(nameValue);
    return this;
  }

  public List<Path> readable() {
    return List.copyOf(allowRead);
  }

  public List<Path> writable() {
    return List.copyOf(allowWrite);
  }

  public List<String> limits() {
    return List.copyOf(limits);
  }

  /** The environment the guest starts with. */
  public List<String> env() {
    return List.copyOf(env);
  }

  public GuestSettings env(List<String> variables) {
    env = new ArrayList<>(variables);
    return this;
  }

  /**
   * Sets one variable, replacing an earlier value of the same name (getenv returns the first match,
   * so an appended duplicate would be ignored by the guest).
   *
   * @throws UserError (usage) naming {@code command} ({@code --env}, {@code :env}) when {@code
   *     assignment} is not NAME=VALUE
   */
  public GuestSettings set(String assignment, String command) {
    int eq = assignment.indexOf('=');
    if (eq <= 0) {
      throw new UserError(command + " " + assignment + ": expected NAME=VALUE", ExitStatus.USAGE);
    }
    String name = assignment.substring(0, eq + 1);
    env.removeIf(v -> v.startsWith(name));
    env.add(assignment);
    return this;
  }

  public GuestSettings seed(long s) {
    seed = s;
    return this;
  }

  public GuestSettings translateThreshold(int t) {
    if (t < 0) {
      throw new UserError("--translate-threshold must be 0 or more", ExitStatus.USAGE);
    }
    translateThreshold = t;
    return this;
  }

  /**
   * What a system call acf does not implement does to the run: {@code fail} (stop with a report,
   * the default), {@code enosys} or {@code warn}; {@code command} names the option in the error.
   *
   * @throws UserError (usage) for another value
   */
  public GuestSettings onUnsupported(String policy, String command) {
    try {
      onUnsupported = OnUnsupported.parse(policy);
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage().replace("--on-unsupported", command), ExitStatus.USAGE);
    }
    return this;
  }

  public OnUnsupported onUnsupported() {
    return onUnsupported;
  }

  /**
   * The emulator's options: a sandbox rooted at {@code cwd} (the guest's working folder, readable
   * and writable) with the allowed folders and limits; {@code notices} gets the emulator's notes.
   */
  /** Instructions a guest thread runs before the next one gets the hart. */
  public GuestSettings quantum(long q) {
    if (q < 1) {
      throw new UserError("--quantum must be at least 1", ExitStatus.USAGE);
    }
    quantum = q;
    return this;
  }

  public Machine.Options options(Path cwd, PrintStream notices) {
    Sandbox sandbox = new Sandbox(cwd);
    // Loops rather than forEach with lambdas: each lambda is a call site linked in every run's
    // start-up (docs/benchmarks.md, "Start-up, fifth pass").
    for (Path d : allowRead) {
      sandbox.allowRead(cwd.resolve(d));
    }
    for (Path d : allowWrite) {
      sandbox.allowWrite(cwd.resolve(d));
    }
    sandbox.protectLater(AcfState::paths); // read when a check needs them (the config file)
    for (Path p : protect) {
      sandbox.protect(cwd.resolve(p));
    }
    GuestLimits l = sandbox.limits();
    for (String s : limits) {
      l = l.with(s); // checked when set
    }
    sandbox.setLimits(l);
    // A sysroot named is checked now (a usage error); the default one is probed when the guest
    // first needs it (a statically linked program never does).
    String named = System.getenv(Sysroot.ENV);
    if (sysroot != null || (named != null && !named.isEmpty())) {
      sandbox.setSysroot(chooseSysroot(sysroot == null ? null : cwd.resolve(sysroot)));
    }
    return new Machine.Options(
        sandbox,
        new ArrayList<>(env),
        seed,
        notices,
        translateThreshold,
        onUnsupported,
        quantum,
        translateWarmup);
  }
}
