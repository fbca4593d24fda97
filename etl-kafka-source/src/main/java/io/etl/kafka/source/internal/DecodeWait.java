package io.etl.kafka.source.internal;

import io.etl.core.error.RetryableException;
import io.etl.kafka.common.internal.KafkaErrors;
import java.time.Duration;
import java.util.Objects;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A decoder said a record cannot be decoded <em>yet</em> ({@link RetryableException}, for example a schema
 * registry that does not answer): the source rewinds to that record, pauses its partitions and offers it again
 * after a capped exponential backoff ({@value #INITIAL_BACKOFF_MILLIS} ms doubling to
 * {@value #MAX_BACKOFF_MILLIS} ms). Nothing is skipped; the wait ends when the record decodes. Used on the
 * pipeline thread; {@link #reason()} may be read from any thread (health checks).
 */
final class DecodeWait {

    private static final Logger LOG = LoggerFactory.getLogger(DecodeWait.class);

    static final long INITIAL_BACKOFF_MILLIS = 100;
    static final long MAX_BACKOFF_MILLIS = 5000;

    private final String source;
    private volatile String reason;
    private TopicPartition partition;
    private long offset;
    private int attempts;
    private long sinceNanos;
    private long dueNanos;
    /** True between the end of a backoff and the next outcome: the partitions are resumed to fetch again. */
    private boolean retrying;

    DecodeWait(String source) {
        this.source = Objects.requireNonNull(source, "source");
    }

    /** Whether a record is waiting to be decoded again. */
    boolean waiting() {
        return reason != null;
    }

    /** Whether the partitions must stay paused for the wait (backing off, not yet fetching again). */
    boolean holding() {
        return reason != null && !retrying;
    }

    /** Whether the backoff has passed and the record may be tried again; moves to fetching when so. */
    boolean due(long nowNanos) {
        if (holding() && nowNanos - dueNanos >= 0) {
            retrying = true;
            return true;
        }
        return false;
    }

    /** Why the source waits, for health checks; null when it does not. */
    String reason() {
        return reason;
    }

    /** The record at {@code tp}/{@code offset} could not be decoded yet: back off (longer each time). */
    void failed(TopicPartition tp, long offset, RetryableException e, long nowNanos) {
        String why = KafkaErrors.rootMessage(e);
        if (reason == null) {
            sinceNanos = nowNanos;
            attempts = 0;
            LOG.warn(
                    "source '{}': record {}@{} cannot be decoded yet ({}); its partitions pause and it is tried again"
                            + " with a backoff of up to {} ms: nothing is skipped",
                    source,
                    tp,
                    offset,
                    why,
                    MAX_BACKOFF_MILLIS);
        } else {
            LOG.debug("source '{}': record {}@{} still cannot be decoded: {}", source, tp, offset, why);
        }
        attempts++;
        partition = tp;
        this.offset = offset;
        reason = "source '" + source + "' waits to decode " + tp + "@" + offset + ": " + why;
        retrying = false;
        long backoff = Math.min(MAX_BACKOFF_MILLIS, INITIAL_BACKOFF_MILLIS << Math.min(attempts - 1, 20));
        dueNanos = nowNanos + Duration.ofMillis(backoff).toNanos();
    }

    /**
     * A record was decoded, or failed for good: ends the wait when it is the one that waited (or a later one of
     * its partition).
     */
    void decoded(String topic, int partitionNumber, long recordOffset, long nowNanos) {
        if (partition.partition() == partitionNumber && partition.topic().equals(topic) && recordOffset >= offset) {
            LOG.info(
                    "source '{}': decoding again after {} ms and {} attempt(s)",
                    source,
                    Duration.ofNanos(nowNanos - sinceNanos).toMillis(),
                    attempts);
            end();
        }
    }

    /** Forgets the wait (the waiting partition was revoked or lost, or the record decoded). */
    void end() {
        reason = null;
        partition = null;
        retrying = false;
        attempts = 0;
    }

    /** The partition whose record waits, or null. */
    TopicPartition partition() {
        return partition;
    }
}
