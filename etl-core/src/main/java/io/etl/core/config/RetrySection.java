package io.etl.core.config;

import java.util.Objects;

/**
 * The top-level {@code retry} section: its levels, and the connector section that writes the retry topics (shaped like
 * a sink entry without a topic, e.g. {@code kafka: {brokers: ...}}, pool keys included except {@code on_error}).
 *
 * @param levels the retry levels and what follows the last
 * @param writer the connector section that writes the retry topics, named {@value #NAME}
 */
public record RetrySection(RetryTopicsConfig levels, SinkSection writer) {

    /** The section's key, and the name of the sink that writes the retry topics. */
    public static final String NAME = "retry";

    public RetrySection {
        Objects.requireNonNull(levels, "levels");
        Objects.requireNonNull(writer, "writer");
    }
}
