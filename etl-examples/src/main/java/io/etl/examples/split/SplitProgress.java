package io.etl.examples.split;

import io.etl.core.RunningPipeline;
import io.etl.core.source.SourcePartition;
import io.etl.examples.ProgressLine;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.common.TopicPartition;

/**
 * The demo's progress line (records in, rate, lag, messages per branch, dropped), printed every
 * {@value #TICK_MILLIS} ms from its own thread; closing it prints the last state with the average rate.
 */
final class SplitProgress implements AutoCloseable {

    private static final long TICK_MILLIS = 500;

    private final MeterRegistry registry;
    private final RunningPipeline running;
    private final Supplier<Map<TopicPartition, Long>> ends;
    private final long total;
    private final ProgressLine line;
    private final ScheduledExecutorService timer;
    private final long started = System.nanoTime();
    private long lastIn;
    private long lastTick = started;
    private boolean closed;

    /**
     * @param err         where the line goes
     * @param interactive rewrite the line in place
     * @param ends        the input's end offsets, for the lag
     * @param total       records in the input, or negative when not known
     */
    SplitProgress(
            PrintStream err,
            boolean interactive,
            MeterRegistry registry,
            RunningPipeline running,
            Supplier<Map<TopicPartition, Long>> ends,
            long total) {
        this.registry = registry;
        this.running = running;
        this.ends = ends;
        this.total = total;
        this.line = new ProgressLine(err, interactive, 3000);
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "etl-examples-progress");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleAtFixedRate(() -> tick(false), TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** Shows the current state; the last line shows the average rate instead of the latest one. */
    private void tick(boolean last) {
        try {
            long now = System.nanoTime();
            long in = SplitMeters.recordsIn(registry);
            double rate =
                    last ? in * 1e9 / Math.max(1, now - started) : (in - lastIn) * 1e9 / Math.max(1, now - lastTick);
            lastIn = in;
            lastTick = now;
            long lag = lag();
            StringBuilder sb = new StringBuilder(120);
            sb.append(String.format(Locale.ROOT, "%6.1fs  in %,d", (now - started) / 1e9, in));
            if (total >= 0) {
                sb.append(String.format(Locale.ROOT, "/%,d", total));
            }
            sb.append(String.format(Locale.ROOT, "  %,.0f rec/s%s  lag %,d  |", rate, last ? " avg" : "", lag));
            for (String b : SplitSummary.BRANCHES) {
                sb.append(' ')
                        .append(b)
                        .append(' ')
                        .append(String.format(Locale.ROOT, "%,d", SplitMeters.sinkRecords(registry, b)));
            }
            sb.append(String.format(Locale.ROOT, "  dropped %,d", SplitMeters.dropped(registry)));
            synchronized (this) {
                if (!closed) {
                    line.update(sb.toString());
                }
            }
        } catch (RuntimeException e) {
            // the progress line is best effort; never let it end the timer
        }
    }

    private long lag() {
        Map<SourcePartition, Long> committed = running.committedOffsets();
        long lag = 0;
        for (Map.Entry<TopicPartition, Long> e : ends.get().entrySet()) {
            SourcePartition p =
                    new SourcePartition(e.getKey().topic(), e.getKey().partition());
            Long c = committed.get(p);
            if (c != null) {
                lag += Math.max(0, e.getValue() - c);
            } else if (total >= 0) {
                lag += e.getValue(); // a fresh group on a fresh topic: not committed yet means from 0
            }
        }
        return lag;
    }

    /** Stops the timer, shows the final state and ends the line. Idempotent. */
    @Override
    public void close() {
        timer.shutdownNow();
        synchronized (this) {
            if (!closed) {
                tick(true);
                closed = true;
                line.finish();
            }
        }
    }
}
