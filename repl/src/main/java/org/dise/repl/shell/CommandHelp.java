package org.dise.repl.shell;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The help of the REPL's commands (argument synopsis, the brief line of {@code :help}, the summary
 * and examples of {@code :help NAME}), written as text in {@code commands.md} beside this class
 * rather than in each command group's code, and read once.
 *
 * <p>The file is Markdown: a command is a {@code ## :NAME SYNOPSIS} heading, then a paragraph of
 * one line (the brief), a paragraph (the summary; its lines are joined by one space), and the
 * examples, one per line indented by four spaces (any further space is the example's).
 */
record CommandHelp(String synopsis, String brief, String summary, List<String> examples) {
  private static final String FILE = "commands.md";

  /** Every command's help by name, in the file's order. */
  static Map<String, CommandHelp> all() {
    return Table.ALL;
  }

  /** Read on first use, so a session that is never opened does not read it. */
  private static final class Table {
    static final Map<String, CommandHelp> ALL = read();
  }

  private static Map<String, CommandHelp> read() {
    try (InputStream in = CommandHelp.class.getResourceAsStream(FILE)) {
      if (in == null) {
        throw new IllegalStateException(FILE + " is missing from the build");
      }
      return parse(
          new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).lines().toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The commands of {@code lines} (a file in the format above); a malformed entry names its line.
   */
  static Map<String, CommandHelp> parse(List<String> lines) {
    Map<String, CommandHelp> help = new LinkedHashMap<>();
    int i = 0;
    while (i < lines.size() && !lines.get(i).startsWith("## :")) {
      i++; // the file's heading and introduction
    }
    while (i < lines.size()) {
      int at = i + 1;
      String head = lines.get(i++).substring("## :".length());
      int space = head.indexOf(' ');
      String name = space < 0 ? head : head.substring(0, space);
      String synopsis = space < 0 ? "" : head.substring(space + 1);
      List<List<String>> paragraphs = new ArrayList<>(List.of(new ArrayList<>()));
      List<String> examples = new ArrayList<>();
      for (; i < lines.size() && !lines.get(i).startsWith("## :"); i++) {
        String line = lines.get(i);
        if (line.startsWith("    ")) {
          examples.add(line.substring(4));
        } else if (line.isBlank()) {
          paragraphs.add(new ArrayList<>());
        } else if (!examples.isEmpty()) {
          throw malformed(i + 1, name, "text after the examples: " + line);
        } else {
          paragraphs.get(paragraphs.size() - 1).add(line);
        }
      }
      paragraphs.removeIf(List::isEmpty);
      if (paragraphs.size() != 2 || paragraphs.get(0).size() != 1 || examples.isEmpty()) {
        throw malformed(at, name, "not a brief line, a summary and examples");
      }
      CommandHelp h =
          new CommandHelp(
              synopsis,
              paragraphs.get(0).get(0),
              String.join(" ", paragraphs.get(1)),
              List.copyOf(examples));
      if (help.put(name, h) != null) {
        throw malformed(at, name, "a second entry for the command");
      }
    }
    return help;
  }

  private static IllegalStateException malformed(int line, String name, String why) {
    return new IllegalStateException(FILE + ":" + line + ": :" + name + ": " + why);
  }
}
