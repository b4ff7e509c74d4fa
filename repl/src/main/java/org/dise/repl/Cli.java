package org.dise.repl;

import java.util.LinkedHashMap;
import java.util.Map;
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

  /**
   * The subcommands, in the order {@code acf --help} lists them, by the name each one's
   * {@code @Command} gives it (CommandLineTest checks that the two agree). picocli reads the
   * annotations of every subcommand it is given, about 0.3 s of a fresh JVM's interpreter for all
   * of them, so a command line that names one is built with that one alone ({@link
   * #commandLine(String)}). {@code help} and {@code completion} need them all and are not here.
   */
  static final Map<String, Class<?>> COMMANDS = commands();

  private static Map<String, Class<?>> commands() {
    Map<String, Class<?>> m = new LinkedHashMap<>();
    m.put("check", CheckCommand.class);
    m.put("fmt", FmtCommand.class);
    m.put("compile", CompileCommand.class);
    m.put("inspect", InspectCommand.class);
    m.put("run", RunCommand.class);
    m.put("bench", BenchCommand.class);
    m.put("sweep", SweepCommand.class);
    m.put("disasm", DisasmCommand.class);
    m.put("report", ReportCommand.class);
    m.put("view", ViewCommand.class);
    m.put("compare", CompareCommand.class);
    m.put("lsp", LspCommand.class);
    m.put("center", CenterCommand.class);
    m.put("upload", UploadCommand.class);
    m.put("remote-sim", RemoteSimCommand.class);
    m.put("experiment", ExperimentCommand.class);
    m.put("timing", TimingCommand.class);
    m.put("repl", org.dise.repl.shell.ReplCommand.class);
    return m;
  }

  /** {@code acf} with every subcommand: help, completion, typos' suggestions, man pages. */
  public static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new Main());
    for (Map.Entry<String, Class<?>> e : COMMANDS.entrySet()) {
      cl.addSubcommand(e.getKey(), e.getValue());
    }
    cl.addSubcommand("completion", CompletionCommand.class);
    cl.addSubcommand("help", CommandLine.HelpCommand.class);
    return configure(cl);
  }

  /**
   * {@code acf} with the one subcommand {@code name} (a key of {@link #COMMANDS}): the same help,
   * usage errors and behaviour for that command as under {@link #commandLine()}. With null, {@code
   * acf} alone, which is all {@code acf --version} needs.
   */
  static CommandLine commandLine(String name) {
    CommandLine cl = new CommandLine(new Main());
    if (name != null) {
      cl.addSubcommand(name, COMMANDS.get(name));
    }
    return configure(cl);
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
    CommandLine run = cl.getCommand() instanceof RunCommand ? cl : cl.getSubcommands().get("run");
    if (run != null) {
      run.setStopAtPositional(true);
    }
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
