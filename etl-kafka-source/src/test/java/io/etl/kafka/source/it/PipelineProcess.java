package io.etl.kafka.source.it;

import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.metrics.EtlMetrics;
import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Runs one of {@link Pipelines} from a YAML file until SIGTERM or an error, then exits with the run's exit
 * code: {@code java ... PipelineProcess <split|copy> <config.yaml>}.
 *
 * <p>The library leaves the process alone (no shutdown hook of its own), so this test launcher, like the
 * {@code etl-runtime} launcher, turns SIGTERM into a drain itself: here with a plain shutdown hook. With
 * {@code -Detl.test.meters=true} (which {@link ChildPipeline} passes on from the test JVM) it also prints a line of
 * checkpoint and sink meters every 100 ms.
 */
public final class PipelineProcess {

    /** The meters {@link #logMeters} prints, summed over their tags. */
    private static final List<String> LOGGED_METERS = List.of(
            EtlMetrics.SOURCE_RECORDS,
            EtlMetrics.CHECKPOINT_COMMITS,
            EtlMetrics.CHECKPOINT_REPLAY_WINDOW,
            EtlMetrics.CHECKPOINT_PENDING_RECORDS,
            EtlMetrics.SINK_INFLIGHT_BATCHES,
            EtlMetrics.SINK_RECORDS);

    private PipelineProcess() {}

    public static void main(String[] args) {
        PipelineConfig config = PipelineConfig.load(Path.of(args[1]));
        RunningPipeline running = Pipelines.named(args[0], config).start(config);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            PipelineResult result =
                                    running.stopAndWait(config.pipeline().shutdownTimeout());
                            System.out.println("pipeline result: " + result);
                            System.out.flush();
                            Runtime.getRuntime().halt(result.exitCode());
                        },
                        "pipeline-process-stop"));
        if (Boolean.getBoolean("etl.test.meters")) {
            ScheduledExecutorService meters = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "pipeline-process-meters");
                t.setDaemon(true);
                return t;
            });
            meters.scheduleAtFixedRate(() -> logMeters(running.meterRegistry()), 0, 100, TimeUnit.MILLISECONDS);
        }
        PipelineResult result = running.result().join();
        System.out.println("pipeline result: " + result);
        System.exit(result.exitCode());
    }

    /**
     * Prints one {@code meters ...} line: records read, commits sent, the replay window, records pending, batches
     * in flight and records written, so the last line before a SIGKILL shows what the dead copy held.
     */
    private static void logMeters(MeterRegistry registry) {
        StringBuilder line = new StringBuilder("meters ").append(System.currentTimeMillis());
        for (String name : LOGGED_METERS) {
            double sum = 0;
            for (Meter meter : registry.find(name).meters()) {
                for (Measurement m : meter.measure()) {
                    sum += m.getValue();
                }
            }
            line.append(' ').append(name).append('=').append((long) sum);
        }
        System.out.println(line);
    }
}
