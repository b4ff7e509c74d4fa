package org.dise.repl;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.dise.center.Spool;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code acf upload}: sends the spooled profile parts to the center, each once. */
@Command(
    name = "upload",
    mixinStandardHelpOptions = true,
    description =
        "Send the profile parts waiting in the spool (runs whose center was down or"
            + " slow) to the optimization center, each once; delivered parts leave the spool.",
    footer = {
      "",
      "Exit status 0 when the spool is empty afterwards, 1 otherwise.",
      "",
      "Examples:",
      "  ./acf upload --report-to http://127.0.0.1:8470 --token acf_...",
      "  ./acf upload --report-to http://127.0.0.1:8470 --token acf_... \\",
      "      --spool /var/spool/acf"
    })
public final class UploadCommand implements Callable<Integer> {
  @Option(names = "--report-to", required = true, paramLabel = "URL", description = "The center.")
  String url;

  @Option(
      names = "--token",
      paramLabel = "T",
      description = "The device's token (not needed by a center started with --no-auth).")
  String token;

  @Option(names = "--spool", paramLabel = "DIR", description = "The spool (default ~/.acf/spool).")
  Path spool;

  @Override
  public Integer call() {
    Spool s = new Spool(spool != null ? spool : Spool.defaultDir());
    Spool.Drained d;
    try {
      d = s.drain(CenterCommand.client(url), token, System.err);
    } catch (IOException e) {
      throw new UserError(s.dir() + ": " + UserError.why(e));
    }
    System.err.printf(
        "acf: %d part(s) stored, %d already held, %d refused, %d left in %s%n",
        d.stored(), d.held(), d.refused(), d.left(), s.dir());
    if (d.problem() != null) {
      throw new UserError(d.problem());
    }
    return d.refused() > 0 ? ExitStatus.FAILURE : 0;
  }
}
