package dev.vigil.report;

import java.util.ArrayList;
import java.util.List;

/**
 * A line chart drawn as inline SVG by the analyzer (no charting script, nothing fetched): its
 * coordinates are computed here, in pixels, and {@code dev/vigil/report/chart.peb} draws them.
 * Built with {@link #builder}.
 *
 * @param width the picture's width in pixels
 * @param height its height
 * @param left the plot area's left edge
 * @param right its right edge
 * @param top its top edge
 * @param bottom its bottom edge
 * @param lines the series, each a polyline
 * @param marks the points marked on it (a thorn, a pass), each with a title shown on hover
 * @param xTicks the labels under the plot
 * @param yTicks the labels left of it, each with a grid line
 */
public record SvgChart(
    int width,
    int height,
    int left,
    int right,
    int top,
    int bottom,
    List<Line> lines,
    List<Mark> marks,
    List<Tick> xTicks,
    List<Tick> yTicks) {

  /**
   * One series.
   *
   * @param label its name, in the legend
   * @param color its CSS color
   * @param points the polyline's points, {@code x,y x,y …}
   */
  public record Line(String label, String color, String points) {}

  /**
   * One marked point.
   *
   * @param x in pixels
   * @param y in pixels
   * @param color its CSS color
   * @param title what it is, in words
   */
  public record Mark(String x, String y, String color, String title) {}

  /**
   * One axis label.
   *
   * @param at its position in pixels along its axis
   * @param label the text
   * @param anchor how the text sits on its position: {@code start} near the left edge, {@code end}
   *     near the right one, {@code middle} elsewhere, so that no label is cut off
   */
  public record Tick(String at, String label, String anchor) {}

  /** Copies the lists. */
  public SvgChart {
    lines = List.copyOf(lines);
    marks = List.copyOf(marks);
    xTicks = List.copyOf(xTicks);
    yTicks = List.copyOf(yTicks);
  }

  /**
   * A chart of {@code width} by {@code height} pixels over the given domains (a degenerate one is
   * widened).
   */
  public static Builder builder(
      int width, int height, double xMin, double xMax, double yMin, double yMax) {
    return new Builder(width, height, xMin, xMax, yMin, yMax);
  }

  /** Whether anything is drawn. */
  public boolean isEmpty() {
    return lines.isEmpty() && marks.isEmpty();
  }

  /** Collects the series and marks in data coordinates and turns them into pixels. */
  public static final class Builder {
    private static final int LEFT = 52;
    private static final int RIGHT_PAD = 16;
    private static final int TOP = 12;
    private static final int BOTTOM_PAD = 30;

    /** An x label closer than this to an edge is anchored on that side. */
    private static final int EDGE = 60;

    private final int width;
    private final int height;
    private final double xMin;
    private final double xMax;
    private final double yMin;
    private final double yMax;
    private final List<Line> lines = new ArrayList<>();
    private final List<Mark> marks = new ArrayList<>();
    private final List<Tick> xTicks = new ArrayList<>();
    private final List<Tick> yTicks = new ArrayList<>();

    private Builder(int width, int height, double xMin, double xMax, double yMin, double yMax) {
      this.width = width;
      this.height = height;
      this.xMin = xMin;
      this.xMax = xMax > xMin ? xMax : xMin + 1;
      this.yMin = yMin;
      this.yMax = yMax > yMin ? yMax : yMin + 1;
    }

    /** The pixel x of a data x. */
    double x(double v) {
      return LEFT + (v - xMin) / (xMax - xMin) * (width - RIGHT_PAD - LEFT);
    }

    /** The pixel y of a data y. */
    double y(double v) {
      return height - BOTTOM_PAD - (v - yMin) / (yMax - yMin) * (height - BOTTOM_PAD - TOP);
    }

    /** Adds a series: {@code xs[i], ys[i]} in data coordinates. */
    public Builder line(String label, String color, double[] xs, double[] ys) {
      StringBuilder points = new StringBuilder();
      for (int i = 0; i < xs.length; i++) {
        points.append(i > 0 ? " " : "").append(px(x(xs[i]))).append(',').append(px(y(ys[i])));
      }
      lines.add(new Line(label, color, points.toString()));
      return this;
    }

    /** Marks a point in data coordinates. */
    public Builder mark(double x, double y, String color, String title) {
      marks.add(new Mark(px(x(x)), px(y(y)), color, title));
      return this;
    }

    /** Labels a position on the x axis. */
    public Builder xTick(double x, String label) {
      double at = x(x);
      String anchor = at < LEFT + EDGE ? "start" : at > width - RIGHT_PAD - EDGE ? "end" : "middle";
      xTicks.add(new Tick(px(at), label, anchor));
      return this;
    }

    /** Labels a position on the y axis, with a grid line. */
    public Builder yTick(double y, String label) {
      yTicks.add(new Tick(px(y(y)), label, "end"));
      return this;
    }

    /** The chart. */
    public SvgChart build() {
      return new SvgChart(
          width,
          height,
          LEFT,
          width - RIGHT_PAD,
          TOP,
          height - BOTTOM_PAD,
          lines,
          marks,
          xTicks,
          yTicks);
    }

    private static String px(double v) {
      return OneDecimal.of(v);
    }
  }
}
