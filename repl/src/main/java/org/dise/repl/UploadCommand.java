package org.dise.repl;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.dise.center.Spool;
import org.dise.repl.common.ExitStatus;
import org.dise.repl.common.UserError;
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
      "Exit status 0 when every waiting part was delivered (or none waited), 1 when",
      "a part was refused (it moves to DIR/rejected/ with the reason), the token was",
      "refused or the center could not be reached (the parts stay in the spool), 2",
      "when --spool is not a directory.",
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

  @Option(
      names = "--spool",
      paramLabel = "DIR",
      description = "The spool (default $XDG_STATE_HOME/acf/spool, else ~/.local/state/acf/spool).")
  Path spool;

  @Override
  public Integer call() {
    Spool s = new Spool(spool != null ? spool : Spool.defaultDir());
    if (java.nio.file.Files.exists(s.dir()) && !java.nio.file.Files.isDirectory(s.dir())) {
      throw new UserError("--spool " + s.dir() + ": not a directory", ExitStatus.USAGE);
    }
    if (spool != null && !java.nio.file.Files.exists(s.dir())) {
      throw new UserError("--spool " + s.dir() + ": no such directory");
    }
    Path old = Path.of(System.getProperty("user.home"), ".acf", "spool");
    if (spool == null && java.nio.file.Files.isDirectory(old)) {
      System.err.println(
          "acf: note: parts may wait in the spool of earlier versions, "
              + old
              + "; --spool "
              + old
              + " sends them");
    }
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
      throw new UserError(
          d.problem() + "; " + d.left() + " part(s) kept in " + s.dir() + " for a later try");
    }
    if (d.refused() > 0) {
      System.err.println(
          "acf: "
              + d.refused()
              + " part(s) refused for good; they and the reasons are in "
              + s.dir().resolve("rejected"));
    }
    return d.refused() > 0 ? ExitStatus.FAILURE : 0;
  }
}
