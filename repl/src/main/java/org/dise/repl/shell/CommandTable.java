package org.dise.repl.shell;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The REPL's commands by name: what each command group registers (name and action, with the help
 * that {@link CommandHelp} reads for the name), and the dispatch of a {@code :NAME ARGS...} line to
 * one of them.
 */
final class CommandTable {
  /** One REPL command. */
  record Command(String name, CommandHelp help, Action action) {}

  /** What a command does with its arguments (words, quotes removed). */
  @FunctionalInterface
  interface Action {
    void run(List<String> args);
  }

  private final Map<String, Command> commands = new LinkedHashMap<>();

  /** Registers command {@code :name}, whose help {@code commands.md} must have. */
  void add(String name, Action action) {
    CommandHelp help = CommandHelp.all().get(name);
    if (help == null) {
      throw new IllegalStateException("command :" + name + " has no help in commands.md");
    }
    if (commands.put(name, new Command(name, help, action)) != null) {
      throw new IllegalStateException("command :" + name + " registered twice");
    }
  }

  /** Registers command {@code :name}, which takes no arguments. */
  void addNoArgs(String name, Runnable action) {
    add(
        name,
        a -> {
          Args.none(a, name);
          action.run();
        });
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
