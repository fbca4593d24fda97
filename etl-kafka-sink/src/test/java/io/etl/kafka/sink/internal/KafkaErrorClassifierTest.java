package io.etl.kafka.sink.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.error.FatalException;
import io.etl.core.error.RetryableException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.NetworkException;
import org.apache.kafka.common.errors.NotEnoughReplicasAfterAppendException;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.Test;

class KafkaErrorClassifierTest {

    private final KafkaErrorClassifier classifier = new KafkaErrorClassifier("orders", "User:etl");

    @Test
    void transientBrokerAndNetworkErrorsAreRetryable() {
        for (Exception e : new Exception[] {
            new TimeoutException("t"),
            new NetworkException("n"),
            new NotEnoughReplicasException("r"),
            new NotEnoughReplicasAfterAppendException("a"),
            new NotLeaderOrFollowerException("l"),
            new IllegalStateException("?"),
            new KafkaException("odd")
        }) {
            assertThat(classifier.classify(e))
                    .as(e.toString())
                    .isInstanceOf(RetryableException.class)
                    .hasMessageContaining("orders");
        }
    }

    @Test
    void authorizationIsFatalAndNamesTopicAndPrincipal() {
        assertThat(classifier.classify(new TopicAuthorizationException("denied")))
                .isInstanceOf(FatalException.class)
                .hasMessageContaining("User:etl")
                .hasMessageContaining("'orders'");
        assertThat(classifier.classify(new KafkaException("wrapped", new ClusterAuthorizationException("no"))))
                .isInstanceOf(FatalException.class)
                .hasMessageContaining("User:etl");
    }

    @Test
    void permanentErrorsAreFatal() {
        for (Exception e : new Exception[] {
            new SaslAuthenticationException("bad"),
            new RecordTooLargeException("big"),
            new UnknownTopicOrPartitionException("gone"),
            new ProducerFencedException("f"),
            new OutOfOrderSequenceException("o")
        }) {
            assertThat(classifier.classify(e))
                    .as(e.toString())
                    .isInstanceOf(FatalException.class)
                    .hasMessageContaining("orders");
        }
    }

    @Test
    void fencedAndSequenceStatesReplaceTheProducer() {
        assertThat(KafkaErrorClassifier.poisonsProducer(new OutOfOrderSequenceException("o")))
                .isTrue();
        assertThat(KafkaErrorClassifier.poisonsProducer(new KafkaException("fatal state")))
                .isTrue();
        assertThat(KafkaErrorClassifier.poisonsProducer(new NotEnoughReplicasException("r")))
                .isFalse();
    }
}
