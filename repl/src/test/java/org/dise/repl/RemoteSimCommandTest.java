package org.dise.repl;

import static com.google.common.truth.Truth.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dise.testsupport.RepositoryRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code acf remote-sim}: users run concurrently against a center on loopback, each on its own
 * input; the table, the CSV and the progress lines say what the issue asks.
 */
class RemoteSimCommandTest {
  static final Path ROOT = RepositoryRoot.path();

  /**
   * {@code acf remote-sim --users USERS OPTIONS... --program phases --acf sampled_regions.acf
   * MORE...}.
   */
  private static ConfigCommandTest.Result remoteSim(String users, String... more) {
    List<String> line = new ArrayList<>(List.of("remote-sim", "--users", users));
    line.addAll(List.of(more));
    line.addAll(List.of("--program", SamplingCommandTest.PHASES, "--acf", SamplingCommandTest.ACF));
    return ConfigCommandTest.acf(line.toArray(String[]::new));
  }

  @Test
  void usersRunConcurrentlyAndFeedbackCutsWhatLaterUsersSample(@TempDir Path dir) throws Exception {
    Path inputs = dir.resolve("inputs.txt");
    Files.writeString(inputs, "# size and schedule\n1 AABB\n\n1 BBAA\n");
    Path csv = dir.resolve("rows.csv");
    ConfigCommandTest.Result r =
        remoteSim(
            "4",
            "--parallel",
            "2",
            "--inputs",
            inputs.toString(),
            "--interval",
            "250K",
            "--csv",
            csv.toString());
    assertThat(r.status()).isEqualTo(0);
    assertThat(r.stderr()).contains("remote-sim: 4 users, 2 at once, phases, 2 input(s)");
    assertThat(r.stderr()).contains("remote-sim: exhaustive profile of input 2 done");
    assertThat(r.stderr()).contains("remote-sim: feedback on: user 4 done");
    List<String> lines = r.stdout().lines().toList();
    assertThat(lines.get(0))
        .startsWith(
            "users  feedback  sampled_fraction  count_error"
                + "  hot_error  hot_unseen  weighted_hot");
    assertThat(lines).hasSize(1 + 2 * 3); // 1, 2, 4 users, each mode
    List<String> rows = Files.readAllLines(csv);
    assertThat(rows.get(0))
        .isEqualTo(
            "users,feedback,sampled_fraction,count_error,hot_error,"
                + "hot_size,hot_unseen,hot_misranked,weighted_hot_error,bytes_sent,phases_known,"
                + "device_phases,seconds");
    String[] off = rows.get(3).split(",");
    String[] on = rows.get(6).split(",");
    assertThat(off[0] + off[1] + on[0] + on[1]).isEqualTo("4off4on");
    // Two users start at once without feedback; the later two hear of the first uploads.
    assertThat(Double.parseDouble(on[2])).isLessThan(Double.parseDouble(off[2]));
    assertThat(Long.parseLong(on[9])).isLessThan(Long.parseLong(off[9]));
    // Both inputs run the same two kernels: the center holds fewer phases than the devices
    // found together.
    assertThat(Long.parseLong(off[10])).isLessThan(Long.parseLong(off[11]));
  }

  @Test
  void badSettingsAreRefusedWithTheirName() {
    ConfigCommandTest.Result r = remoteSim("2", "--parallel", "0");
    assertThat(r.status()).isNotEqualTo(0);
    assertThat(r.stderr()).contains("--parallel must be 1 to 256");
  }

  /**
   * The options alone are refused before the ACF is read (here it cannot be), the devices' interval
   * with acf run's message.
   */
  @Test
  void badOptionsAreRefusedBeforeTheAcfIsRead() {
    String[][] cases = {
      {"--interval", "0", "sampling: interval must be at least 1, got 0"},
      {"--parallel", "0", "--parallel must be 1 to 256"},
      {"--retain", "1d", "--retain needs --simulated-days D"},
      {"--simulated-days", "0", "--simulated-days must be 1 to 3650"},
    };
    for (String[] c : cases) {
      ConfigCommandTest.Result r =
          ConfigCommandTest.acf(
              "remote-sim",
              "--users",
              "2",
              c[0],
              c[1],
              "--program",
              SamplingCommandTest.PHASES,
              "--acf",
              "/no/such.acf");
      assertThat(r.status()).isEqualTo(2);
      assertThat(r.stderr()).isEqualTo("acf: " + c[2] + "\n");
    }
  }

  @Test
  void aCompressedClockShowsTheStoreBoundedUnderRetention() {
    // 8 users over 4 simulated days, 2 a day; retention keeps a day: the store never holds more
    // than the last day's uploads, and its size per day is printed.
    ConfigCommandTest.Result r =
        remoteSim(
            "8",
            "--parallel",
            "2",
            "--mode",
            "feedback",
            "--interval",
            "250K",
            "--simulated-days",
            "4",
            "--retain",
            "1d");
    assertThat(r.status()).isEqualTo(0);
    assertThat(r.stderr()).contains("feedback on, simulated day 4:");
    List<String> lines = r.stdout().lines().toList();
    int head = lines.indexOf("  day  parts  profile_rows     bytes  dropped");
    assertThat(head).isAtLeast(0);
    List<long[]> days = new java.util.ArrayList<>();
    for (String l : lines.subList(head + 1, lines.size())) {
      days.add(
          java.util.Arrays.stream(l.trim().split("\\s+")).mapToLong(Long::parseLong).toArray());
    }
    assertThat(days).hasSize(4);
    // Day 1 holds its two uploads' parts; later days no more than day 2, having dropped some.
    assertThat(days.get(0)[1]).isGreaterThan(0);
    assertThat(days.get(3)[1]).isAtMost(days.get(1)[1]);
    assertThat(days.get(3)[4]).isGreaterThan(0);

    ConfigCommandTest.Result bad = remoteSim("2", "--retain", "1d");
    assertThat(bad.status()).isNotEqualTo(0);
    assertThat(bad.stderr()).contains("--retain needs --simulated-days D");
  }
}
