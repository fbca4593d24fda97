package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The pipeline JVMs one test starts, each logging to {@code target/it-logs/<name>.log}; whatever is still
 * running is killed after the test. Register it with {@code @RegisterExtension}.
 */
final class ChildPipelines implements AfterEachCallback {

    private static final Path LOGS = Path.of("target", "it-logs");

    private final List<ChildPipeline> started = new ArrayList<>();

    /** Starts pipeline {@code kind} (see {@link PipelineProcess}) with {@code yaml}, logging to {@code logName}.log. */
    ChildPipeline start(String kind, Path yaml, String logName) {
        ChildPipeline child = ChildPipeline.start(kind, yaml, LOGS.resolve(logName + ".log"));
        started.add(child);
        return child;
    }

    /** The one started last. */
    ChildPipeline last() {
        if (started.isEmpty()) {
            throw new IllegalStateException("no pipeline JVM started yet");
        }
        return started.get(started.size() - 1);
    }

    /**
     * Awaits {@code step} for at most {@code atMost}, calling it every {@code poll} with the JVM started last
     * (it may start the next one); fails at once, with that JVM's log, when it exited on its own.
     */
    void awaitWhileRunning(Duration atMost, Duration poll, Step step) {
        await().atMost(atMost).pollInterval(poll).until(() -> {
            ChildPipeline current = last();
            assertThat(current.isAlive())
                    .as("pipeline JVM exited early:%n%s", current.tail())
                    .isTrue();
            return step.done(current);
        });
    }

    /** One look at a running test: true once it is done. */
    @FunctionalInterface
    interface Step {
        boolean done(ChildPipeline current) throws Exception;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        started.forEach(ChildPipeline::close);
        started.clear();
    }
}
