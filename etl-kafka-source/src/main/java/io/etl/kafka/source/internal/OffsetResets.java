package io.etl.kafka.source.internal;

import io.etl.kafka.common.internal.KafkaErrors;
import io.etl.kafka.source.KafkaSourceConfig;
import io.etl.kafka.source.KafkaSourceConfig.AutoOffsetReset;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.NoOffsetForPartitionException;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies {@code auto_offset_reset} itself, so that no jump over unread records goes unreported. The consumer runs
 * with {@code auto.offset.reset=none}: a partition without a committed offset, and a position the log no longer
 * holds (records deleted by retention or {@code deleteRecords} before they were read, or a log truncated below
 * it), surface from {@code poll} as exceptions instead of being reset in silence. A partition without a committed
 * offset starts where the policy says, as the client would have started it. A position below the log's start is
 * moved to the start ({@code earliest}) or the end ({@code latest}), and the records jumped over are reported: one
 * WARN line naming the partition, the group's committed offset, the position and where reading goes on, and the
 * {@code etl_kafka_source_offset_gaps_total} and {@code etl_kafka_source_offset_gap_records_total} counters. A
 * position past the log's end is moved the same way with a WARN (records may be read again, none skipped). Under
 * {@code none} nothing is resolved here and the poll fails, as before.
 */
final class OffsetResets {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaConsumerSource.class);

    /** Bound of each lookup (log start and end offsets, the committed offset) made to resolve an out-of-range. */
    static final Duration LOOKUP_TIMEOUT = Duration.ofSeconds(10);

    private final String name;
    private final KafkaSourceConfig config;
    private final Consumer<byte[], byte[]> consumer;
    private final SourceMeters meters;

    OffsetResets(String name, KafkaSourceConfig config, Consumer<byte[], byte[]> consumer, SourceMeters meters) {
        this.name = name;
        this.config = config;
        this.consumer = consumer;
        this.meters = meters;
    }

    /**
     * Resolves {@code e} when it is a missing or out-of-range position that the policy resolves.
     *
     * @return whether it was resolved (the poll then returns no records, and the next one reads on); {@code false}
     *         for any other error, and for these under {@code auto_offset_reset: none}
     */
    boolean resolve(RuntimeException e) {
        if (config.autoOffsetReset() == AutoOffsetReset.NONE) {
            return false;
        }
        if (e instanceof NoOffsetForPartitionException missing) {
            startWithoutCommittedOffset(assignedOf(missing.partitions()));
            return true;
        }
        if (e instanceof OffsetOutOfRangeException outOfRange) {
            Map<TopicPartition, Long> positions = new HashMap<>(outOfRange.offsetOutOfRangePartitions());
            positions.keySet().retainAll(consumer.assignment());
            if (!positions.isEmpty()) {
                moveOutOfRange(positions);
            }
            return true;
        }
        return false;
    }

    private Set<TopicPartition> assignedOf(Set<TopicPartition> partitions) {
        Set<TopicPartition> assigned = consumer.assignment();
        return partitions.stream().filter(assigned::contains).collect(Collectors.toSet());
    }

    private void startWithoutCommittedOffset(Set<TopicPartition> partitions) {
        if (partitions.isEmpty()) {
            return;
        }
        if (config.autoOffsetReset() == AutoOffsetReset.EARLIEST) {
            consumer.seekToBeginning(partitions);
        } else {
            consumer.seekToEnd(partitions);
        }
        LOG.info(
                "source '{}': {} without a committed offset in group '{}': reading from the {} offset"
                        + " (auto_offset_reset)",
                name,
                partitions,
                config.groupId(),
                policy());
    }

    private void moveOutOfRange(Map<TopicPartition, Long> positions) {
        Map<TopicPartition, Long> start;
        Map<TopicPartition, Long> end;
        Map<TopicPartition, OffsetAndMetadata> committed;
        try {
            start = consumer.beginningOffsets(positions.keySet(), LOOKUP_TIMEOUT);
            end = consumer.endOffsets(positions.keySet(), LOOKUP_TIMEOUT);
            committed = consumer.committed(positions.keySet(), LOOKUP_TIMEOUT);
        } catch (KafkaException lookupFailed) {
            // nothing moved: the next poll meets the same position and tries again
            LOG.warn(
                    "source '{}': positions {} are out of range, and looking up where the logs start and end failed:"
                            + " {}; trying again at the next poll",
                    name,
                    positions,
                    KafkaErrors.rootMessage(lookupFailed));
            return;
        }
        positions.forEach((tp, position) -> {
            long logStart = start.get(tp);
            long logEnd = end.get(tp);
            if (position >= logStart && position <= logEnd) {
                // in range again (the error was about a log that has changed since): read on from there
                consumer.seek(tp, position);
                LOG.debug("source '{}': partition {}: offset {} is in range again", name, tp, position);
                return;
            }
            long next = config.autoOffsetReset() == AutoOffsetReset.EARLIEST ? logStart : logEnd;
            consumer.seek(tp, next);
            OffsetAndMetadata c = committed.get(tp);
            String committedText = c == null ? "none" : Long.toString(c.offset());
            if (position < logStart) {
                long skipped = next - position;
                meters.offsetGap(skipped);
                LOG.warn(
                        "source '{}': partition {}: {} record(s) from offset {} to {} were never read: the log now"
                                + " starts at {} (deleted by retention or deleteRecords); group '{}' committed offset"
                                + " {}; reading on from offset {} (auto_offset_reset: {})",
                        name,
                        tp,
                        skipped,
                        position,
                        next - 1,
                        logStart,
                        config.groupId(),
                        committedText,
                        next,
                        policy());
            } else {
                LOG.warn(
                        "source '{}': partition {}: offset {} is past the end of the log ({}; the log was truncated or"
                                + " the topic re-created); group '{}' committed offset {}; reading from offset {}"
                                + " (auto_offset_reset: {}): records from there may be processed again",
                        name,
                        tp,
                        position,
                        logEnd,
                        config.groupId(),
                        committedText,
                        next,
                        policy());
            }
        });
    }

    private String policy() {
        return config.autoOffsetReset().name().toLowerCase(Locale.ROOT);
    }
}
