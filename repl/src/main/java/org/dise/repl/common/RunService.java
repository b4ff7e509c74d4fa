package org.dise.repl.common;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.dise.runtime.dise.ProductionSet;
import org.dise.runtime.dise.ProfilingEngine;
import org.dise.runtime.dise.config.ConfigFormat;
import org.dise.runtime.dise.config.DeployableConfig;
import org.dise.runtime.elf.SymbolTable;
import org.dise.runtime.session.SessionError;
import org.dise.runtime.trigger.TriggerBinding;
import org.dise.runtime.trigger.TriggerSpec;
import org.dise.runtime.trigger.Triggers;

/**
 * What {@code acf run} and the REPL share above the profiling session ({@code
 * org.dise.runtime.session}: loading the program, binding symbols, building the engine): the
 * guest's stdin, the trigger's options, and writing profiles and configurations. Every problem is a
 * {@link UserError} naming the file and why; the REPL prints its message as {@code error: ...}, the
 * CLI as {@code acf: ...}. Guest environment, confinement and limits are in {@link GuestSettings}.
 */
public final class RunService {
  private RunService() {}

  // ------------------------------------------------------------------ stdin

  /**
   * Checks that {@code file} can serve as a guest's stdin, before any run.
   *
   * @throws UserError naming the file as {@code shown} and why
   */
  public static void checkStdin(Path file, String shown) {
    if (Files.isDirectory(file)) {
      throw new UserError(shown + ": is a directory, not a file to read");
    }
    try (InputStream in = Files.newInputStream(file)) {
      // opened and closed: the file exists and may be read
    } catch (IOException e) {
      throw new UserError(shown + ": cannot read: " + UserError.why(e));
    }
  }

  /** A fresh stream of {@code file} from its start (null: an empty stdin). */
  public static InputStream openStdin(Path file, String shown) {
    if (file == null) {
      return InputStream.nullInputStream();
    }
    checkStdin(file, shown);
    try {
      return Files.newInputStream(file);
    } catch (IOException e) {
      throw new UserError(shown + ": cannot read: " + UserError.why(e));
    }
  }

  // ------------------------------------------------------------------ triggers

  /**
   * The trigger the ACF declares (null: none); {@code origin} names the ACF in the error about
   * several (one trigger runs at a time).
   */
  public static TriggerSpec declared(ProductionSet set, String origin) {
    if (set == null || set.triggers().isEmpty()) {
      return null;
    }
    if (set.triggers().size() > 1) {
      throw new UserError(
          origin
              + ": "
              + set.triggers().size()
              + " triggers are declared ("
              + String.join(", ", set.triggers().stream().map(TriggerBinding::name).toList())
              + "); one trigger runs at a time");
    }
    return TriggerSpec.of(set.triggers().get(0));
  }

  /**
   * {@code spec} with one parameter changed ({@code interval} takes K, M, G suffixes); the
   * strategy's checks run when the caller is done ({@link #checkTrigger}).
   *
   * @throws IllegalArgumentException saying what is wrong with the value
   */
  public static TriggerSpec tune(TriggerSpec spec, String name, String value, String shown) {
    if (name.equals("interval")) {
      value = Long.toString(Triggers.parseCount(shown, value));
    }
    return spec.with(name, value);
  }

  /**
   * Checks every parameter of {@code spec} before a run; {@code from} starts the message ({@code
   * sampling: }, {@code trigger: }).
   *
   * @throws UserError (usage) with the problem
   */
  public static TriggerSpec checkTrigger(TriggerSpec spec, String from) {
    try {
      Triggers.check(spec);
    } catch (IllegalArgumentException e) {
      throw new UserError(from + e.getMessage(), ExitStatus.USAGE);
    }
    return spec;
  }

  // ------------------------------------------------------------------ output

  /**
   * Makes {@code dir} ready for a run's profiles, before anything runs: new, empty, or an earlier
   * run directory (whose files go); {@code option} ({@code --out}, {@code :out}) starts the errors,
   * and {@code consequence} ends them ({@code nothing was run}).
   */
  public static void prepareOut(Path dir, String option, String consequence) {
    try {
      RunOutput.prepare(dir);
    } catch (SessionError e) {
      throw new UserError(
          e.getMessage().replace("--out ", option + " ").replace("nothing was run", consequence),
          e.status());
    }
  }

  /**
   * Writes every sink's profile files and summary.json into {@code dir} ({@code exitStatus}: the
   * guest's, or -1 while it runs; {@code summary}: further summary.json members, or ""); the error
   * names {@code option} ({@code --out}, {@code :out}), the folder and why.
   */
  public static void writeOut(
      ProfilingEngine engine,
      SymbolTable symbols,
      Path dir,
      int exitStatus,
      String option,
      String summary) {
    try {
      ProfileReport.write(engine, symbols, dir, exitStatus, summary);
    } catch (SessionError e) {
      throw new UserError(e.getMessage().replace("--out ", option + " "), e.status());
    }
  }

  /**
   * Refuses a production set that does not fit its hardware budget, one sentence per violation
   * ({@code acf compile}, the REPL's {@code :save}).
   */
  public static void checkBudget(ProductionSet set, String origin) {
    List<String> problems = set.budget().violations(set);
    if (!problems.isEmpty()) {
      throw new UserError(
          origin
              + "the production set does not fit the hardware budget: "
              + String.join("; ", problems));
    }
  }

  /**
   * Writes a deployable configuration ({@code acf compile -o}, the REPL's {@code :save}).
   *
   * @throws UserError {@code FILE: cannot write: WHY}
   */
  public static void writeConfig(DeployableConfig config, Path file, String shown) {
    if (Files.isDirectory(file)) {
      throw new UserError(shown + ": cannot write: is a directory");
    }
    try {
      ConfigFormat.write(config, file);
    } catch (IOException e) {
      throw new UserError(shown + ": cannot write: " + UserError.why(e));
    }
  }
}
