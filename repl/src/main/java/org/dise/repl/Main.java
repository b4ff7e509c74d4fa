package org.dise.repl;

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
      CompareCommand.class,
      org.dise.repl.shell.ReplCommand.class,
      CommandLine.HelpCommand.class,
    })
public final class Main implements Runnable {
  /** Exit status when the guest or a check failed. */
  public static final int EXIT_FAILURE = 1;
  /** Exit status for a usage error. */
  public static final int EXIT_USAGE = 2;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.err);
  }

  public static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new Main());
    cl.setExitCodeExceptionMapper(t -> EXIT_USAGE);
    cl.setExecutionExceptionHandler(new ErrorHandler());
    // Everything after the program name belongs to the guest.
    cl.getSubcommands().get("run").setStopAtPositional(true);
    return cl;
  }

  public static void main(String[] args) {
    int status = commandLine().execute(args);
    System.out.flush();
    System.exit(status);
  }
}
