package org.dise.repl;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code acf run PROGRAM [ARGS...]} with no option: the run picocli would set up, without building
 * picocli's model of the run command. That model is read from the annotations of about forty
 * options by reflection (annotation proxies spun at run time, generic types resolved), which cost a
 * plain run more than the guest's own start-up (docs/benchmarks.md, issue 14). Anything else, an
 * option, {@code --help} or an {@code @file}, goes through picocli as before.
 */
final class PlainRun {
  private PlainRun() {}

  /**
   * Whether {@code args} (the whole command line) is {@code run} and a program with no option:
   * picocli stops at the first positional parameter of {@code run}, so everything after the program
   * belongs to the guest.
   */
  static boolean applies(String[] args) {
    return args.length >= 2
        && args[0].equals("run")
        && !args[1].isEmpty()
        && !args[1].startsWith("-")
        && !args[1].startsWith("@");
  }

  /** Runs it with {@link RunCommand}'s defaults; errors are reported as picocli reports them. */
  static int execute(String[] args) {
    RunCommand run = new RunCommand();
    run.program = HostArgs.path(args[1]);
    run.args = new ArrayList<>(Arrays.asList(args).subList(2, args.length));
    run.typed = List.of(args);
    return execute(run);
  }

  /** Runs a run command set up without picocli; errors are reported as picocli reports them. */
  static int execute(RunCommand run) {
    try {
      return run.call();
    } catch (Exception e) {
      return new ErrorHandler().handleExecutionException(e, null, null);
    }
  }
}
