package org.dise.repl;

import org.dise.repl.common.ExitStatus;
import picocli.CommandLine;

/**
 * The picocli command lines of {@link Main}. Apart from it because the JVM's launcher resolves
 * every type in the signatures of the main class's methods before it runs {@code main}: a method of
 * Main that took or returned a picocli type loaded picocli's {@code CommandLine} (half a megabyte
 * of Java 5 class file, which JDK 24+'s AOT cache cannot hold) on every run, plain runs included.
 */
public final class Cli {
  private Cli() {}

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
    cl.setParameterExceptionHandler(Cli::usageError);
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
}
