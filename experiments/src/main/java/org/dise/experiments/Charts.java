package org.dise.experiments;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;

/** Draws a {@link Figure} with XChart and writes it as PNG and SVG. */
public final class Charts {
  private Charts() {}

  static final int WIDTH = 900;
  static final int HEIGHT = 520;

  public static Chart<?, ?> chart(Figure f) {
    if (f.kind() == Figure.Kind.BARS) {
      CategoryChart c = labelled(new CategoryChart(WIDTH, HEIGHT), f);
      c.getStyler().setXAxisLabelRotation(f.categories().size() > 6 ? 45 : 0);
      // Bars stand on zero, which a logarithmic axis cannot show (XChart refuses it), so bar
      // charts keep a linear axis; the data's table gives the small values.
      for (Figure.Series s : f.series()) {
        List<Double> ys = new ArrayList<>();
        for (Double y : s.ys()) {
          ys.add(y == null || y.isNaN() ? 0.0 : y);
        }
        c.addSeries(s.name(), f.categories(), ys);
      }
      return c;
    }
    XYChart c = labelled(new XYChart(WIDTH, HEIGHT), f);
    c.getStyler().setYAxisLogarithmic(f.logY());
    c.getStyler().setXAxisLogarithmic(f.logX());
    c.getStyler()
        .setDefaultSeriesRenderStyle(
            f.kind() == Figure.Kind.POINTS
                ? XYSeries.XYSeriesRenderStyle.Scatter
                : XYSeries.XYSeriesRenderStyle.Line);
    for (Figure.Series s : f.series()) {
      List<Double> xs = new ArrayList<>();
      List<Double> ys = new ArrayList<>();
      for (int i = 0; i < s.xs().size(); i++) {
        Double x = s.xs().get(i);
        Double y = s.ys().get(i);
        if (x != null
            && y != null
            && !x.isNaN()
            && !y.isNaN()
            && (!f.logY() || y > 0)
            && (!f.logX() || x > 0)) {
          xs.add(x);
          ys.add(y);
        }
      }
      if (!xs.isEmpty()) {
        c.addSeries(s.name(), xs, ys);
      }
    }
    return c;
  }

  /** Legend entries longer than this in all (characters) do not fit one row under the plot. */
  static final int LEGEND_ROW_CHARS = 110;

  /**
   * One row of legend under the plot when it fits; otherwise a column beside it, since XChart does
   * not wrap a horizontal legend and would cut the last entries off.
   */
  static boolean legendFitsOneRow(Figure f) {
    return f.series().stream().mapToInt(s -> s.name().length() + 6).sum() <= LEGEND_ROW_CHARS;
  }

  /** {@code c} with the figure's title and axis titles, in the house style. */
  private static <C extends Chart<?, ?>> C labelled(C c, Figure f) {
    c.setTitle(f.title());
    c.setXAxisTitle(f.xLabel());
    c.setYAxisTitle(f.yLabel());
    style(c.getStyler(), f);
    return c;
  }

  private static void style(Styler s, Figure f) {
    if (legendFitsOneRow(f)) {
      s.setLegendPosition(Styler.LegendPosition.OutsideS);
      s.setLegendLayout(Styler.LegendLayout.Horizontal);
    } else {
      s.setLegendPosition(Styler.LegendPosition.OutsideE);
      s.setLegendLayout(Styler.LegendLayout.Vertical);
    }
    s.setChartBackgroundColor(java.awt.Color.WHITE);
    s.setPlotBackgroundColor(java.awt.Color.WHITE);
    s.setAntiAlias(true);
  }

  /** The PNG bytes of {@code f}. */
  public static byte[] png(Figure f) throws IOException {
    return BitmapEncoder.getBitmapBytes(chart(f), BitmapEncoder.BitmapFormat.PNG);
  }

  /** Writes {@code base}.png and {@code base}.svg; returns the PNG bytes. */
  public static byte[] write(Figure f, Path base) throws IOException {
    Chart<?, ?> chart = chart(f);
    byte[] png = BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG);
    Files.write(base.resolveSibling(base.getFileName() + ".png"), png);
    VectorGraphicsEncoder.saveVectorGraphic(
        chart,
        base.resolveSibling(base.getFileName() + ".svg").toString(),
        VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
    return png;
  }
}
