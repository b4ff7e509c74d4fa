package org.dise.repl;

import org.dise.repl.common.ExitStatus;
import org.dise.repl.common.UserError;
import org.dise.repl.common.Version;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code acf} command: one entry point, every subcommand registered here. */
@Command(
    name = "acf",
    mixinStandardHelpOptions = true,
    versionProvider = Version.class,
    description = "DISE/HPS profiling productions: compile ACFs and run them on RISC-V programs.",
    subcommands = {
      CheckCommand.class,
      FmtCommand.class,
      CompileCommand.class,
      InspectCommand.class,
      RunCommand.class,
      BenchCommand.class,
      SweepCommand.class,
      DisasmCommand.class,
      ReportCommand.class,
      ViewCommand.class,
      CompareCommand.class,
      LspCommand.class,
      CenterCommand.class,
      UploadCommand.class,
      RemoteSimCommand.class,
      ExperimentCommand.class,
      TimingCommand.class,
      org.dise.repl.shell.ReplCommand.class,
      CompletionCommand.class,
      CommandLine.HelpCommand.class,
    })
public final class Main implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** Bare {@code acf}: the command list on stderr and the usage-error status, as for a typo. */
  @Override
  public void run() {
    spec.commandLine().usage(System.err);
    throw new UserError("no command given; see the list above", ExitStatus.USAGE);
  }

  public static CommandLine commandLine() {
    return configure(new CommandLine(new Main()));
  }

  /**
   * {@code acf run} alone: picocli reads the annotations of every subcommand when it builds the
   * whole command line, which costs a plain run about 0.1 s of start-up for nothing.
   */
  static CommandLine runCommandLine() {
    CommandLine cl = new CommandLine(new RunCommand());
    cl.setCommandName("acf run");
    return configure(cl);
  }

  private static CommandLine configure(CommandLine cl) {
    cl.setExitCodeExceptionMapper(t -> ExitStatus.USAGE);
    cl.setExecutionExceptionHandler(new ErrorHandler());
    cl.setParameterExceptionHandler(Main::usageError);
    // -v/-q on every command, read before the command runs (issue 32).
    org.dise.repl.common.VerbosityOptions.addTo(cl);
    cl.setExecutionStrategy(
        parsed -> {
          org.dise.repl.common.VerbosityOptions.apply(parsed);
          return new CommandLine.RunLast().execute(parsed);
        });
    // File names as the bytes typed, whatever the locale (HostArgs).
    cl.registerConverter(java.nio.file.Path.class, HostArgs::path);
    // Everything after the program name belongs to the guest.
    (cl.getCommand() instanceof RunCommand ? cl : cl.getSubcommands().get("run"))
        .setStopAtPositional(true);
    return cl;
  }

  /**
   * A usage error in a few lines: what is wrong, the command's synopsis, and where the full help
   * is. picocli's default printed the whole help after the message, which scrolled the message out
   * of sight (acf run's help is 80 lines).
   */
  private static int usageError(CommandLine.ParameterException e, String[] args) {
    CommandLine cl = e.getCommandLine();
    java.io.PrintWriter err = cl.getErr();
    err.println("acf: " + e.getMessage());
    CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
    err.print("Usage: " + cl.getHelp().synopsis("Usage: ".length()));
    String name = cl.getCommandSpec().qualifiedName();
    err.println("Run `" + name + " --help` for the options and examples.");
    err.flush();
    return ExitStatus.USAGE;
  }

  /**
   * Runs one command line and returns its exit status: a plain run, or {@code run} with the common
   * options ({@link RunLine}), without picocli; other {@code run} lines through the run command
   * alone, anything else through the whole command line.
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
      CommandLine cl = runCommandLine();
      ((RunCommand) cl.getCommand()).typed = java.util.List.of(args);
      return cl.execute(java.util.Arrays.copyOfRange(args, 1, args.length));
    }
    return commandLine().execute(args);
  }

  public static void main(String[] args) {
    int status;
    try {
      status = execute(args);
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
