package org.dise.center;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;

/**
 * The device's spool: upload parts the center did not take (down, slow, failing), one gzip file
 * each, readable by its owner alone, written whole or not at all (written aside, then renamed).
 * Draining takes each part's own lock, so that processes sharing a spool each deliver what they can
 * and skip what another is sending; a part is read back and checked as the center would before it
 * is sent, and deleted once the center stored or already held it. Parts refused for what they are,
 * here or by the center, move to {@code rejected/} with the reason beside them.
 */
public final class Spool {
  /**
   * The default spool directory: {@code $XDG_STATE_HOME/acf/spool}, else {@code
   * ~/.local/state/acf/spool} — the user's state, outside any working directory a guest runs in.
   */
  public static Path defaultDir() {
    String state = System.getenv("XDG_STATE_HOME");
    Path base =
        state != null && !state.isBlank() && Path.of(state).isAbsolute()
            ? Path.of(state)
            : Path.of(System.getProperty("user.home"), ".local", "state");
    return base.resolve("acf").resolve("spool");
  }

  /** The largest part file read back: the center's default compressed limit. */
  static final long MAX_PART = 8L << 20;

  private final Path dir;

  public Spool(Path dir) {
    this.dir = dir;
  }

  public Path dir() {
    return dir;
  }

  private void create() throws IOException {
    if (!Files.isDirectory(dir)) {
      try {
        Files.createDirectories(
            dir,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      } catch (UnsupportedOperationException e) {
        Files.createDirectories(dir);
      }
    }
  }

  /** Keeps one part as {@code NAME.json.gz}, mode 0600. */
  public Path put(String name, byte[] gzipped) throws IOException {
    create();
    // createTempFile makes the file 0600 on POSIX systems.
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

  /**
   * What a drain did: parts stored now, already held, refused (by the center or here), left waiting
   * when it stopped early, and why it stopped.
   */
  public record Drained(int stored, int held, int refused, int left, String problem) {
    public boolean complete() {
      return left == 0 && problem == null;
    }
  }

  /**
   * Sends every waiting part once, stopping at the first the center cannot take now (it is down, or
   * the token is refused); {@code log} hears of refused parts. A part another process is sending is
   * left to it.
   */
  public Drained drain(CenterClient center, String token, PrintStream log) throws IOException {
    List<Path> parts = waiting();
    int stored = 0;
    int held = 0;
    int refused = 0;
    for (int i = 0; i < parts.size(); i++) {
      Path p = parts.get(i);
      FileChannel ch;
      try {
        ch =
            FileChannel.open(
                p, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
      } catch (NoSuchFileException e) {
        continue; // delivered by another process since the listing
      } catch (IOException e) {
        if (!Files.isSymbolicLink(p)) {
          throw e;
        }
        refused++;
        reject(p, "a symbolic link, not a part acf wrote", log);
        continue;
      }
      try (ch) {
        FileLock lock;
        try {
          lock = ch.tryLock();
        } catch (OverlappingFileLockException e) {
          lock = null;
        }
        if (lock == null || !Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
          continue; // another process is sending it, or has just delivered it
        }
        byte[] gz;
        String bad = null;
        if (ch.size() > MAX_PART) {
          gz = null;
          bad = "over " + MAX_PART + " bytes";
        } else {
          InputStream in = Channels.newInputStream(ch);
          gz = in.readNBytes((int) ch.size());
          try {
            UploadCodec.read(gz, CenterServer.Limits.defaults().maxUncompressedBytes());
          } catch (UploadException e) {
            bad = e.status() + ": " + e.getMessage();
          }
        }
        if (bad != null) {
          // Checked here as the center would: a damaged or crafted part never reaches it.
          refused++;
          reject(p, "not a valid part (" + bad + ")", log);
          continue;
        }
        CenterClient.Sent s = center.upload(gz, token);
        switch (s.outcome()) {
          case STORED -> stored++;
          case HELD -> held++;
          case REFUSED -> {
            refused++;
            reject(p, "refused by the center (" + s.status() + ": " + s.message() + ")", log);
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
    }
    return new Drained(stored, held, refused, 0, null);
  }

  /** Keeps a part the center refused as {@code rejected/NAME.json.gz}, the reason beside it. */
  public Path reject(String name, byte[] gzipped, String why) throws IOException {
    Path p = put(name, gzipped);
    reject(p, why, new PrintStream(java.io.OutputStream.nullOutputStream()));
    return dir.resolve("rejected").resolve(p.getFileName());
  }

  /** Moves a part to {@code rejected/} with the reason in {@code NAME.why}. */
  private void reject(Path p, String why, PrintStream log) throws IOException {
    Path rejected = dir.resolve("rejected");
    Files.createDirectories(rejected);
    Files.writeString(rejected.resolve(p.getFileName() + ".why"), why + "\n");
    Files.move(p, rejected.resolve(p.getFileName()), StandardCopyOption.REPLACE_EXISTING);
    log.println("acf: " + p + ": " + why + "; moved to " + rejected);
  }
}
