package io.etl.core.internal.chain;

import io.etl.core.config.RetryLevel;
import io.etl.core.config.RetryTopicsConfig;
import io.etl.core.error.ErrorPolicy;
import io.etl.core.error.RecordException;
import io.etl.core.error.RetryLetter;
import io.etl.core.internal.checkpoint.PendingRecord;
import io.etl.core.internal.pool.SinkPool;
import io.etl.core.record.Header;
import io.etl.core.record.RecordMeta;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Where records go under policy {@code retry}: the next level's retry topic, written by the {@code retry} section's
 * sink pool (acknowledged, retried and checkpointed like any output). A record read back from one of the pipeline's
 * own retry topics carries its failures so far in its {@code etl.retry.*} headers; any other record starts afresh,
 * whatever such headers it carries. Pipeline thread only.
 */
public final class Retries {

    private final String pipeline;
    private final RetryTopicsConfig config;
    private final SinkPool<RetryLetter, ?> pool;

    /**
     * @param pipeline the pipeline's name, which the retry letters carry
     * @param config   the levels
     * @param pool     the pool of the sink that writes the retry topics
     */
    public Retries(String pipeline, RetryTopicsConfig config, SinkPool<RetryLetter, ?> pool) {
        this.pipeline = pipeline;
        this.config = config;
        this.pool = pool;
    }

    /** What happens after a failure in the last level. */
    ErrorPolicy then() {
        return config.then();
    }

    /**
     * The letter that takes {@code source} to its next retry topic after it failed with {@code error} at
     * {@code nowMillis}, or null when it has been through every level.
     */
    RetryLetter next(String stage, RecordMeta source, RecordException error, long nowMillis) {
        String originTopic = source.topic();
        String origin = source.position();
        int failures = 0;
        if (pipeline.equals(header(source, RetryLetter.PIPELINE_HEADER))) {
            String first = header(source, RetryLetter.TOPIC_HEADER);
            int attempts = number(header(source, RetryLetter.ATTEMPT_HEADER));
            if (first != null && attempts > 0 && config.topicsFor(first).contains(source.topic())) {
                originTopic = first;
                String firstSource = header(source, RetryLetter.SOURCE_HEADER);
                origin = firstSource != null ? firstSource : origin;
                failures = attempts;
            }
        }
        List<RetryLevel> levels = config.topics();
        if (failures >= levels.size()) {
            return null;
        }
        RetryLevel level = levels.get(failures);
        return new RetryLetter(
                pipeline,
                stage,
                source,
                error,
                level.topicFor(originTopic),
                originTopic,
                origin,
                failures + 1,
                nowMillis + level.after().toMillis(),
                nowMillis);
    }

    /**
     * Hands {@code letter} to the retry pool; its source record is done once the letter is durable.
     *
     * @throws RecordException when the retry sink cannot encode it (too large with its headers, say)
     */
    void send(RetryLetter letter, PendingRecord owner) {
        pool.offer(letter, letter.source(), 0, owner);
    }

    private static String header(RecordMeta meta, String key) {
        List<Header> headers = meta.headers();
        for (int i = headers.size() - 1; i >= 0; i--) {
            Header h = headers.get(i);
            if (h.key().equals(key)) {
                return h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    private static int number(String text) {
        if (text == null) {
            return 0;
        }
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
