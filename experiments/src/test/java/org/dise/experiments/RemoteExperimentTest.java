package org.dise.experiments;

import static com.google.common.truth.Truth.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code acf experiment remote --quick}: four users on three inputs of {@code phases}, two at once,
 * against a real center on loopback, with and without phase-ID feedback.
 */
class RemoteExperimentTest {
  @Test
  void feedbackCutsTheSampledFractionAndTheReportHasThePapersNumbers(@TempDir Path out)
      throws Exception {
    RemoteExperiment e = new RemoteExperiment(2);
    Lab lab =
        new Lab(
            Workload.parseList(e.defaultPrograms(true), OverheadExperimentTest.BIN), true, null);
    ExperimentRunner.Written w = ExperimentRunner.run(e, lab, out, "test", "test");
    assertThat(Files.readString(out.resolve("remote.csv")))
        .startsWith("program,inputs,users,feedback,sampled_fraction,count_error,hot_error,");
    for (String f :
        List.of(
            "remote.png",
            "remote.svg",
            "remote-count.svg",
            "remote-hot.svg",
            "remote-tradeoff.svg")) {
      assertThat(Files.exists(out.resolve(f))).isTrue();
    }
    String html = Files.readString(out.resolve("index.html"));
    assertThat(html).contains("id=\"remote\"");
    assertThat(html).contains("28 vs 18");

    List<List<Object>> off = ExperimentsTest.rows(w, "feedback", "off");
    List<List<Object>> on = ExperimentsTest.rows(w, "feedback", "on");
    assertThat(off).hasSize(4); // 1, 2, 3 (the number of inputs) and 4 users
    assertThat(on).hasSize(4);
    List<Object> offAll = off.get(3);
    List<Object> onAll = on.get(3);
    assertThat(ExperimentsTest.num(w, onAll, "users")).isEqualTo(4.0);
    // Users 3 and 4 start after an upload: the center holds their phases, so they sample
    // less, and send less, than without feedback.
    assertThat(ExperimentsTest.num(w, onAll, "sampled_fraction"))
        .isLessThan(ExperimentsTest.num(w, offAll, "sampled_fraction") * 0.9);
    assertThat(ExperimentsTest.num(w, onAll, "bytes_sent"))
        .isLessThan(ExperimentsTest.num(w, offAll, "bytes_sent"));
    for (List<Object> r : w.outcome().data.rows()) {
      // The center matches phases across users: never more than the devices found.
      assertThat(ExperimentsTest.num(w, r, "phases_at_center"))
          .isAtMost(ExperimentsTest.num(w, r, "phases_found_by_devices"));
      assertThat(ExperimentsTest.num(w, r, "hot_unseen"))
          .isAtMost(ExperimentsTest.num(w, r, "hot_entries"));
      // What the sample misses of the hot set is start-up code of little weight.
      assertThat(ExperimentsTest.num(w, r, "weighted_hot_error")).isLessThan(0.1);
      assertThat(ExperimentsTest.num(w, r, "count_error")).isLessThan(0.3);
    }
  }
}
