package org.dise.runtime.dise;

import static com.google.common.truth.Truth.assertThat;

import org.junit.jupiter.api.Test;

/** The cost report's text and JSON, which `acf run` prints and run directories keep. */
class CostReportTest {
  private static final String NL = System.lineSeparator();

  @Test
  void describesTheFiguresInColumnsAndLeavesOutInterruptsThatDidNotHappen() {
    CostReport c = new CostReport(100, 30, 10, 10, 2, 80);
    assertThat(c.describe())
        .isEqualTo(
            String.join(
                NL,
                "application instructions 100",
                "inserted instructions    30",
                "replacements             10",
                "stall cycles             10",
                "handler calls            2",
                "handler cycles           80",
                "total cycles             220",
                "overhead                 2.2000x",
                ""));
  }

  @Test
  void describesACoProcessorsInterruptsBeforeTheTotal() {
    CostReport c = new CostReport(100, 30, 10, 10, 2, 80, 3, 90);
    assertThat(c.describe())
        .contains("handler cycles           80" + NL + "interrupts               3" + NL);
    assertThat(c.describe())
        .contains("interrupt cycles         90" + NL + "total cycles             310" + NL);
  }

  @Test
  void writesEveryFigureAsJson() {
    CostReport c = new CostReport(100, 30, 10, 10, 2, 80, 3, 90);
    assertThat(c.toJson())
        .isEqualTo(
            "{\"application_instructions\": 100, \"inserted_instructions\": 30,"
                + " \"replacements\": 10, \"stall_cycles\": 10, \"handler_calls\": 2,"
                + " \"handler_cycles\": 80, \"interrupts\": 3, \"interrupt_cycles\": 90,"
                + " \"total_cycles\": 310, \"overhead\": 3.100000}");
  }
}
