package io.etl.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Path2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;
import javax.imageio.ImageIO;

/**
 * Draws the soak's samples as a PNG with Java2D (nothing to install, works headless): one panel each for memory,
 * threads and file descriptors, latency (log scale), throughput and lag, on a common time axis, with every SIGKILL
 * as a red line and the sink outage as a grey band.
 */
final class SoakPlot {

    private static final int WIDTH = 1200;
    private static final int PANEL = 170;
    private static final int LEFT = 80;
    private static final int RIGHT = 160;
    private static final int TOP = 60;
    private static final int GAP = 30;
    private static final Color[] COLORS = {
        new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0x9467bd)
    };

    private SoakPlot() {}

    /** One line of a panel. */
    private record Series(String name, ToLongFunction<SoakSample> value) {}

    /** One panel: a title, its lines, and whether its axis is logarithmic. */
    private record Panel(String title, boolean log, List<Series> series) {}

    private static final List<Panel> PANELS = List.of(
            new Panel(
                    "memory (MiB)",
                    false,
                    List.of(
                            new Series("RSS", SoakSample::rssMiB),
                            new Series("heap in use", SoakSample::heapMiB),
                            new Series("old generation", SoakSample::oldGenMiB))),
            new Panel(
                    "threads, open files",
                    false,
                    List.of(new Series("threads", SoakSample::threads), new Series("fds", SoakSample::fds))),
            new Panel(
                    "latency (ms, log)",
                    true,
                    List.of(
                            new Series("p50", SoakSample::p50),
                            new Series("p99", SoakSample::p99),
                            new Series("max", SoakSample::max))),
            new Panel(
                    "records/s",
                    false,
                    List.of(new Series("input", SoakSample::inRate), new Series("output", SoakSample::outRate))),
            new Panel("lag (records)", false, List.of(new Series("uncommitted", SoakSample::lag))));

    /**
     * Writes the plot of {@code samples} to {@code png}.
     *
     * @param title       lines above the plot, the first in bold
     * @param kills       seconds of each SIGKILL
     * @param outageStart second the sink outage began, or -1
     * @param outageEnd   second the sink was back, or -1
     */
    static void write(
            List<SoakSample> samples, List<String> title, List<Long> kills, long outageStart, long outageEnd, Path png)
            throws IOException {
        int height = TOP + PANELS.size() * (PANEL + GAP) + 20;
        BufferedImage image = new BufferedImage(WIDTH, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, WIDTH, height);
        g.setColor(Color.BLACK);
        for (int line = 0; line < title.size(); line++) {
            g.setFont(new Font(Font.SANS_SERIF, line == 0 ? Font.BOLD : Font.PLAIN, line == 0 ? 14 : 12));
            g.drawString(title.get(line), LEFT, 20 + 18 * line);
        }
        long end = samples.isEmpty()
                ? 1
                : Math.max(1, samples.get(samples.size() - 1).second());
        for (int i = 0; i < PANELS.size(); i++) {
            int top = TOP + i * (PANEL + GAP);
            draw(g, PANELS.get(i), samples, end, top, kills, outageStart, outageEnd);
        }
        g.dispose();
        ImageIO.write(image, "png", png.toFile());
    }

    private static void draw(
            Graphics2D g,
            Panel panel,
            List<SoakSample> samples,
            long end,
            int top,
            List<Long> kills,
            long outageStart,
            long outageEnd) {
        int plotWidth = WIDTH - LEFT - RIGHT;
        int bottom = top + PANEL;
        long max = 1;
        for (Series s : panel.series()) {
            for (SoakSample sample : samples) {
                max = Math.max(max, s.value().applyAsLong(sample));
            }
        }
        double top10 = panel.log() ? Math.pow(10, Math.ceil(Math.log10(max))) : niceCeiling(max);
        Axis y = value -> {
            if (panel.log()) {
                double v = Math.log10(Math.max(1, value)) / Math.log10(Math.max(10, top10));
                return bottom - (int) Math.round(v * PANEL);
            }
            return bottom - (int) Math.round(value / top10 * PANEL);
        };
        Axis x = second -> LEFT + (int) Math.round((double) second / end * plotWidth);
        if (outageStart >= 0) {
            g.setColor(new Color(0xe0e0e0));
            long until = outageEnd >= 0 ? outageEnd : end;
            g.fillRect(x.at(outageStart), top, Math.max(1, x.at(until) - x.at(outageStart)), PANEL);
        }
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        g.setColor(new Color(0xbbbbbb));
        g.setStroke(new BasicStroke(1));
        for (double tick : panel.log() ? logTicks(top10) : linearTicks(top10)) {
            int ty = y.at(tick);
            g.drawLine(LEFT, ty, LEFT + plotWidth, ty);
            g.setColor(Color.DARK_GRAY);
            g.drawString(label(tick), 8, ty + 4);
            g.setColor(new Color(0xbbbbbb));
        }
        long step = timeStep(end);
        for (long t = 0; t <= end; t += step) {
            int tx = x.at(t);
            g.drawLine(tx, bottom, tx, bottom + 4);
            g.setColor(Color.DARK_GRAY);
            g.drawString(String.format(Locale.ROOT, "%d:%02d", t / 60, t % 60), tx - 12, bottom + 16);
            g.setColor(new Color(0xbbbbbb));
        }
        g.setColor(new Color(0xd62728));
        g.setStroke(new BasicStroke(1, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] {4, 4}, 0));
        for (long kill : kills) {
            g.drawLine(x.at(kill), top, x.at(kill), bottom);
        }
        g.setColor(Color.BLACK);
        g.setStroke(new BasicStroke(1));
        g.drawRect(LEFT, top, plotWidth, PANEL);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 12));
        g.drawString(panel.title(), LEFT + 6, top + 14);
        g.setStroke(new BasicStroke(1.6f));
        for (int i = 0; i < panel.series().size(); i++) {
            Series s = panel.series().get(i);
            g.setColor(COLORS[i % COLORS.length]);
            Path2D.Double line = new Path2D.Double();
            boolean drawing = false;
            for (SoakSample sample : samples) {
                long v = s.value().applyAsLong(sample);
                if (v < 0) {
                    drawing = false;
                    continue;
                }
                if (drawing) {
                    line.lineTo(x.at(sample.second()), y.at(v));
                } else {
                    line.moveTo(x.at(sample.second()), y.at(v));
                    drawing = true;
                }
            }
            g.draw(line);
            int ly = top + 16 + i * 16;
            g.fillRect(LEFT + plotWidth + 12, ly - 8, 14, 3);
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
            g.drawString(s.name(), LEFT + plotWidth + 32, ly);
        }
        g.setColor(new Color(0xd62728));
        g.drawString("SIGKILL", LEFT + plotWidth + 32, bottom - 20);
        g.setColor(new Color(0x999999));
        g.drawString("sink outage", LEFT + plotWidth + 32, bottom - 4);
    }

    /** A screen coordinate for a value. */
    @FunctionalInterface
    private interface Axis {
        int at(double value);
    }

    /** 1, 2 or 5 times a power of ten, at least {@code max}. */
    static double niceCeiling(double max) {
        double power = Math.pow(10, Math.floor(Math.log10(Math.max(1, max))));
        for (double m : new double[] {1, 2, 5, 10}) {
            if (m * power >= max) {
                return m * power;
            }
        }
        return 10 * power;
    }

    private static double[] linearTicks(double top) {
        return new double[] {0, top / 4, top / 2, 3 * top / 4, top};
    }

    private static double[] logTicks(double top) {
        int decades = (int) Math.round(Math.log10(Math.max(10, top)));
        double[] ticks = new double[decades + 1];
        for (int i = 0; i <= decades; i++) {
            ticks[i] = Math.pow(10, i);
        }
        return ticks;
    }

    private static String label(double value) {
        if (value >= 1_000_000) {
            return String.format(Locale.ROOT, "%.1fM", value / 1_000_000);
        }
        if (value >= 10_000) {
            return String.format(Locale.ROOT, "%.0fk", value / 1_000);
        }
        return String.format(Locale.ROOT, "%.0f", value);
    }

    /** Seconds between time ticks: about eight over the run, in round steps. */
    static long timeStep(long end) {
        for (long step : new long[] {5, 10, 15, 30, 60, 120, 300, 600, 900, 1800}) {
            if (end / step <= 10) {
                return step;
            }
        }
        return 3600;
    }
}
