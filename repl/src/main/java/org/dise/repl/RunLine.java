package org.dise.repl;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code acf run} with the options that the common run lines use ({@code --acf}, {@code --config},
 * {@code --max-insns}, {@code --out}, {@code --stats}, the guest's settings, sampling), parsed
 * without building picocli's model of the run command. That model is read from about forty
 * annotated options by reflection and cost a run about 0.1 s of start-up (docs/benchmarks.md,
 * issue 14); {@link PlainRun} already skips it for a run with no option at all.
 *
 * <p>Only what is certain to parse exactly as picocli parses it is taken here: a known option with
 * a well-formed value, each single-valued option once. Everything else, {@code --help}, {@code
 * --version}, an unknown or misspelt option, a missing or odd value ({@code -x}, empty, {@code
 * @file}, a number picocli might read differently), {@code --}, no program, goes to picocli, which
 * prints its usual message. {@code RunLineTest} compares the two parses on many command lines.
 */
final class RunLine {
  private RunLine() {}

  /** Options without a value. */
  private static final Set<String> FLAGS =
      Set.of(
          "--stats",
          "--no-cache",
          "--clear-env",
          "--env-from-host",
          "--shadow-exhaustive",
          "--progress",
          "--no-progress");

  /** Options that take one value, each given at most once. */
  private static final Set<String> SINGLE =
      Set.of(
          "--max-insns",
          "--seed",
          "--translate-threshold",
          "--translate-warmup",
          "--on-unsupported",
          "--config",
          "--engine",
          "--out",
          "--sampling",
          "--interval",
          "--threshold",
          "--predictor",
          "--scaling",
          "--fast-forward",
          "--simpoints",
          "--weights");

  /** Options that take one value and may be repeated. */
  private static final Set<String> REPEATED =
      Set.of("--acf", "--allow-read", "--allow-write", "--limit", "--env");

  /**
   * A whole number of at most {@code digits} digits as every converter reads it alike: no sign, no
   * leading zero, no radix. (Checked by hand: a regular expression costs a short run's start-up.)
   */
  private static boolean decimal(String v, int digits) {
    if (v.isEmpty() || v.length() > digits || (v.charAt(0) == '0' && v.length() > 1)) {
      return false;
    }
    for (int i = 0; i < v.length(); i++) {
      if (v.charAt(i) < '0' || v.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  /**
   * The run command {@code args} (the whole command line, {@code run} first) asks for, or null when
   * picocli must parse it.
   */
  static RunCommand parse(String[] args) {
    if (args.length < 2 || !args[0].equals("run")) {
      return null;
    }
    RunCommand run = new RunCommand();
    Set<String> seen = new HashSet<>();
    int i = 1;
    for (; i < args.length && args[i].startsWith("-"); i++) {
      String arg = args[i];
      String name = arg;
      String value = null;
      int eq = arg.indexOf('=');
      if (arg.startsWith("--") && eq > 2) {
        name = arg.substring(0, eq);
        value = arg.substring(eq + 1);
      }
      if (FLAGS.contains(name)) {
        if (value != null || !seen.add(name.equals("--no-progress") ? "--progress" : name)) {
          return null;
        }
        set(run, name);
        continue;
      }
      if (!SINGLE.contains(name) && !REPEATED.contains(name)) {
        return null; // --help, -V, --, an unknown option: picocli's
      }
      if (value == null) {
        if (i + 1 >= args.length) {
          return null;
        }
        value = args[++i];
      }
      if (value.isEmpty()
          || value.startsWith("-")
          || value.startsWith("@")
          || (SINGLE.contains(name) && !seen.add(name))
          || !set(run, name, value)) {
        return null;
      }
    }
    if (i >= args.length || args[i].isEmpty() || args[i].startsWith("@")) {
      return null; // no program, or an argument file: picocli's message
    }
    for (int j = i + 1; j < args.length; j++) {
      if (args[j].startsWith("@")) {
        return null; // picocli expands an argument file wherever it stands
      }
    }
    run.program = HostArgs.path(args[i]);
    run.args = new ArrayList<>(Arrays.asList(args).subList(i + 1, args.length));
    run.typed = List.of(args);
    return run;
  }

  private static void set(RunCommand run, String flag) {
    switch (flag) {
      case "--stats" -> run.stats = true;
      case "--no-cache" -> run.noCache = true;
      case "--clear-env" -> run.clearEnv = true;
      case "--env-from-host" -> run.envFromHost = true;
      case "--shadow-exhaustive" -> run.sampling.shadowExhaustive = true;
      case "--progress" -> run.progress = true;
      case "--no-progress" -> run.progress = false;
      default -> throw new IllegalStateException(flag);
    }
  }

  /** Sets one option as picocli's converter would; false when picocli must judge the value. */
  private static boolean set(RunCommand run, String name, String value) {
    try {
      switch (name) {
        case "--max-insns" -> run.maxInsns = count(value);
        case "--translate-warmup" -> run.translateWarmup = count(value);
        case "--fast-forward" -> run.points.fastForward = count(value);
        case "--seed" -> {
          if (!decimal(value, 18)) {
            return false;
          }
          run.seed = Long.parseLong(value);
        }
        case "--translate-threshold" -> {
          if (!decimal(value, 9)) {
            return false;
          }
          run.translateThreshold = Integer.parseInt(value);
        }
        case "--on-unsupported" -> {
          if (!value.equals("fail") && !value.equals("enosys") && !value.equals("warn")) {
            return false; // GuestSettings' message
          }
          run.onUnsupported = value;
        }
        case "--engine" -> {
          if (!value.equals("interpreted")) {
            return false; // picocli says why (a retired or unknown engine)
          }
          run.engineKind = org.dise.runtime.session.Engines.INTERPRETED;
        }
        case "--config" -> run.config = path(value);
        case "--out" -> run.out = path(value);
        case "--simpoints" -> run.points.simpoints = path(value);
        case "--weights" -> run.points.weights = path(value);
        case "--acf" -> run.acfs.add(path(value));
        case "--allow-read" -> run.files.allowRead.add(path(value));
        case "--allow-write" -> run.files.allowWrite.add(path(value));
        case "--limit" -> run.limits.add(value);
        case "--env" -> run.env.add(value);
        case "--sampling" -> run.sampling.sampling = value;
        case "--interval" -> run.sampling.interval = value;
        case "--threshold" -> run.sampling.threshold = value;
        case "--predictor" -> run.sampling.predictor = value;
        case "--scaling" -> run.sampling.scaling = value;
        default -> throw new IllegalStateException(name);
      }
      return true;
    } catch (RuntimeException e) {
      return false; // picocli's conversion error message
    }
  }

  /** {@link CountConverter}'s reading, without loading picocli's converter interface. */
  private static long count(String value) {
    return org.dise.runtime.trigger.Triggers.parseCount("the count", value);
  }

  private static Path path(String value) {
    return HostArgs.path(value);
  }
}
