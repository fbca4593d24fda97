package io.etl.testkit.internal;

import java.util.List;
import java.util.Locale;

/**
 * Keeps Kafka's own logging quiet (WARN) unless {@code -Detl.test.kafka.log=LEVEL} asks for more.
 *
 * <p>Works through slf4j-simple's system properties ({@code org.slf4j.simpleLogger.log.<name>}), which
 * it reads when a logger is first created; so this must run before the broker classes log. A level a
 * user set explicitly for one of these loggers is left alone. Other SLF4J bindings (logback, log4j2)
 * take their levels from their own configuration files.
 */
public final class KafkaLogging {

    /** System property that sets the level of Kafka's loggers (default WARN). */
    public static final String LEVEL_PROPERTY = "etl.test.kafka.log";
    /** Default level for Kafka's loggers. */
    public static final String DEFAULT_LEVEL = "WARN";

    private static final List<String> KAFKA_LOGGERS = List.of("kafka", "org.apache.kafka", "state.change.logger");

    private KafkaLogging() {}

    /** Applies the level to Kafka's loggers; idempotent. */
    public static synchronized void configure() {
        String level = level();
        for (String logger : KAFKA_LOGGERS) {
            String key = "org.slf4j.simpleLogger.log." + logger;
            if (System.getProperty(key) == null) {
                System.setProperty(key, level.toLowerCase(Locale.ROOT));
            }
        }
    }

    /** @return the configured level, upper case */
    public static String level() {
        return System.getProperty(LEVEL_PROPERTY, DEFAULT_LEVEL).trim().toUpperCase(Locale.ROOT);
    }
}
