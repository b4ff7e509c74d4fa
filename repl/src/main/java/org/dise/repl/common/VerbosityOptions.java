package org.dise.repl.common;

import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * {@code -v/--verbose} and {@code -q/--quiet}, mixed into every command of {@code acf} by {@link
 * #addTo} (so a new subcommand cannot forget them); the execution strategy reads them into {@link
 * Verbosity} before the command runs.
 */
public final class VerbosityOptions {
  @Option(
      names = {"-v", "--verbose"},
      description =
          "Say more on stderr: debug detail, statistics, the stack trace of an internal error"
              + " (as ACF_DEBUG=1).")
  boolean verbose;

  @Option(
      names = {"-q", "--quiet"},
      description = "No progress line or notices on stderr; errors still print.")
  boolean quiet;

  static final String NAME = "verbosity";

  /** Adds the options to {@code cl} and every subcommand below it. */
  public static void addTo(CommandLine cl) {
    if (!cl.getCommandSpec().mixins().containsKey(NAME)) {
      cl.getCommandSpec()
          .addMixin(NAME, CommandLine.Model.CommandSpec.forAnnotatedObject(new VerbosityOptions()));
    }
    for (CommandLine sub : cl.getSubcommands().values()) {
      addTo(sub);
    }
  }

  /**
   * Sets {@link Verbosity} from the options given anywhere on the parsed line ({@code acf -q
   * report} or {@code acf report -q}); NORMAL when none.
   */
  public static void apply(CommandLine.ParseResult parsed) {
    boolean v = false;
    boolean q = false;
    for (CommandLine cl : parsed.asCommandLineList()) {
      Object m = cl.getCommandSpec().mixins().get(NAME);
      if (m != null
          && ((CommandLine.Model.CommandSpec) m).userObject() instanceof VerbosityOptions o) {
        v |= o.verbose;
        q |= o.quiet;
      }
    }
    if (v && q) {
      throw new CommandLine.ParameterException(
          parsed.commandSpec().commandLine(), "--verbose and --quiet cannot be combined");
    }
    Verbosity.set(v ? Verbosity.Level.VERBOSE : q ? Verbosity.Level.QUIET : Verbosity.Level.NORMAL);
  }
}
