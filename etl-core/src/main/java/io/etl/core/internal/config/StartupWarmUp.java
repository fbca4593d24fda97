package io.etl.core.internal.config;

import io.etl.core.config.CheckpointConfig;
import io.etl.core.config.ConnectorConfigType;
import io.etl.core.config.MetricsConfig;
import io.etl.core.config.PipelineSection;
import io.etl.core.config.SinkPoolConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.LoggerFactory;

/**
 * Once per JVM, a daemon thread does ahead of time what loading a configuration will need: the YAML parser, the
 * validator, the readers and the validation metadata of every section record, and each connector type's
 * {@link ConnectorConfigType#warmUp() warm-up} of its clients' classes. It starts either when a launcher asks for it
 * first thing ({@link #start()}), so that it overlaps with the launcher's own start, or once the connector types are
 * known. On a machine with a spare core the loading thread then finds that work done; without one it costs nothing
 * extra, because the same work would follow anyway. Logging is initialized on the thread that starts it, before the
 * warm-up thread exists, so that no line is logged while SLF4J is still initializing.
 */
final class StartupWarmUp {

    /** The core's own section records, in the order a pipeline file usually lists them. */
    private static final List<Class<?>> CORE_SECTIONS = List.of(
            PipelineSection.class,
            PipelineBinder.SourceKeys.class,
            SinkPoolConfig.class,
            CheckpointConfig.class,
            MetricsConfig.class);

    private static final AtomicBoolean STARTED = new AtomicBoolean();
    private static final CountDownLatch DONE = new CountDownLatch(1);

    private StartupWarmUp() {}

    /** Starts the warm-up for the connector types on the class path, unless one already ran in this JVM. */
    static void start() {
        start(() -> {
            YamlTrees.warmUp();
            return ConnectorRegistry.discovered().all();
        });
    }

    /** Starts the warm-up for {@code types}, unless one already ran in this JVM. */
    static void start(Collection<? extends ConnectorConfigType<?>> types) {
        start(() -> types);
    }

    private static void start(TypeSource types) {
        if (!STARTED.compareAndSet(false, true)) {
            return;
        }
        // logging is set up here, before the warm-up thread exists: while one thread initializes SLF4J, every
        // other thread gets a stand-in logger (and a stand-in logger factory), and the lines logged meanwhile
        // are replayed later with a warning on stderr
        LoggerFactory.getILoggerFactory();
        Thread thread = new Thread(() -> run(types), "etl-warm-up");
        thread.setDaemon(true);
        thread.setPriority(Thread.MIN_PRIORITY);
        thread.start();
    }

    private static void run(TypeSource source) {
        try {
            warmUp(source);
        } finally {
            DONE.countDown();
        }
    }

    private static void warmUp(TypeSource source) {
        long started = System.nanoTime();
        Collection<? extends ConnectorConfigType<?>> types = List.of();
        try {
            types = source.types();
            // the validator first: the loading thread needs it within moments, the connectors' clients only later
            ConfigValidator.warmUp();
            List<Class<?>> sections = new ArrayList<>(CORE_SECTIONS);
            types.forEach(type -> sections.add(type.type()));
            for (Class<?> section : sections) {
                SectionBinder.warmUp(section);
                ConfigValidator.warmUp(section);
            }
        } catch (RuntimeException | LinkageError e) {
            debug("warming up the configuration loading failed: {}", e.toString());
        }
        for (ConnectorConfigType<?> type : types) {
            try {
                type.warmUp();
            } catch (RuntimeException | LinkageError e) {
                debug("warming up {} connector '{}' failed: {}", type.role(), type.key(), e.toString());
            }
        }
        debug("warm-up done in {} ms", (System.nanoTime() - started) / 1_000_000);
    }

    /**
     * Starts the warm-up unless it started, then waits for it up to {@code timeout}; true when it finished (also
     * when a step failed with an error no step catches: a waiter is never left waiting for a thread that died).
     */
    static boolean await(Duration timeout) {
        start();
        try {
            return DONE.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Looked up when used: the warm-up logs only at DEBUG, and only once it ran. */
    private static void debug(String format, Object... arguments) {
        LoggerFactory.getLogger(StartupWarmUp.class).debug(format, arguments);
    }

    /** Where the connector types come from: given, or discovered on the warm-up thread itself. */
    @FunctionalInterface
    private interface TypeSource {
        Collection<? extends ConnectorConfigType<?>> types();
    }
}
