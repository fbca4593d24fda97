package io.etl.kafka.sink.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.etl.core.error.FatalException;
import io.etl.core.error.RetryableException;
import java.util.function.Predicate;
import java.util.stream.Stream;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class KafkaErrorClassifierTest {

    private final KafkaErrorClassifier classifier = new KafkaErrorClassifier("orders", "User:etl");

    static Stream<Arguments> clientErrors() {
        return Stream.of(
                // transient broker and network errors: a later attempt may succeed
                arguments(new TimeoutException("t"), RetryableException.class),
                arguments(new NetworkException("n"), RetryableException.class),
                arguments(new NotEnoughReplicasException("r"), RetryableException.class),
                arguments(new NotEnoughReplicasAfterAppendException("a"), RetryableException.class),
                arguments(new NotLeaderOrFollowerException("l"), RetryableException.class),
                arguments(new IllegalStateException("?"), RetryableException.class),
                arguments(new KafkaException("odd"), RetryableException.class),
                // permanent errors: no attempt can succeed
                arguments(new SaslAuthenticationException("bad"), FatalException.class),
                arguments(new RecordTooLargeException("big"), FatalException.class),
                arguments(new UnknownTopicOrPartitionException("gone"), FatalException.class),
                arguments(new ProducerFencedException("f"), FatalException.class),
                arguments(new OutOfOrderSequenceException("o"), FatalException.class));
    }

    @ParameterizedTest(name = "{0} is {1}")
    @MethodSource("clientErrors")
    void transientErrorsAreRetryableAndPermanentOnesFatalBothNamingTheTopic(
            Exception error, Class<? extends Exception> expected) {
        assertThat(classifier.classify(error)).isInstanceOf(expected).hasMessageContaining("orders");
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
        assertThat((Predicate<Throwable>) KafkaErrorClassifier::poisonsProducer)
                .accepts(new OutOfOrderSequenceException("o"), new KafkaException("fatal state"))
                .rejects(new NotEnoughReplicasException("r"));
    }
}
