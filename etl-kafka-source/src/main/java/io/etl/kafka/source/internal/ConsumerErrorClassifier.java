package io.etl.kafka.source.internal;

import io.etl.core.config.Durations;
import io.etl.core.error.ConfigException;
import io.etl.core.error.FatalException;
import io.etl.kafka.common.internal.KafkaErrors;
import io.etl.kafka.source.KafkaSourceConfig;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.consumer.InvalidOffsetException;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.FencedInstanceIdException;

/**
 * The one place where consumer errors become the framework's taxonomy. Fatal: a partition without a valid
 * committed offset under {@code auto_offset_reset: none}, another instance with the same
 * {@code group_instance_id}, refused credentials or permissions, and any other client error from a poll;
 * every message names the source and what to check.
 *
 * @param name   the source's name, named in every message
 * @param config its settings (brokers, group, {@code auto_offset_reset}, {@code group_instance_id})
 */
record ConsumerErrorClassifier(String name, KafkaSourceConfig config) {

    /** What a poll (or a commit with the same causes) failing with {@code e} throws. */
    RuntimeException classify(RuntimeException e) {
        if (e instanceof OffsetOutOfRangeException outOfRange) {
            return new FatalException(
                    "source '" + name + "': offsets " + outOfRange.offsetOutOfRangePartitions()
                            + " are no longer in the log (records deleted before they were read, or the log"
                            + " truncated) and auto_offset_reset is "
                            + config.autoOffsetReset().name().toLowerCase(Locale.ROOT),
                    e);
        }
        if (e instanceof InvalidOffsetException invalid) {
            return new FatalException(
                    "source '" + name + "': partitions " + invalid.partitions()
                            + " have no valid committed offset and auto_offset_reset is "
                            + config.autoOffsetReset().name().toLowerCase(Locale.ROOT),
                    e);
        }
        if (e instanceof FencedInstanceIdException) {
            return new FatalException(
                    "source '" + name + "': another instance joined group '" + config.groupId()
                            + "' with the same group_instance_id '" + config.groupInstanceId() + "'",
                    e);
        }
        if (KafkaErrors.isAccessRefused(e)) {
            return new FatalException(
                    "source '" + name + "': brokers " + config.brokers() + " refused the consumer: "
                            + KafkaErrors.rootMessage(e),
                    e);
        }
        if (e instanceof KafkaException) {
            return new FatalException("source '" + name + "': polling failed: " + KafkaErrors.rootMessage(e), e);
        }
        return e;
    }

    /**
     * Whether an asynchronous commit failing with {@code error} means no later commit can succeed either (the
     * next poll throws it), rather than one the next commit covers.
     */
    static boolean stopsCommitting(Exception error) {
        return error instanceof FencedInstanceIdException || error instanceof AuthorizationException;
    }

    /** The failure of a synchronous commit outside a rebalance, bounded by {@code timeout}. */
    FatalException commitFailed(Map<TopicPartition, OffsetAndMetadata> commit, Duration timeout, RuntimeException e) {
        return new FatalException(
                "source '" + name + "': committing offsets " + commit + " failed within " + Durations.format(timeout)
                        + ": " + KafkaErrors.rootMessage(e),
                e);
    }

    /** kafka-clients refused to create the consumer from its properties. */
    ConfigException clientRefused(String path, KafkaException e) {
        return ConfigException.of(
                path + ".consumer", "the Kafka consumer rejected its configuration: " + KafkaErrors.rootMessage(e), e);
    }
}
