package org.dise.repl;

import java.util.ArrayList;
import java.util.List;

/**
 * A doc-tested block of a Markdown file (docs/README.md, "Docs that cannot drift"): a line {@code
 * <!-- doctest -->} (options after a colon: {@code stdout}, {@code stderr}, {@code status=N},
 * {@code process}) right before a {@code ```console} fence, whose {@code $ } lines are {@code acf}
 * commands (continued by a trailing backslash) and whose other lines are what each prints.
 *
 * @param marker the marker's line index in the file (0-based)
 * @param open the fence's opening line index
 * @param close the closing fence's line index
 */
record DocBlock(int marker, int open, int close, Options options, List<Command> commands) {

  /**
   * The marker's options. {@code streams}: "stdout", "stderr" or both, in that order; {@code
   * process}: run each command as a fresh {@code java} process whose working directory is the root,
   * for commands that read paths relative to it (a handler's source file), instead of in-process;
   * {@code needs}: tools ({@code needs=riscv64-linux-gnu-gcc}) without which the block is skipped,
   * saying why.
   */
  record Options(List<String> streams, int status, boolean process, List<String> needs) {}

  /** One command: its text without {@code $ }, and the output lines the doc shows under it. */
  record Command(String text, List<String> commandLines, List<String> output) {}

  static final String MARKER = "<!-- doctest";

  /** Every marked block of a file's lines; a marker not followed by a console fence is an error. */
  static List<DocBlock> parse(String file, List<String> lines) {
    List<DocBlock> blocks = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      // At the start of its line: an indented one is an example in a code block, not a marker.
      String line = lines.get(i).stripTrailing();
      if (!line.startsWith(MARKER)) {
        continue;
      }
      if (!line.endsWith("-->")) {
        throw new IllegalArgumentException(file + ":" + (i + 1) + ": doctest marker without -->");
      }
      Options options = options(file, i, line.substring(MARKER.length(), line.length() - 3));
      int open = i + 1;
      if (open >= lines.size() || !lines.get(open).stripTrailing().equals("```console")) {
        throw new IllegalArgumentException(
            file + ":" + (open + 1) + ": a doctest marker must be followed by ```console");
      }
      int close = open + 1;
      while (close < lines.size() && !lines.get(close).stripTrailing().equals("```")) {
        close++;
      }
      if (close == lines.size()) {
        throw new IllegalArgumentException(file + ":" + (open + 1) + ": unclosed ```console");
      }
      blocks.add(
          new DocBlock(
              i, open, close, options, commands(file, lines.subList(open + 1, close), open)));
      i = close;
    }
    return blocks;
  }

  private static Options options(String file, int at, String text) {
    String t = text.strip();
    if (t.startsWith(":")) {
      t = t.substring(1).strip();
    }
    List<String> streams = new ArrayList<>();
    int status = 0;
    boolean process = false;
    List<String> needs = new ArrayList<>();
    for (String o : t.isEmpty() ? new String[0] : t.split("\\s+")) {
      if (o.equals("stdout") || o.equals("stderr")) {
        streams.add(o);
      } else if (o.equals("process")) {
        process = true;
      } else if (o.startsWith("needs=")) {
        needs.addAll(List.of(o.substring("needs=".length()).split(",")));
      } else if (o.startsWith("status=")) {
        status = Integer.parseInt(o.substring("status=".length()));
      } else {
        throw new IllegalArgumentException(
            file + ":" + (at + 1) + ": unknown doctest option '" + o + "'");
      }
    }
    if (streams.isEmpty()) {
      streams = List.of("stdout", "stderr");
    }
    return new Options(List.copyOf(streams), status, process, List.copyOf(needs));
  }

  private static List<Command> commands(String file, List<String> body, int open) {
    List<Command> commands = new ArrayList<>();
    int k = 0;
    if (body.isEmpty() || !body.get(0).startsWith("$ ")) {
      throw new IllegalArgumentException(
          file + ":" + (open + 2) + ": a doctest block starts with a '$ ' command");
    }
    while (k < body.size()) {
      List<String> raw = new ArrayList<>();
      StringBuilder text = new StringBuilder();
      String l = body.get(k++);
      raw.add(l);
      String part = l.substring(2);
      while (part.endsWith("\\") && k < body.size()) {
        text.append(part, 0, part.length() - 1).append(' ');
        l = body.get(k++);
        raw.add(l);
        part = l.strip();
      }
      text.append(part);
      List<String> output = new ArrayList<>();
      while (k < body.size() && !body.get(k).startsWith("$ ")) {
        output.add(body.get(k++));
      }
      commands.add(new Command(text.toString().strip(), List.copyOf(raw), output));
    }
    return commands;
  }

  /**
   * The words of a command line as a POSIX shell splits them: blanks separate, single and double
   * quotes and backslashes quote, an unquoted {@code #} starting a word begins a comment.
   */
  static List<String> words(String line) {
    List<String> words = new ArrayList<>();
    StringBuilder w = null;
    char quote = 0;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else if (c == '\\' && quote == '"' && i + 1 < line.length()) {
          w.append(line.charAt(++i));
        } else {
          w.append(c);
        }
      } else if (Character.isWhitespace(c)) {
        if (w != null) {
          words.add(w.toString());
          w = null;
        }
      } else if (c == '#' && w == null) {
        break;
      } else {
        if (w == null) {
          w = new StringBuilder();
        }
        if (c == '\'' || c == '"') {
          quote = c;
        } else if (c == '\\' && i + 1 < line.length()) {
          w.append(line.charAt(++i));
        } else {
          w.append(c);
        }
      }
    }
    if (quote != 0) {
      throw new IllegalArgumentException("unclosed quote in: " + line);
    }
    if (w != null) {
      words.add(w.toString());
    }
    return words;
  }
}
