package org.dise.experiments;

import static com.google.common.truth.Truth.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.style.Styler;

/** What a reader sees: legends that are not cut off, log axes where values span decades. */
class ChartsTest {
  static Figure points(int series, int nameLength) {
    List<Figure.Series> ss = new ArrayList<>();
    for (int i = 0; i < series; i++) {
      String name = ("s" + i + "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx").substring(0, nameLength);
      ss.add(new Figure.Series(name, List.of(1.0, 10.0), List.of(2.0, 3.0)));
    }
    return Figure.points("f", "title", "x", "y", ss);
  }

  @Test
  void aFewSeriesKeepTheirLegendUnderThePlot() {
    XYChart c = (XYChart) Charts.chart(points(3, 10));
    assertThat(c.getStyler().getLegendPosition()).isEqualTo(Styler.LegendPosition.OutsideS);
  }

  @Test
  void manySeriesGetALegendColumnRatherThanACutOffRow() {
    // The sampling figure: eight strategies and the paper's points.
    XYChart c = (XYChart) Charts.chart(points(9, 18));
    assertThat(c.getStyler().getLegendPosition()).isEqualTo(Styler.LegendPosition.OutsideE);
    assertThat(c.getStyler().getLegendLayout()).isEqualTo(Styler.LegendLayout.Vertical);
  }

  @Test
  void aLogXAxisDropsPointsItCannotDraw() throws Exception {
    Figure f =
        Figure.points(
                "f",
                "t",
                "x",
                "y",
                List.of(new Figure.Series("a", List.of(0.0, 0.5, 300.0), List.of(1.0, 2.0, 3.0))))
            .withLogX();
    XYChart c = (XYChart) Charts.chart(f);
    assertThat(c.getStyler().isXAxisLogarithmic()).isTrue();
    assertThat(c.getSeriesMap().get("a").getXData()).hasLength(2);
    assertThat(Charts.png(f).length).isGreaterThan(1000);
  }
}
