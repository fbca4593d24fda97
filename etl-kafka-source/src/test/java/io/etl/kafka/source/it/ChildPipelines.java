package io.etl.kafka.source.it;

import java.nio.file.Path;
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

    @Override
    public void afterEach(ExtensionContext context) {
        started.forEach(ChildPipeline::close);
        started.clear();
    }
}
