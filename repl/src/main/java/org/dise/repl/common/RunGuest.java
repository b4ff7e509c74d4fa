package org.dise.repl.common;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import org.dise.runtime.Machine;

/**
 * How the guest starts, one family of {@link RunOptions} ({@code acf run}'s and {@code acf repl}'s
 * options): its seed, translation, scheduling quantum, unimplemented system calls, resource limits,
 * environment and files. The values as typed; {@link #applyTo} turns them into the {@link
 * GuestSettings} the REPL's commands go on changing, and checks them on the way.
 *
 * @param seed AT_RANDOM's and getrandom's seed
 * @param translateThreshold executions of a block before it is translated (0: never)
 * @param translateWarmup instructions retired before translating at the threshold (-1: the default,
 *     {@link #warmup})
 * @param quantum instructions a guest thread runs before the next runnable one
 * @param onUnsupported fail, enosys or warn
 * @param limits {@code NAME=VALUE} resource limits, in order
 * @param env its environment
 * @param files its sysroot and the folders it may also read and write
 */
public record RunGuest(
    long seed,
    int translateThreshold,
    long translateWarmup,
    long quantum,
    String onUnsupported,
    List<String> limits,
    Environment env,
    Files files) {
  public RunGuest {
    limits = List.copyOf(limits);
  }

  /**
   * The guest's environment: what it starts from (empty, the default, the same on every host; or
   * the host's) and the variables set on that.
   *
   * @param set {@code NAME=VALUE} variables ({@code --env}), in order
   * @param clear {@code --clear-env}: start from an empty environment (the default, said aloud)
   * @param fromHost {@code --env-from-host}: start from the host's environment
   */
  public record Environment(List<String> set, boolean clear, boolean fromHost) {
    public Environment {
      set = List.copyOf(set);
    }

    /** The variables the guest starts from, before {@link #set}'s. */
    List<String> base() {
      if (clear && fromHost) {
        throw new UserError("--clear-env and --env-from-host exclude each other", ExitStatus.USAGE);
      }
      return clear ? List.of() : fromHost ? Machine.hostEnv() : Machine.defaultEnv();
    }
  }

  /**
   * The guest's files ({@link GuestFileOptions}, as {@code acf run}, {@code acf sweep} and {@code
   * acf repl} take them).
   *
   * @param sysroot where a dynamic program's libraries come from (null: the default)
   * @param allowRead folders the guest may also read
   * @param allowWrite folders the guest may also write
   */
  public record Files(Path sysroot, List<Path> allowRead, List<Path> allowWrite) {
    public Files {
      allowRead = List.copyOf(allowRead);
      allowWrite = List.copyOf(allowWrite);
    }

    /**
     * Into {@code guest}, each folder as {@code as} gives it (the REPL: absolute, as it may cd).
     */
    void applyTo(GuestSettings guest, UnaryOperator<Path> as) {
      for (Path d : allowRead) {
        guest.allowRead(as.apply(d));
      }
      for (Path d : allowWrite) {
        guest.allowWrite(as.apply(d));
      }
      if (sysroot != null) {
        guest.sysroot(as.apply(sysroot));
      }
    }
  }

  /** A guest of {@code acf run}'s defaults with this seed, files, limits, variables and policy. */
  public static RunGuest of(
      long seed,
      GuestFileOptions files,
      List<String> limits,
      List<String> env,
      String onUnsupported) {
    return new RunGuest(
        seed,
        Machine.Options.DEFAULT_TRANSLATE_THRESHOLD,
        -1,
        Machine.Options.DEFAULT_QUANTUM,
        onUnsupported,
        limits,
        new Environment(env, false, false),
        files.values());
  }

  /**
   * A guest of the defaults with these files and threshold and no translation warm-up: the guest
   * {@code acf bench} and {@code acf sweep} measure (the warm-up is {@code acf run}'s, for a short
   * program's start, which they do not time; the emulator's own options start without one).
   */
  public static RunGuest measured(Files files, int translateThreshold) {
    return new RunGuest(
        GuestSettings.DEFAULT_SEED,
        translateThreshold,
        0,
        Machine.Options.DEFAULT_QUANTUM,
        "fail",
        List.of(),
        new Environment(List.of(), false, false),
        files);
  }

  /**
   * Checks every value, as {@link #applyTo} would.
   *
   * @throws UserError (usage) with {@code acf run}'s message for the option whose value is wrong
   */
  public void validate() {
    applyTo(new GuestSettings(), d -> d);
  }

  /** The emulator's options for a guest started in {@code cwd} with these settings. */
  public Machine.Options machine(Path cwd, PrintStream notices) {
    return applyTo(new GuestSettings(), d -> d).options(cwd, notices);
  }

  /**
   * Into {@code guest}, each folder as {@code as} gives it (the REPL: absolute, as it may cd).
   *
   * @throws UserError (usage) naming the option whose value is wrong
   */
  public GuestSettings applyTo(GuestSettings guest, UnaryOperator<Path> as) {
    List<String> base = env.base();
    guest
        .seed(seed)
        .translateThreshold(translateThreshold)
        .translateWarmup(warmup(translateThreshold, translateWarmup))
        .quantum(quantum)
        .onUnsupported(onUnsupported, "--on-unsupported")
        .env(base);
    files.applyTo(guest, as);
    // Loops, not forEach with a lambda: one call site fewer to link in every run's start-up.
    for (String l : limits) {
      guest.limit(l, "--limit");
    }
    for (String v : env.set()) {
      guest.set(v, "--env");
    }
    return guest;
  }

  /**
   * The warm-up a run gets: the one given, else the default with the default threshold, and none
   * with a threshold given (a user asking for threshold 1 means every block from the start).
   */
  public static long warmup(int threshold, long given) {
    if (given >= 0) {
      return given;
    }
    return threshold == Machine.Options.DEFAULT_TRANSLATE_THRESHOLD
        ? Machine.Options.DEFAULT_TRANSLATE_WARMUP
        : 0;
  }
}
