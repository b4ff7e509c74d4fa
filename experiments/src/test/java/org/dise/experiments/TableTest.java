package org.dise.experiments;

import static com.google.common.truth.Truth.assertThat;

import java.io.StringWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import org.dise.experiments.model.CycleModel;
import org.junit.jupiter.api.Test;

/** The CSV with the settings every run shared as constant columns. */
class TableTest {
  @Test
  void settingsBecomeConstantColumnsButNeverShadowADataColumn() throws Exception {
    Table t = new Table("program", "interval", "error");
    t.add("jpeg 1", 1000L, 0.5);
    t.add("lz77 1", 500L, 0.25);
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("phase_aware.scaling", "nearest");
    settings.put("interval", "1000000"); // the data's own column wins
    settings.put("hot_set", "top 15%, by entries");
    StringWriter w = new StringWriter();
    t.writeCsv(w, settings);
    assertThat(w.toString())
        .isEqualTo(
            "program,interval,error,phase_aware.scaling,hot_set\n"
                + "jpeg 1,1000,0.500000,nearest,\"top 15%, by entries\"\n"
                + "lz77 1,500,0.250000,nearest,\"top 15%, by entries\"\n");
  }

  @Test
  void aModelRecordsEveryParameter() {
    Outcome o = new Outcome(new Table("x"));
    o.model("cycle_model", CycleModel.paper());
    assertThat(o.settings).containsEntry("cycle_model.mispredictPenalty", "10.0000");
    assertThat(o.settings).containsEntry("cycle_model.l1Bytes", "32768");
    assertThat(o.settings).hasSize(CycleModel.class.getRecordComponents().length);
  }
}
