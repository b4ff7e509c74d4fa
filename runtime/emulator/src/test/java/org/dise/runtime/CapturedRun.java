package org.dise.runtime;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/**
 * A guest program run in-process as the tests run one: stdin empty, stdout captured, stderr and our
 * notices captured together (as a terminal shows them), then the machine as the run left it.
 *
 * @param stdout the guest's standard output
 * @param stderr the guest's standard error and the notices, in the order written
 */
public record CapturedRun(String stdout, String stderr, Machine.Outcome outcome, Machine machine) {

  /**
   * Loads {@code program} with the options {@code options} makes from the notices stream (which
   * writes into {@link #stderr}; options may send the notices elsewhere) and runs it for at most
   * {@code maxInsns} instructions.
   */
  public static CapturedRun run(
      Path program,
      List<String> args,
      Function<PrintStream, Machine.Options> options,
      long maxInsns)
      throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream notices = new PrintStream(err, true, StandardCharsets.UTF_8);
    Machine m = Machine.load(program, args, options.apply(notices));
    m.kernel().setStdio(0, new ByteArrayInputStream(new byte[0]), null);
    m.kernel().setStdio(1, null, out);
    m.kernel().setStdio(2, null, err);
    Machine.Outcome o = m.run(maxInsns);
    return new CapturedRun(
        out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), o, m);
  }
}
