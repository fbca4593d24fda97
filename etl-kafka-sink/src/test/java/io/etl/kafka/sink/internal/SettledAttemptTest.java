package io.etl.kafka.sink.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.error.RetryableException;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.junit.jupiter.api.Test;

/**
 * What decides an attempt once the messages the destination refused on their own account are marked: a refusal
 * never fails the batch, even when it was the attempt's first error and the rest of the attempt could not be sent
 * because the producer closed under it (another sink sharing the producer replaced it).
 */
class SettledAttemptTest {

    private final InvalidRecordException refusal =
            new InvalidRecordException("Compacted topic cannot accept message without key");

    /** An attempt of {@code size} messages whose first report was {@code refusal}, on another thread. */
    private BatchDelivery attemptRefusedFirst(int size) throws InterruptedException {
        BatchDelivery delivery = new BatchDelivery(size, (d, error) -> {}, (future, error) -> {}, Long.MAX_VALUE);
        delivery.sendingOn(Thread.currentThread());
        Thread io = new Thread(() -> delivery.onCompletion(null, refusal));
        io.start();
        io.join();
        return delivery;
    }

    @Test
    void messagesNeverSentAfterARefusalAreWrittenAgainForWhatStoppedThem() throws InterruptedException {
        BatchDelivery delivery = attemptRefusedFirst(5);
        KafkaException closed = new KafkaException("Producer is closed forcefully.");
        delivery.abandon(3, closed);

        Throwable decides = AtLeastOnceKafkaWriter.remainingFailure(true, null, delivery, refusal);

        assertThat(decides).isSameAs(closed);
        assertThat(new KafkaErrorClassifier("eu", null).classify(decides)).isInstanceOf(RetryableException.class);
    }

    @Test
    void messagesWrittenOffWithoutAReasonAreStillWrittenAgain() throws InterruptedException {
        BatchDelivery delivery = attemptRefusedFirst(4);
        delivery.abandon(2, null);

        assertThat(AtLeastOnceKafkaWriter.remainingFailure(true, null, delivery, refusal))
                .isInstanceOf(RetryableException.class);
    }

    @Test
    void anAttemptWhoseOnlyFailuresWereRefusalsSucceeds() throws InterruptedException {
        BatchDelivery delivery = attemptRefusedFirst(2);

        assertThat(AtLeastOnceKafkaWriter.remainingFailure(true, null, delivery, refusal))
                .isNull();
    }

    @Test
    void anotherMessagesFailureDecidesWithOrWithoutRefusals() throws InterruptedException {
        BatchDelivery delivery = attemptRefusedFirst(3);
        NotEnoughReplicasException notEnough = new NotEnoughReplicasException("1 of 3 in sync");

        assertThat(AtLeastOnceKafkaWriter.remainingFailure(true, notEnough, delivery, refusal))
                .isSameAs(notEnough);
        assertThat(AtLeastOnceKafkaWriter.remainingFailure(false, notEnough, delivery, notEnough))
                .isSameAs(notEnough);
    }

    @Test
    void withoutRefusalsTheAttemptsFirstErrorDecides() {
        BatchDelivery delivery = new BatchDelivery(2, (d, error) -> {}, (future, error) -> {}, Long.MAX_VALUE);
        KafkaException closed = new KafkaException("Producer is closed forcefully.");
        delivery.abandon(2, closed);

        assertThat(AtLeastOnceKafkaWriter.remainingFailure(false, null, delivery, closed))
                .isSameAs(closed);
        assertThat(delivery.abandonCause()).isSameAs(closed);
    }
}
