package org.dise.repl;

import java.util.List;
import org.dise.repl.common.ExitStatus;
import org.dise.repl.common.UserError;
import org.dise.repl.common.Version;
import org.dise.runtime.cpu.EmulatorProperties;
import org.dise.runtime.profiles.ProfileSinks;
import org.dise.runtime.sink.SinkProvider;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code acf} command: one entry point; its subcommands are listed in {@link Cli#COMMANDS}. */
@Command(
    name = "acf",
    mixinStandardHelpOptions = true,
    versionProvider = Version.class,
    description = "DISE/HPS profiling productions: compile ACFs and run them on RISC-V programs.")
public final class Main implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** Bare {@code acf}: the command list on stderr and the usage-error status, as for a typo. */
  @Override
  public void run() {
    spec.commandLine().usage(System.err);
    throw new UserError("no command given; see the list above", ExitStatus.USAGE);
  }

  /**
   * Runs one command line and returns its exit status: a plain run, or {@code run} with the common
   * options ({@link RunLine}), without picocli; other {@code run} lines through the run command
   * alone; a line that names another subcommand through {@code acf} with that subcommand alone;
   * anything else (help, a typo, no command) through the whole command line.
   */
  static int execute(String[] args) {
    if (PlainRun.applies(args)) {
      return PlainRun.execute(args);
    }
    if (args.length > 0 && args[0].equals("run")) {
      RunCommand common = RunLine.parse(args);
      if (common != null) {
        return PlainRun.execute(common);
      }
      CommandLine cl = Cli.runCommandLine();
      ((RunCommand) cl.getCommand()).typed = java.util.List.of(args);
      return cl.execute(java.util.Arrays.copyOfRange(args, 1, args.length));
    }
    if (args.length > 0 && Cli.COMMANDS.containsKey(args[0])) {
      return Cli.commandLine(args[0]).execute(args);
    }
    if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) {
      return Cli.commandLine(null).execute(args);
    }
    return Cli.commandLine().execute(args);
  }

  /**
   * Says what is wrong with the emulator's {@code -Dacf.*} properties (spec/emulator.md) before
   * anything runs: false when a value is bad, a warning for a name acf does not read.
   */
  static boolean checkProperties() {
    return EmulatorProperties.check().report(System.err, "acf");
  }

  public static void main(String[] args) {
    // The sinks this application links, named instead of scanned for (SinkProvider.linked).
    SinkProvider.linked(() -> List.of(new ProfileSinks()));
    // Numbers print as the documentation shows them (8,408 and 1.0000x) on every machine, and the
    // first %,d of a run's report does not load the JDK's locale data (~10 ms of every ACF's run).
    java.util.Locale.setDefault(java.util.Locale.Category.FORMAT, java.util.Locale.US);
    int status;
    try {
      status = checkProperties() ? execute(args) : ExitStatus.USAGE;
    } catch (OutOfMemoryError e) {
      // The guest's address space is bounded (--limit as), so this is the tool's own need.
      System.err.println(
          "acf: out of memory (the JVM's heap is "
              + Runtime.getRuntime().maxMemory() / (1 << 20)
              + " MiB): give it more with"
              + " ACF_JAVA_OPTS=-Xmx..., or lower the guest's --limit as");
      status = ExitStatus.FAILURE;
    } catch (StackOverflowError e) {
      System.err.println(
          "acf: the input is nested too deeply for this JVM's stack (-Xss in" + " ACF_JAVA_OPTS)");
      status = ExitStatus.FAILURE;
    }
    System.out.flush();
    System.exit(status);
  }
}
