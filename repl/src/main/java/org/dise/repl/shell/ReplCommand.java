package org.dise.repl.shell;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.dise.repl.common.ExitStatus;
import org.dise.repl.common.GuestSettings;
import org.dise.repl.common.RunGuest;
import org.dise.repl.common.UserError;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.reader.impl.DefaultParser;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code acf repl}: the interactive REPL (JLine: editing, completion, history, Ctrl-C), or, with
 * {@code --script} or input that is not a terminal, the same session printed as a transcript.
 */
@Command(
    name = "repl",
    description = {
      "Explore interactively: type productions (compiled as you go, with acf check's"
          + " diagnostics), load ACF files, load a program, run, step, break, and inspect"
          + " registers, memory, the tables, the HPS counters and the profiles. :help lists"
          + " the commands.",
      "",
      "With --script FILE, or when stdin is not a terminal, the commands are read from the"
          + " file or stdin and the output is the transcript an interactive session would show"
          + " (prompt, the line, its output); the exit status is 1 if any command reported an"
          + " error, else 0.",
    },
    footer = {
      "",
      "Examples:",
      "  ./acf repl",
      "  ./acf repl --allow-read /data --env LANG=C --limit nofile=64",
      "  ./acf repl --script session.script > session.transcript",
      "  printf ':program examples/programs/bin/hello\\n:run\\n' | ./acf repl",
      "",
      "In a session:",
      "  acf> :load examples/acf/hot_call_pairs.acf",
      "  acf> :program examples/programs/bin/jpeg",
      "  acf> :break main",
      "  acf> :run",
      "  acf> :counters",
      "  acf> :profile",
      "",
      "History is kept in ~/.acf_history (or $ACF_HISTORY). Ctrl-C stops a running",
      "program and returns to the prompt; Ctrl-D or :quit leaves.",
    },
    mixinStandardHelpOptions = true)
public final class ReplCommand implements Callable<Integer> {
  @Option(
      names = "--script",
      paramLabel = "FILE",
      description = "Run the commands of FILE and print the transcript.")
  Path script;

  @Option(
      names = "--history",
      paramLabel = "FILE",
      description = "The history file (default: $ACF_HISTORY, else ~/.acf_history).")
  Path history;

  /**
   * --sysroot, --allow-read, --allow-write, as acf run takes them (:allow read|write DIR later).
   */
  @picocli.CommandLine.Mixin
  org.dise.repl.common.GuestFileOptions files = new org.dise.repl.common.GuestFileOptions();

  @Option(
      names = "--limit",
      paramLabel = "NAME=VALUE",
      description = "A guest resource limit, as acf run --limit (repeatable; :limit).")
  java.util.List<String> limits = new java.util.ArrayList<>();

  @Option(
      names = "--env",
      paramLabel = "NAME=VALUE",
      description =
          "A variable in the guest's environment, as acf run --env (repeatable;"
              + " :env NAME=VALUE).")
  java.util.List<String> env = new java.util.ArrayList<>();

  @Option(
      names = "--on-unsupported",
      paramLabel = "fail|enosys|warn",
      description =
          "What a system call acf does not implement does, as acf run --on-unsupported"
              + " (default: ${DEFAULT-VALUE}).")
  String onUnsupported = "fail";

  @Override
  public Integer call() throws IOException {
    ReplSession session = new ReplSession(Path.of(""));
    // The guest's settings as acf run takes them and checks them (RunGuest), into the session's
    // GuestSettings, which :env, :allow and :limit go on changing.
    RunGuest.of(GuestSettings.DEFAULT_SEED, files, limits, env, onUnsupported)
        .applyTo(session.guest(), Path::toAbsolutePath);
    if (script != null) {
      if (!Files.isRegularFile(script)) {
        throw new UserError("--script " + script + ": no such file", ExitStatus.USAGE);
      }
      try (BufferedReader in = Files.newBufferedReader(script, StandardCharsets.UTF_8)) {
        return transcript(session, in, System.out);
      }
    }
    if (System.console() == null) {
      BufferedReader in =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      return transcript(session, in, System.out);
    }
    return interactive(session);
  }

  /** Runs lines from {@code in}, printing prompt, line and output as a terminal would show. */
  static int transcript(ReplSession session, BufferedReader in, PrintStream out)
      throws IOException {
    String line;
    while (!session.quitting() && (line = in.readLine()) != null) {
      out.print(session.prompt() + line + "\n");
      out.print(session.execute(line));
      out.flush();
    }
    out.print(session.cancelPending());
    out.flush();
    return session.errors() > 0 ? ExitStatus.FAILURE : 0;
  }

  /** $VISUAL, else $EDITOR, for :edit; null when neither is set. */
  static String editorCommand() {
    for (String name : java.util.List.of("VISUAL", "EDITOR")) {
      String v = System.getenv(name);
      if (v != null && !v.isBlank()) {
        return v;
      }
    }
    return null;
  }

  private int interactive(ReplSession session) throws IOException {
    Path file = history;
    if (file == null) {
      String env = org.dise.repl.common.Settings.get("ACF_HISTORY");
      file =
          env != null && !env.isEmpty()
              ? Path.of(env)
              : Path.of(System.getProperty("user.home"), ".acf_history");
    }
    try (Terminal terminal = TerminalBuilder.builder().system(true).build()) {
      DefaultParser parser = new DefaultParser();
      parser.setEscapeChars(null); // a backslash is part of what was typed
      LineReader reader =
          LineReaderBuilder.builder()
              .terminal(terminal)
              .appName("acf")
              .parser(parser)
              .completer(new ReplCompleter(session))
              .highlighter(new AcfHighlighter())
              .variable(LineReader.HISTORY_FILE, file)
              .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true) // '!' is an ACF operator
              .build();
      // Outside readLine, Ctrl-C reaches this handler: it stops a running guest.
      terminal.handle(Terminal.Signal.INT, signal -> session.interrupt());
      session.colour(
          org.dise.repl.common.Tty.colour(1) && !Terminal.TYPE_DUMB.equals(terminal.getType()));
      PrintWriter w = terminal.writer();
      w.println(
          "acf REPL: type productions or :help; Ctrl-C stops a running program, Ctrl-D"
              + " leaves.");
      w.flush();
      session.editor(editorCommand());
      while (!session.quitting()) {
        String line;
        try {
          // After `:edit LABEL` without $EDITOR the item is the next line's text to edit.
          String edit = session.takeEditBuffer();
          line =
              edit == null
                  ? reader.readLine(session.prompt())
                  : reader.readLine(
                      session.prompt(), null, (org.jline.reader.MaskingCallback) null, edit);
        } catch (UserInterruptException e) {
          w.print(session.cancelPending());
          w.flush();
          continue;
        } catch (EndOfFileException e) {
          break;
        }
        w.print(session.execute(line));
        w.flush();
      }
      try {
        reader.getHistory().save();
      } catch (IOException e) {
        w.println("acf: cannot save the history to " + file + ": " + e.getMessage());
      }
      w.flush();
    }
    return 0;
  }
}
