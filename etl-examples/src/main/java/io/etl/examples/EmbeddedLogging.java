package io.etl.examples;

import io.etl.runtime.Logging;
import java.util.List;

/** How the examples' demonstration runs keep an embedded broker's own log lines out of the terminal. */
public final class EmbeddedLogging {

    private EmbeddedLogging() {}

    /**
     * The embedded broker's own warnings (controller activation, its internal clients closing, the kit's
     * readiness check knocking while a broker boots) mean nothing to someone running a demo; keeps them out of
     * the terminal unless the kit's log level ({@code -Detl.test.kafka.log}) was set.
     */
    public static void quiet() {
        if (System.getProperty("etl.test.kafka.log") != null) {
            return;
        }
        for (String logger : List.of(
                "kafka",
                "state.change.logger",
                "org.apache.kafka.controller",
                "org.apache.kafka.raft",
                "org.apache.kafka.server",
                "org.apache.kafka.clients.NetworkClient")) {
            Logging.level(logger, "error");
        }
        Logging.level("io.etl.testkit", "warn");
    }
}
