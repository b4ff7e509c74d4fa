package org.dise.repl.shell;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The REPL's commands by name: what each command group registers (name, argument synopsis, a brief
 * line for {@code :help}, the summary and examples of {@code :help NAME}, and the action), and the
 * dispatch of a {@code :NAME ARGS...} line to one of them.
 */
final class CommandTable {
  /** One REPL command. */
  record Command(
      String name,
      String synopsis,
      String brief,
      String summary,
      List<String> examples,
      Action action) {}

  /** What a command does with its arguments (words, quotes removed). */
  @FunctionalInterface
  interface Action {
    void run(List<String> args);
  }

  private final Map<String, Command> commands = new LinkedHashMap<>();

  void add(
      String name,
      String synopsis,
      String brief,
      String summary,
      List<String> examples,
      Action action) {
    if (commands.put(name, new Command(name, synopsis, brief, summary, examples, action)) != null) {
      throw new IllegalStateException("command :" + name + " registered twice");
    }
  }

  /** The commands in registration order. */
  List<Command> all() {
    return List.copyOf(commands.values());
  }

  Command get(String name) {
    return commands.get(name.toLowerCase(Locale.ROOT));
  }

  /** Runs {@code :TEXT}: the command named by its first word, with the other words. */
  void run(String text) {
    List<String> words = Args.split(text);
    if (words.isEmpty()) {
      throw new ReplError("a command name must follow ':' (try :help)");
    }
    String name = words.get(0).toLowerCase(Locale.ROOT);
    Command c = commands.get(name);
    if (c == null) {
      List<String> near = new ArrayList<>();
      for (String n : commands.keySet()) {
        if (n.startsWith(name) || name.startsWith(n)) {
          near.add(":" + n);
        }
      }
      throw new ReplError(
          "unknown command :"
              + name
              + (near.isEmpty() ? "" : " (did you mean " + String.join(" or ", near) + "?)")
              + "; :help lists the commands");
    }
    c.action().run(words.subList(1, words.size()));
  }
}
