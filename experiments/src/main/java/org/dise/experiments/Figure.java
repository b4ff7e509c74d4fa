package org.dise.experiments;

import java.util.List;

/**
 * A figure to draw: grouped bars over categories (one bar per series in each category), or
 * lines/points over a numeric x axis. Charts draws it with XChart.
 */
public record Figure(
    String name,
    Kind kind,
    String title,
    String xLabel,
    String yLabel,
    boolean logY,
    boolean logX,
    List<String> categories,
    List<Series> series) {
  public enum Kind {
    BARS,
    LINES,
    POINTS
  }

  /** One series: y per category (bars) or (x, y) points. */
  public record Series(String name, List<Double> xs, List<Double> ys) {}

  public Figure {
    categories = List.copyOf(categories);
    series = List.copyOf(series);
  }

  public static Figure bars(
      String name, String title, String yLabel, List<String> categories, List<Series> series) {
    return new Figure(name, Kind.BARS, title, "", yLabel, false, false, categories, series);
  }

  public static Figure lines(
      String name, String title, String xLabel, String yLabel, List<Series> series) {
    return new Figure(name, Kind.LINES, title, xLabel, yLabel, false, false, List.of(), series);
  }

  public static Figure points(
      String name, String title, String xLabel, String yLabel, List<Series> series) {
    return new Figure(name, Kind.POINTS, title, xLabel, yLabel, false, false, List.of(), series);
  }

  public Figure withLogY() {
    return new Figure(name, kind, title, xLabel, yLabel, true, logX, categories, series);
  }

  /** A logarithmic x axis, for values over several decades (overheads from 0.1% to 300%). */
  public Figure withLogX() {
    return new Figure(name, kind, title, xLabel, yLabel, logY, true, categories, series);
  }
}
