package org.dise.center;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * Days of uploads against a store at a compressed clock, with retention run as {@code acf center
 * serve --retain} runs it: the store's clock advances by an equal step before each upload so that
 * {@code days} pass over the run, and a retention pass drops the parts older than {@code retain}
 * once per simulated {@code gcEvery}. After each simulated day the store's size is recorded, so
 * that a user sees it plateau with retention and grow without it (issue 30). The uploads are {@link
 * LoadTest}'s synthetic parts (a profile of {@code rows} rows and four phases each), not program
 * runs: a week of real runs would take hours, and the store sees the same rows either way.
 */
public final class RetentionSimulation {
  /** What a simulation runs; {@code retain} null: no retention. */
  public record Settings(
      int days, int devices, int uploadsPerDay, int rows, Duration retain, Duration gcEvery) {
    public Settings {
      if (days < 1 || devices < 1 || uploadsPerDay < 1 || rows < 1) {
        throw new IllegalArgumentException(
            "days, devices, uploads per day and rows must be at least 1");
      }
      if (gcEvery == null || gcEvery.isZero() || gcEvery.isNegative()) {
        throw new IllegalArgumentException("the retention interval must be positive");
      }
    }
  }

  /**
   * The store after simulated day {@code day} (1-based): its upload parts and profile rows, the
   * bytes of the parts it holds (as received), and the parts retention dropped that day.
   */
  public record Day(int day, long parts, long profileRows, long bytes, long dropped) {}

  /** The simulated time the run starts at: a fixed instant, so that runs compare. */
  static final long START_MS = 1_700_000_000_000L;

  private RetentionSimulation() {}

  /**
   * Runs the settings' days of uploads on {@code store} (whose clock it takes over) and returns a
   * row per day; {@code progress} hears each row as it is made (or is null).
   */
  public static List<Day> run(Store store, Settings s, Consumer<Day> progress)
      throws StoreException, UploadException {
    long dayMs = Duration.ofDays(1).toMillis();
    long step = dayMs / s.uploadsPerDay();
    long[] now = {START_MS};
    store.clock(() -> now[0]);
    long gcEvery = s.gcEvery().toMillis();
    long nextGc = START_MS + gcEvery;
    SplittableRandom random = new SplittableRandom(0x7e7a1);
    List<Day> days = new ArrayList<>();
    for (int d = 1; d <= s.days(); d++) {
      long dropped = 0;
      for (int i = 0; i < s.uploadsPerDay(); i++) {
        now[0] += step;
        // As the server's scheduled pass would have: every interval that passed since the last.
        while (s.retain() != null && now[0] >= nextGc) {
          dropped += store.gc(nextGc - s.retain().toMillis()).parts();
          nextGc += gcEvery;
        }
        String device = "device" + (random.nextInt(s.devices()) + 1);
        Upload u = LoadTest.part(device, 0, s.rows(), random.split());
        store.ingest(u, UploadCodec.gzip(UploadCodec.json(u)).length, 25);
      }
      Day day = size(store, d, dropped);
      days.add(day);
      if (progress != null) {
        progress.accept(day);
      }
    }
    return days;
  }

  /** The store's size now: parts, profile rows and bytes are plain counts, cheap on both stores. */
  static Day size(Store store, int day, long dropped) throws StoreException {
    long[] n =
        store.read(
            c -> {
              long[] out = new long[3];
              try (PreparedStatement q =
                      c.prepareStatement(
                          "SELECT (SELECT COUNT(*) FROM uploads), (SELECT COUNT(*) FROM profiles),"
                              + " (SELECT COALESCE(SUM(bytes), 0) FROM uploads)");
                  ResultSet rs = q.executeQuery()) {
                rs.next();
                for (int i = 0; i < 3; i++) {
                  out[i] = rs.getLong(i + 1);
                }
              }
              return out;
            });
    return new Day(day, n[0], n[1], n[2], dropped);
  }
}
