package io.etl.core.internal.config;

import io.etl.core.config.ConnectorConfigType;
import java.util.Collection;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Once per JVM, as soon as the connector types are known: a daemon thread builds the configuration validator and
 * lets every connector type {@link ConnectorConfigType#warmUp() warm up} its clients' classes, while the loading
 * thread goes on parsing and binding the YAML. On a machine with a spare core the class loading of the next steps
 * then overlaps with this one; without one it costs nothing extra, because the same work would follow anyway.
 */
final class StartupWarmUp {

    private static final Logger LOG = LoggerFactory.getLogger(StartupWarmUp.class);
    private static final AtomicBoolean STARTED = new AtomicBoolean();

    private StartupWarmUp() {}

    /** Starts the warm-up of the validator and of {@code types}, unless one already ran in this JVM. */
    static void start(Collection<? extends ConnectorConfigType<?>> types) {
        if (!STARTED.compareAndSet(false, true)) {
            return;
        }
        Thread thread = new Thread(() -> run(types), "etl-warm-up");
        thread.setDaemon(true);
        thread.setPriority(Thread.MIN_PRIORITY);
        thread.start();
    }

    private static void run(Collection<? extends ConnectorConfigType<?>> types) {
        long started = System.nanoTime();
        // the validator first: the loading thread needs it within moments, the connectors' clients only later
        try {
            ConfigValidator.warmUp();
        } catch (RuntimeException | LinkageError e) {
            LOG.debug("warming up the configuration validator failed: {}", e.toString());
        }
        for (ConnectorConfigType<?> type : types) {
            try {
                type.warmUp();
            } catch (RuntimeException | LinkageError e) {
                LOG.debug("warming up {} connector '{}' failed: {}", type.role(), type.key(), e.toString());
            }
        }
        LOG.debug("warm-up done in {} ms", (System.nanoTime() - started) / 1_000_000);
    }
}
