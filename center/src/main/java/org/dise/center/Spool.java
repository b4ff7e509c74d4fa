package org.dise.center;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;

/**
 * The device's spool: upload parts the center did not take (down, slow, failing), one gzip file
 * each, written whole or not at all (written aside, then renamed). Draining sends each once and
 * deletes it when the center stored or already held it; parts the center refuses for what they are
 * move to {@code rejected/} with the reason beside them.
 */
public final class Spool {
  /** The default spool directory, {@code ~/.acf/spool}. */
  public static Path defaultDir() {
    return Path.of(System.getProperty("user.home"), ".acf", "spool");
  }

  private final Path dir;

  public Spool(Path dir) {
    this.dir = dir;
  }

  public Path dir() {
    return dir;
  }

  /** Keeps one part as {@code NAME.json.gz}. */
  public Path put(String name, byte[] gzipped) throws IOException {
    Files.createDirectories(dir);
    Path tmp = Files.createTempFile(dir, ".incoming-", ".tmp");
    Files.write(tmp, gzipped);
    Path target = dir.resolve(name + ".json.gz");
    try {
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
    }
    return target;
  }

  /** The parts waiting, oldest name first. */
  public List<Path> waiting() throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(".json.gz")).sorted().toList();
    }
  }

  /** What a drain did: parts stored now, already held, refused, and still waiting. */
  public record Drained(int stored, int held, int refused, int left, String problem) {
    public boolean complete() {
      return left == 0 && problem == null;
    }
  }

  /**
   * Sends every waiting part once, stopping at the first the center cannot take now (it is down, or
   * the token is refused); {@code log} hears of refused parts.
   */
  public Drained drain(CenterClient center, String token, PrintStream log) throws IOException {
    List<Path> parts = waiting();
    int stored = 0;
    int held = 0;
    int refused = 0;
    for (int i = 0; i < parts.size(); i++) {
      Path p = parts.get(i);
      CenterClient.Sent s = center.upload(Files.readAllBytes(p), token);
      switch (s.outcome()) {
        case STORED -> stored++;
        case HELD -> held++;
        case REFUSED -> {
          refused++;
          Path rejected = dir.resolve("rejected");
          Files.createDirectories(rejected);
          Files.writeString(
              rejected.resolve(p.getFileName() + ".why"), s.status() + ": " + s.message() + "\n");
          Files.move(p, rejected.resolve(p.getFileName()), StandardCopyOption.REPLACE_EXISTING);
          log.println(
              "acf: "
                  + p
                  + ": refused by the center ("
                  + s.status()
                  + ": "
                  + s.message()
                  + "); moved to "
                  + rejected);
          continue;
        }
        default -> {
          String why =
              s.outcome() == CenterClient.Outcome.UNAUTHORIZED
                  ? "the center refused the token (" + s.status() + ": " + s.message() + ")"
                  : "the center cannot be reached (" + s.message() + ")";
          return new Drained(stored, held, refused, parts.size() - i, why);
        }
      }
      Files.deleteIfExists(p);
    }
    return new Drained(stored, held, refused, 0, null);
  }
}
