package io.etl.core.config;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.time.Duration;
import java.util.Objects;

/**
 * One level of delayed retries ({@code retry.topics[]}): how long a record waits in it, and the suffix that names its
 * topic after the topic the record was first read from ({@code orders} becomes {@code orders-retry-10s}). Levels with
 * the same suffix share a topic.
 *
 * @param after  how long after its failure the record is tried again; above zero
 * @param suffix appended to the topic the record was first read from; default {@code -retry-<after>}
 */
public record RetryLevel(
        @NotNull Duration after,

        @Pattern(regexp = "[a-zA-Z0-9._-]+", message = "may hold only letters, digits, '.', '_' and '-'")
        String suffix) {

    /**
     * The level's settings; a null {@code suffix} becomes {@code -retry-<after>}.
     *
     * @throws io.etl.core.error.ConfigException when {@code after} is missing or the suffix holds other characters
     */
    public RetryLevel(Duration after, String suffix) {
        this.after = after;
        this.suffix = suffix == null && after != null ? "-retry-" + Durations.format(after) : suffix;
        ConfigValidation.checkConstructed(this);
    }

    /** A level of {@code after} with the default suffix. */
    public static RetryLevel after(Duration after) {
        return new RetryLevel(Objects.requireNonNull(after, "after"), null);
    }

    /** The topic of this level for records first read from {@code topic}. */
    public String topicFor(String topic) {
        return topic + suffix;
    }
}
