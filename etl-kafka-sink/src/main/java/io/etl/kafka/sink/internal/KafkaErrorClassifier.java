package io.etl.kafka.sink.internal;

import io.etl.core.error.EtlException;
import io.etl.core.error.FatalException;
import io.etl.core.error.RetryableException;
import io.etl.kafka.common.internal.KafkaErrors;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.errors.UnsupportedVersionException;

/**
 * The one place where producer errors become the framework's taxonomy. Fatal: authorization and
 * authentication failures, a message too large at the broker, a missing or invalid topic, the idempotent
 * producer's fenced/sequence states, an unsupported broker version, a record the broker refuses.
 * Retryable: everything else (timeouts, disconnects, not-enough-replicas, leader changes, any
 * {@code RetriableException}, and unknown errors), because retrying the whole batch risks duplicates,
 * never loss.
 *
 * <p>Before a batch is classified, the writer takes out the messages refused on their own account
 * ({@link #concernsOneRecord}): those are record errors under the sink's {@code on_error} policy, and the
 * rest of the batch is judged without them.
 */
final class KafkaErrorClassifier {

    private final String topic;
    private final String principal;

    /**
     * @param topic     the sink's topic, named in every message
     * @param principal the principal the brokers see (e.g. {@code User:etl}), or null when unknown
     */
    KafkaErrorClassifier(String topic, String principal) {
        this.topic = topic;
        this.principal = principal;
    }

    /** A {@link RetryableException} or a {@link FatalException} for {@code error}. */
    EtlException classify(Throwable error) {
        if (error instanceof RetryableException r) {
            return r;
        }
        if (error instanceof FatalException f) {
            return f;
        }
        Throwable e = KafkaErrors.unwrap(error);
        String detail = KafkaErrors.describe(e);
        if (e instanceof AuthorizationException) {
            String what = e instanceof ClusterAuthorizationException
                    ? " lacks the cluster permission an idempotent producer needs (WRITE on topic '" + topic
                            + "' or IDEMPOTENT_WRITE on the cluster)"
                    : " is not authorized to write to topic '" + topic + "'";
            return new FatalException(
                    (principal == null ? "the sink's principal" : "principal " + principal) + what + ": " + detail, e);
        }
        if (e instanceof AuthenticationException) {
            return new FatalException(
                    "authentication " + (principal == null ? "" : "as " + principal + " ")
                            + "failed while writing to topic '" + topic + "': " + detail,
                    e);
        }
        if (e instanceof RecordTooLargeException || e instanceof RecordBatchTooLargeException) {
            return new FatalException(
                    "the broker refused a message for topic '" + topic + "' as too large; align"
                            + " max_message_bytes with the topic's max.message.bytes: " + detail,
                    e);
        }
        if (e instanceof UnknownTopicOrPartitionException) {
            return missingTopic(e);
        }
        if (e instanceof InvalidTopicException) {
            return new FatalException("topic '" + topic + "' is not a valid topic to write to: " + detail, e);
        }
        if (e instanceof ProducerFencedException
                || e instanceof OutOfOrderSequenceException
                || e instanceof UnsupportedVersionException
                || e instanceof InvalidRecordException
                || e instanceof SerializationException
                || e instanceof InvalidConfigurationException) {
            return new FatalException("writing to topic '" + topic + "' failed and retrying cannot help: " + detail, e);
        }
        return new RetryableException("writing to topic '" + topic + "' failed: " + detail, e);
    }

    /** The fatal error for a topic that does not exist. */
    FatalException missingTopic(Throwable cause) {
        return new FatalException(
                "topic '" + topic + "' does not exist (and the sink does not rely on auto-creation;"
                        + " create it or list it under topics)",
                cause);
    }

    /**
     * Whether {@code error}, reported for one message, concerns that message alone: the broker (or the client's
     * own size check) refuses it as too large for the topic, or as invalid for it (for example a null key on a
     * compacted topic). Writing it again can never succeed, and the messages around it are not at fault.
     */
    static boolean concernsOneRecord(Throwable error) {
        Throwable e = KafkaErrors.unwrap(error);
        return e instanceof RecordTooLargeException || e instanceof InvalidRecordException;
    }

    /**
     * Whether {@code error} is what the producer reports for the healthy messages of a produce request in which the
     * broker refused some records individually (a plain {@code KafkaException}, not an API error).
     */
    static boolean isCollateral(Throwable error) {
        return error instanceof KafkaException && !(error instanceof ApiException) && error.getCause() == null;
    }

    /** Whether the producer may be unusable after {@code error} and should be replaced before the next attempt. */
    static boolean poisonsProducer(Throwable error) {
        Throwable e = KafkaErrors.unwrap(error);
        return e instanceof ProducerFencedException
                || e instanceof OutOfOrderSequenceException
                || e instanceof UnsupportedVersionException
                || e instanceof ClusterAuthorizationException
                || (e instanceof KafkaException && !(e instanceof ApiException));
    }

    /** Whether {@code error} is a timeout, possibly from metadata for a topic that does not exist. */
    static boolean isTimeout(Throwable error) {
        return KafkaErrors.unwrap(error) instanceof TimeoutException;
    }
}
