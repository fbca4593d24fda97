package io.etl.kafka.common.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.Test;

class KafkaErrorsTest {

    @Test
    void rootMessageNamesTheRootCauseAfterTheOuterMessage() {
        KafkaException e = new KafkaException(
                "Failed to construct kafka consumer",
                new IllegalStateException("wrapped", new IllegalArgumentException("bad value for x")));
        assertThat(KafkaErrors.rootMessage(e))
                .isEqualTo("Failed to construct kafka consumer (IllegalArgumentException: bad value for x)");
        assertThat(KafkaErrors.rootMessage(new KafkaException("alone"))).isEqualTo("alone");
        assertThat(KafkaErrors.rootMessage(new KafkaException("outer", new IllegalStateException())))
                .as("a root without a message is named by its class")
                .isEqualTo("outer (IllegalStateException: IllegalStateException)");
    }

    @Test
    void unwrapRemovesFutureWrappersAndGenericKafkaExceptionsButStopsAtAnApiError() {
        UnknownTopicOrPartitionException api =
                new UnknownTopicOrPartitionException("no such topic", new IllegalStateException("inner"));
        assertThat(KafkaErrors.unwrap(new ExecutionException(new KafkaException("generic", api))))
                .isSameAs(api);
        IllegalStateException plain = new IllegalStateException("x", new RuntimeException("y"));
        assertThat(KafkaErrors.unwrap(plain)).isSameAs(plain);
    }

    @Test
    void describeAndAccessRefusalFollowTheExceptionType() {
        assertThat(KafkaErrors.describe(new UnknownTopicOrPartitionException("gone")))
                .isEqualTo("UnknownTopicOrPartitionException: gone");
        assertThat(KafkaErrors.describe(new KafkaException((String) null))).isEqualTo("KafkaException");
        assertThat(List.<Throwable>of(
                        new SaslAuthenticationException("bad password"), new TopicAuthorizationException("no WRITE")))
                .allMatch(KafkaErrors::isAccessRefused);
        assertThat(KafkaErrors.isAccessRefused(new UnknownTopicOrPartitionException("gone")))
                .isFalse();
    }
}
