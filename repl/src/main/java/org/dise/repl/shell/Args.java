package org.dise.repl.shell;

import java.util.ArrayList;
import java.util.List;
import org.dise.runtime.isa.Registers;

/** The REPL's argument syntax: words with quotes, numbers, and commands without arguments. */
final class Args {
  private Args() {}

  /** Refuses arguments for a command that takes none. */
  static void none(List<String> args, String name) {
    if (!args.isEmpty()) {
      throw new ReplError(":" + name + " takes no arguments");
    }
  }

  /** A number: decimal, or hexadecimal after 0x; underscores separate digits. */
  static long number(String s) {
    try {
      if (s.startsWith("0x") || s.startsWith("0X")) {
        return Long.parseUnsignedLong(s.substring(2).replace("_", ""), 16);
      }
      return Long.parseLong(s.replace("_", ""));
    } catch (NumberFormatException e) {
      throw new ReplError("not a number: " + s);
    }
  }

  /**
   * An integer register's number by its ABI or x name; {@code hint} follows an unknown one in the
   * error, telling how the command writes registers.
   */
  static int register(String name, String hint) {
    int r;
    try {
      r = Registers.xByName(name);
    } catch (RuntimeException e) {
      r = -1;
    }
    if (r < 0 || r >= 32) {
      throw new ReplError("no register named " + name + " (" + hint + ")");
    }
    return r;
  }

  /** Words separated by spaces; double or single quotes group words. */
  static List<String> split(String s) {
    List<String> words = new ArrayList<>();
    StringBuilder w = new StringBuilder();
    boolean inWord = false;
    char quote = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else {
          w.append(c);
        }
      } else if (c == '"' || c == '\'') {
        quote = c;
        inWord = true;
      } else if (Character.isWhitespace(c)) {
        if (inWord) {
          words.add(w.toString());
          w.setLength(0);
          inWord = false;
        }
      } else {
        w.append(c);
        inWord = true;
      }
    }
    if (quote != 0) {
      throw new ReplError("unterminated quote");
    }
    if (inWord) {
      words.add(w.toString());
    }
    return words;
  }
}
