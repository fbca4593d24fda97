package io.etl.examples.split;

import io.etl.core.Pipeline;
import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.source.SourcePartition;
import io.etl.examples.PipelineReport;
import io.etl.runtime.ExitCodes;
import io.etl.runtime.HttpEndpoint;
import io.etl.runtime.StopSignal;
import io.etl.testkit.KafkaTestCluster;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.PrintStream;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.apache.kafka.common.TopicPartition;

/**
 * The demonstration run of the {@code kafka_to_kafka_split} pipeline ({@link #toCompletion}): on a cluster the
 * caller owns (the program's embedded broker, or a test's), write {@code N} sample orders, run until every one
 * is accounted for with a live progress line, stop, count the output topics and print the summary. The
 * service mode is the runtime's ({@link io.etl.runtime.PipelineService}).
 */
public final class SplitRun {

    /** Partitions of each topic the run creates. */
    public static final int PARTITIONS = 6;
    /** The program gives up when nothing moves for this long while input is still unaccounted for. */
    public static final Duration STALL_LIMIT = Duration.ofSeconds(60);

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
    public record Options(
            int records, Integer metricsPort, PrintStream out, PrintStream err, boolean interactive, StopSignal stop) {}

    /**
     * How a run ended.
     *
     * @param summary  the counts
     * @param result   how the pipeline ended
     * @param exitCode what the program should exit with
     */
    public record Outcome(SplitSummary summary, PipelineResult result, int exitCode) {}

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
    public static Outcome toCompletion(
            KafkaTestCluster cluster, String yaml, Function<String, String> env, Options options) {
        return new SplitRun(options).demo(cluster, yaml, env);
    }

    private Outcome demo(KafkaTestCluster cluster, String yaml, Function<String, String> env) {
        String brokers = cluster.bootstrapServers();
        PipelineConfig config =
                PipelineConfig.parse(yaml, name -> "KAFKA_BROKERS".equals(name) ? brokers : env.apply(name));
        Pipeline pipeline = KafkaToKafkaSplit.pipeline(config);
        String input = SplitTopics.input(config);
        Map<String, String> topics = SplitTopics.outputs(config);

        SplitTopics.ensure(cluster, input, topics.values());
        long written = SampleOrders.write(cluster, input, options.records(), err);
        Map<TopicPartition, Long> ends = cluster.endOffsets(input);
        long inputCount = sum(ends);
        Map<String, Long> expected =
                inputCount == written ? OrderGenerator.expectedCounts(options.records()) : Map.of();
        if (inputCount != written) {
            err.printf(
                    Locale.ROOT,
                    "note: topic %s already held %,d records; counting all of them%n",
                    input,
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
                SplitProgress progress =
                        new SplitProgress(err, options.interactive(), registry, running, () -> ends, inputCount)) {
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
            progress.close();
            result = early != null
                    ? early
                    : running.stopAndWait(config.pipeline().shutdownTimeout());
        }

        Map<String, Long> outputs = new LinkedHashMap<>();
        topics.forEach((branch, topic) -> outputs.put(branch, sum(cluster.endOffsets(topic))));
        long skipped = SplitMeters.skipped(registry);
        long dropped = SplitMeters.dropped(registry);
        SplitSummary summary = new SplitSummary(inputCount, dropped, skipped, outputs, topics, expected, elapsedMs);
        PipelineReport.print(result, err);
        summary.print(out);
        int exit;
        if (interrupted) {
            err.println("interrupted before every order was accounted for");
            exit = ExitCodes.SECOND_SIGNAL;
        } else if (!result.succeeded() || summary.lost()) {
            exit = 1;
        } else {
            exit = 0;
        }
        return new Outcome(summary, result, exit);
    }

    private HttpEndpoint serveHttp(PrometheusMeterRegistry registry, AtomicReference<RunningPipeline> running) {
        if (options.metricsPort() == null) {
            return null;
        }
        HttpEndpoint server = HttpEndpoint.start("127.0.0.1", options.metricsPort(), registry, running::get);
        err.println("metrics: http://" + server.address() + HttpEndpoint.METRICS_PATH);
        return server;
    }

    /** Whether {@code committed} reaches {@code target} on every partition that has records. */
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
}
