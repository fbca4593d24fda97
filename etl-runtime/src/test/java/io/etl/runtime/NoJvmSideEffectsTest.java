package io.etl.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.core.Pipeline;
import io.etl.core.PipelineResult;
import io.etl.core.PipelineState;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.testkit.driver.PipelineTestDriver;
import io.etl.testkit.driver.TestSink;
import io.etl.testkit.driver.TestSource;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The library leaves the JVM alone: starting or running a pipeline registers no shutdown hook (the runtime
 * owns signals and exit codes). Reads {@code java.lang.ApplicationShutdownHooks} (the surefire JVM opens
 * {@code java.lang} for it).
 */
class NoJvmSideEffectsTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @SuppressWarnings("unchecked")
    private static Set<Thread> shutdownHooks() throws Exception {
        Class<?> hooks = Class.forName("java.lang.ApplicationShutdownHooks");
        Field field = hooks.getDeclaredField("hooks");
        field.setAccessible(true);
        synchronized (hooks) {
            return Set.copyOf(((Map<Thread, Thread>) field.get(null)).keySet());
        }
    }

    @Test
    void theProbeSeesAHookThatIsAdded() throws Exception {
        Set<Thread> before = shutdownHooks();
        Thread probe = new Thread(() -> {}, "probe");
        Runtime.getRuntime().addShutdownHook(probe);
        try {
            assertThat(shutdownHooks()).containsAll(before).contains(probe).hasSize(before.size() + 1);
        } finally {
            Runtime.getRuntime().removeShutdownHook(probe);
        }
        assertThat(shutdownHooks()).isEqualTo(before);
    }

    @Test
    void startLeavesNoShutdownHookBehind() throws Exception {
        Set<Thread> before = shutdownHooks();
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.source("in", 1);
            TestSink<String> out = driver.sink("out");
            RunningPipeline running =
                    driver.start(Pipeline.named("quiet").from(in).to(out));
            await().atMost(WAIT).until(() -> running.state() == PipelineState.RUNNING);
            in.send("k", "v");
            driver.awaitCommitted(WAIT);
            assertThat(shutdownHooks()).as("while running").isEqualTo(before);
            assertThat(running.stopAndWait(WAIT).succeeded()).isTrue();
        }
        assertThat(shutdownHooks()).as("after the stop").isEqualTo(before);
    }

    @Test
    void runLeavesNoShutdownHookAndStopsWhenItsThreadIsInterrupted() throws Exception {
        Set<Thread> before = shutdownHooks();
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.source("in", 1);
            TestSink<String> out = driver.sink("out");
            Pipeline pipeline = Pipeline.named("blocking").from(in).to(out).build();
            CompletableFuture<PipelineResult> result = new CompletableFuture<>();
            Thread caller = new Thread(() -> result.complete(pipeline.run(PipelineConfig.defaults())), "caller");
            caller.start();
            in.send("k", "v");
            await().atMost(WAIT).until(() -> out.values().contains("v"));
            assertThat(shutdownHooks()).as("while run() blocks").isEqualTo(before);

            caller.interrupt();
            PipelineResult r = result.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertThat(r.succeeded()).isTrue();
            assertThat(in.committed(0)).isEqualTo(1L);
        }
        assertThat(shutdownHooks()).isEqualTo(before);
    }
}
