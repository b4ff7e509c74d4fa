package org.dise.repl;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The launcher's training run for JDK 24+'s ahead-of-time cache (JEPs 483 and 515): several {@code
 * acf} command lines, separated by {@code --}, run one after another in one JVM. That cache is made
 * from a single recording process, so the runs the class-data archive learns from in four processes
 * on JDK 17 (a plain run, a dynamically linked one, a run under ACFs compiled and then read back
 * from the cache, {@code run --help}) run here in one. Each line's status and failures are ignored:
 * training only needs the classes and profiles the line loads.
 *
 * <p>Usage: {@code java -cp acf.jar org.dise.repl.Training run A -- run --acf X.acf A -- ...}.
 */
public final class Training {
  private Training() {}

  /** The command lines of {@code args}, split at each {@code --}. */
  static List<String[]> lines(String[] args) {
    List<String[]> out = new ArrayList<>();
    int start = 0;
    for (int i = 0; i <= args.length; i++) {
      if (i == args.length || args[i].equals("--")) {
        if (i > start) {
          out.add(Arrays.copyOfRange(args, start, i));
        }
        start = i + 1;
      }
    }
    return out;
  }

  public static void main(String[] args) {
    for (String[] line : lines(args)) {
      try {
        Main.execute(line);
      } catch (RuntimeException | Error e) {
        System.err.println("acf: training line failed: " + e);
      }
    }
    System.out.flush();
    System.exit(0);
  }
}
