package io.etl.examples.split;

import io.etl.core.Pipeline;
import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.metrics.EtlMetrics;
import io.etl.core.source.SourcePartition;
import io.etl.examples.ProgressLine;
import io.etl.runtime.HttpEndpoint;
import io.etl.runtime.StopSignal;
import io.etl.kafka.sink.KafkaSinkConfig;
import io.etl.kafka.source.KafkaSourceConfig;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;

/**
 * The demonstration run of the {@code kafka_to_kafka_split} pipeline ({@link #toCompletion}): on a cluster the
 * caller owns (the program's embedded broker, or a test's), write {@code N} sample orders, run until every one
 * is accounted for with a live progress line, stop, count the output topics and print the summary. The
 * service mode is the runtime's ({@link io.etl.runtime.PipelineService}); {@link #writeSampleOrders} and
 * {@link #serviceSummary} are its extras.
 */
public final class SplitRun {

    /** Partitions of each topic the run creates. */
    public static final int PARTITIONS = 6;
    /** The program gives up when nothing moves for this long while input is still unaccounted for. */
    public static final Duration STALL_LIMIT = Duration.ofSeconds(60);

    private static final long TICK_MILLIS = 500;

    private final Options options;
    private final PrintStream out;
    private final PrintStream err;

    /**
     * How to run.
     *
     * @param records     sample orders to write first; 0 writes none
     * @param metricsPort serve the runtime's HTTP endpoint on this port of 127.0.0.1, or null for none
     * @param out         where the summary goes
     * @param err         where progress and notes go
     * @param interactive rewrite the progress line in place
     * @param stop        a stop request (signals, or a test)
     */
    public record Options(int records, Integer metricsPort, PrintStream out, PrintStream err, boolean interactive,
                          StopSignal stop) {
    }

    /**
     * How a run ended.
     *
     * @param summary  the counts
     * @param result   how the pipeline ended
     * @param exitCode what the program should exit with
     */
    public record Outcome(SplitSummary summary, PipelineResult result, int exitCode) {
    }

    private SplitRun(Options options) {
        this.options = options;
        this.out = options.out();
        this.err = options.err();
    }

    /**
     * The demonstration run: writes {@code options.records()} orders into fresh topics of {@code cluster},
     * runs until the consumer group has committed the whole input, stops, and reports. {@code env} is the
     * environment for interpolation; its {@code KAFKA_BROKERS} is replaced by the cluster's address.
     *
     * @return the outcome; exit code 0 when the pipeline drained and no order is missing (duplicates are
     * reported, not failed: they are allowed by at-least-once)
     */
    public static Outcome toCompletion(KafkaTestCluster cluster, String yaml, Function<String, String> env,
                                       Options options) {
        return new SplitRun(options).demo(cluster, yaml, env);
    }

    // ---- the demonstration ---------------------------------------------------------------------------------

    private Outcome demo(KafkaTestCluster cluster, String yaml, Function<String, String> env) {
        String brokers = cluster.bootstrapServers();
        PipelineConfig config = PipelineConfig.parse(yaml, name -> "KAFKA_BROKERS".equals(name) ? brokers : env.apply(name));
        Pipeline pipeline = KafkaToKafkaSplit.pipeline(config);
        String input = inputTopic(config);
        Map<String, String> topics = outputTopics(config);

        ensureTopics(cluster, input, topics.values());
        long written = writeOrders(cluster, input, options.records());
        Map<TopicPartition, Long> ends = cluster.endOffsets(input);
        long inputCount = ends.values().stream().mapToLong(Long::longValue).sum();
        Map<String, Long> expected = inputCount == written ? OrderGenerator.expectedCounts(options.records()) : Map.of();
        if (inputCount != written) {
            err.printf(Locale.ROOT, "note: topic %s already held %,d records; counting all of them%n", input,
                    inputCount - written);
        }

        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        long started = System.nanoTime();
        long elapsedMs;
        PipelineResult result;
        boolean interrupted = false;
        AtomicReference<RunningPipeline> current = new AtomicReference<>();
        try (HttpEndpoint server = serveHttp(registry, current);
             RunningPipeline running = pipeline.start(config, registry);
             Reporter reporter = new Reporter(registry, running, () -> ends, inputCount)) {
            current.set(running);
            Map<SourcePartition, Long> target = new HashMap<>();
            ends.forEach((tp, end) -> target.put(new SourcePartition(tp.topic(), tp.partition()), end));
            StallGuard stall = new StallGuard();
            PipelineResult early = null;
            while (true) {
                if (options.stop().isRequested()) {
                    interrupted = true;
                    break;
                }
                try {
                    early = running.result().get(100, TimeUnit.MILLISECONDS);
                    break;
                } catch (TimeoutException stillRunning) {
                    // fall through to the checks below
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    interrupted = true;
                    break;
                } catch (ExecutionException e) {
                    throw new IllegalStateException(e.getCause());
                }
                Map<SourcePartition, Long> committed = running.committedOffsets();
                if (accountedFor(committed, target)) {
                    break;
                }
                if (stall.stalled(committed, registry)) {
                    err.println();
                    err.printf("error: no progress for %s with input still unaccounted for; stopping%n", STALL_LIMIT);
                    break;
                }
            }
            elapsedMs = (System.nanoTime() - started) / 1_000_000;
            reporter.close();
            result = early != null ? early : running.stopAndWait(config.pipeline().shutdownTimeout());
        }

        Map<String, Long> outputs = new LinkedHashMap<>();
        topics.forEach((branch, topic) -> outputs.put(branch, sum(cluster.endOffsets(topic))));
        long skipped = sumCounters(registry, EtlMetrics.RECORDS_DROPPED);
        long dropped = sumCounters(registry, EtlMetrics.RECORDS_FILTERED) + skipped;
        SplitSummary summary = new SplitSummary(inputCount, dropped, skipped, outputs, topics, expected, elapsedMs);
        report(result);
        summary.print(out);
        int exit;
        if (interrupted) {
            err.println("interrupted before every order was accounted for");
            exit = io.etl.runtime.ExitCodes.SECOND_SIGNAL;
        } else if (!result.succeeded() || summary.lost()) {
            exit = 1;
        } else {
            exit = 0;
        }
        return new Outcome(summary, result, exit);
    }

    // ---- the service's extras -----------------------------------------------------------------------------

    /**
     * Writes {@code count} sample orders into the input topic of the cluster {@code config} names, creating the
     * topics it lacks (with the sinks' security settings).
     */
    public static void writeSampleOrders(PipelineConfig config, int count, PrintStream err) {
        KafkaSourceConfig source = config.source(KafkaToKafkaSplit.SOURCE).connector(KafkaSourceConfig.class);
        SplitRun run = new SplitRun(new Options(count, null, System.out, err, false, StopSignal.manual()));
        try (KafkaTestCluster cluster = KafkaTestCluster.external(source.brokers(), clientProperties(config))) {
            String input = inputTopic(config);
            run.ensureTopics(cluster, input, outputTopics(config).values());
            run.writeOrders(cluster, input, count);
        }
    }

    /** What this process did, from its meters: records read, dropped and written per branch. */
    public static SplitSummary serviceSummary(PipelineConfig config, MeterRegistry registry, long elapsedMs) {
        Map<String, String> topics = outputTopics(config);
        Map<String, Long> outputs = new LinkedHashMap<>();
        topics.keySet().forEach(branch -> outputs.put(branch, sinkRecords(registry, branch)));
        long skipped = sumCounters(registry, EtlMetrics.RECORDS_DROPPED);
        long dropped = sumCounters(registry, EtlMetrics.RECORDS_FILTERED) + skipped;
        return new SplitSummary(sumCounters(registry, EtlMetrics.SOURCE_RECORDS), dropped, skipped, outputs, topics,
                Map.of(), elapsedMs);
    }

    // ---- helpers -------------------------------------------------------------------------------------------

    private void report(PipelineResult result) {
        err.printf(Locale.ROOT, "pipeline %s: %s after %,d records in %,d ms%n", result.pipeline(),
                result.status().name().toLowerCase(Locale.ROOT), result.recordsIn(), result.elapsed().toMillis());
        result.failureCause().ifPresent(f -> err.println("  cause: " + f.getMessage()));
        if (result.abandonedBatches() > 0) {
            err.printf("  %d batch(es) abandoned at the drain deadline; they replay on the next start%n",
                    result.abandonedBatches());
        }
    }

    private HttpEndpoint serveHttp(PrometheusMeterRegistry registry, AtomicReference<RunningPipeline> running) {
        if (options.metricsPort() == null) {
            return null;
        }
        HttpEndpoint server = HttpEndpoint.start("127.0.0.1", options.metricsPort(), registry, running::get);
        err.println("metrics: http://" + server.address() + HttpEndpoint.METRICS_PATH);
        return server;
    }

    static String inputTopic(PipelineConfig config) {
        KafkaSourceConfig source = config.source(KafkaToKafkaSplit.SOURCE).connector(KafkaSourceConfig.class);
        if (source.topics().size() != 1) {
            throw new IllegalArgumentException("source." + KafkaToKafkaSplit.SOURCE
                    + ".kafka.topics: this example reads exactly one topic, found " + source.topics());
        }
        return source.topics().get(0);
    }

    static Map<String, String> outputTopics(PipelineConfig config) {
        Map<String, String> topics = new LinkedHashMap<>();
        for (String branch : SplitSummary.BRANCHES) {
            topics.put(branch, config.sink(branch).connector(KafkaSinkConfig.class).topic());
        }
        return topics;
    }

    /**
     * The security settings of the {@code eu} sink (typed {@code security} section and any
     * {@code security.*}/{@code ssl.*}/{@code sasl.*} passthrough keys) as client properties, so that the
     * sample orders and the admin calls reach a secured cluster the way the pipeline's producers do.
     */
    private static Map<String, String> clientProperties(PipelineConfig config) {
        KafkaSinkConfig sink = config.sink(SplitSummary.BRANCHES[0]).connector(KafkaSinkConfig.class);
        Map<String, String> props = new HashMap<>();
        if (sink.security() != null) {
            sink.security().toClientProperties("sinks." + SplitSummary.BRANCHES[0] + ".kafka.security")
                    .forEach((k, v) -> props.put(k, String.valueOf(v)));
        }
        sink.producer().forEach((k, v) -> {
            if (k.startsWith("security.") || k.startsWith("ssl.") || k.startsWith("sasl.")) {
                props.put(k, v);
            }
        });
        return props;
    }

    private void ensureTopics(KafkaTestCluster cluster, String input, Collection<String> outputs) {
        Set<String> existing;
        try (Admin admin = cluster.newAdmin()) {
            existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while listing topics", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot list the topics of " + cluster.bootstrapServers() + ": " + e, e);
        }
        List<String> wanted = new ArrayList<>();
        wanted.add(input);
        wanted.addAll(outputs);
        for (String topic : wanted) {
            if (!existing.contains(topic)) {
                cluster.createTopic(topic, PARTITIONS);
                existing = new HashSet<>(existing);
                existing.add(topic);
            }
        }
    }

    private long writeOrders(KafkaTestCluster cluster, String topic, int count) {
        if (count <= 0) {
            return 0;
        }
        long t0 = System.nanoTime();
        err.printf(Locale.ROOT, "writing %,d sample orders to %s ...%n", count, topic);
        cluster.produce(topic, count, i -> TestRecord.of(OrderGenerator.id(i), OrderGenerator.json(i)));
        long ms = Math.max(1, (System.nanoTime() - t0) / 1_000_000);
        err.printf(Locale.ROOT, "wrote %,d orders in %,d ms%n", count, ms);
        return count;
    }

    static boolean accountedFor(Map<SourcePartition, Long> committed, Map<SourcePartition, Long> target) {
        for (Map.Entry<SourcePartition, Long> e : target.entrySet()) {
            if (e.getValue() > 0 && committed.getOrDefault(e.getKey(), 0L) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    private static long sum(Map<TopicPartition, Long> offsets) {
        return offsets.values().stream().mapToLong(Long::longValue).sum();
    }

    static long sumCounters(MeterRegistry registry, String name) {
        return (long) registry.find(name).counters().stream().mapToDouble(Counter::count).sum();
    }

    static long sinkRecords(MeterRegistry registry, String sink) {
        return (long) registry.find(EtlMetrics.SINK_RECORDS).tag(EtlMetrics.TAG_SINK, sink).counters().stream()
                .mapToDouble(Counter::count).sum();
    }

    /** Detects a run where neither input nor commits move. */
    private static final class StallGuard {
        private long lastChange = System.nanoTime();
        private Map<SourcePartition, Long> lastCommitted = Map.of();
        private long lastIn = -1;

        boolean stalled(Map<SourcePartition, Long> committed, MeterRegistry registry) {
            long in = sumCounters(registry, EtlMetrics.SOURCE_RECORDS);
            long now = System.nanoTime();
            if (in != lastIn || !committed.equals(lastCommitted)) {
                lastIn = in;
                lastCommitted = committed;
                lastChange = now;
                return false;
            }
            return now - lastChange > STALL_LIMIT.toNanos();
        }
    }

    /** Prints the progress line every {@value #TICK_MILLIS} ms from its own thread. */
    private final class Reporter implements AutoCloseable {
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

        Reporter(MeterRegistry registry, RunningPipeline running,
                 Supplier<Map<TopicPartition, Long>> ends, long total) {
            this.registry = registry;
            this.running = running;
            this.ends = ends;
            this.total = total;
            this.line = new ProgressLine(err, options.interactive(), 3000);
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
                long in = sumCounters(registry, EtlMetrics.SOURCE_RECORDS);
                double rate = last ? in * 1e9 / Math.max(1, now - started)
                        : (in - lastIn) * 1e9 / Math.max(1, now - lastTick);
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
                    sb.append(' ').append(b).append(' ').append(String.format(Locale.ROOT, "%,d", sinkRecords(registry, b)));
                }
                sb.append(String.format(Locale.ROOT, "  dropped %,d",
                        sumCounters(registry, EtlMetrics.RECORDS_FILTERED) + sumCounters(registry, EtlMetrics.RECORDS_DROPPED)));
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
                SourcePartition p = new SourcePartition(e.getKey().topic(), e.getKey().partition());
                Long c = committed.get(p);
                if (c != null) {
                    lag += Math.max(0, e.getValue() - c);
                } else if (total >= 0) {
                    lag += e.getValue();        // a fresh group on a fresh topic: not committed yet means from 0
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
}
