package io.etl.kafka.sink.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.junit.jupiter.api.Test;

/**
 * Inside a transaction, the producer fails the messages it still holds with the very exception the brokers refused
 * one message with: only the first message reported refused in the transaction is taken for the refused one.
 */
class BatchDeliveryTest {

    private final AtomicReference<Throwable> completedWith = new AtomicReference<>();
    private final AtomicBoolean completed = new AtomicBoolean();

    private BatchDelivery delivery(int size, AtomicBoolean transactionRefusal) {
        BatchDelivery d = new BatchDelivery(
                size,
                (delivery, error) -> {
                    completedWith.set(error);
                    completed.set(true);
                },
                (future, error) -> future.complete(null),
                Long.MAX_VALUE);
        d.sendingOn(Thread.currentThread());
        if (transactionRefusal != null) {
            d.claimRefusalWith(transactionRefusal);
        }
        return d;
    }

    /** Reports {@code exception} (null: success) for each callback in turn, on another thread, as the producer does. */
    private static void reportOnProducerThread(Callback[] callbacks, Exception... exceptions) throws Exception {
        Thread io = new Thread(() -> {
            for (int i = 0; i < callbacks.length; i++) {
                callbacks[i].onCompletion(null, exceptions[i]);
            }
        });
        io.start();
        io.join();
    }

    private static Callback[] callbacks(BatchDelivery d, int... indexes) {
        Callback[] callbacks = new Callback[indexes.length];
        for (int i = 0; i < indexes.length; i++) {
            callbacks[i] = d.callbackFor(indexes[i]);
        }
        return callbacks;
    }

    @Test
    void theFirstRefusedMessageOfATransactionIsTheCulpritNotTheOnesFailedWithTheSameErrorAfterIt() throws Exception {
        AtomicBoolean refusal = new AtomicBoolean();
        BatchDelivery d = delivery(3, refusal);
        RecordTooLargeException tooLarge = new RecordTooLargeException("larger than max.message.bytes");
        Callback[] cbs = callbacks(d, 2, 0, 1);
        d.sent();

        reportOnProducerThread(cbs, tooLarge, tooLarge, null);

        assertThat(d.culprit()).isEqualTo(2);
        assertThat(d.culpritError()).isSameAs(tooLarge);
        assertThat(refusal).isTrue();
        assertThat(completed).as("the batch completes once every report is in").isTrue();
        assertThat(completedWith.get()).isSameAs(tooLarge);
    }

    @Test
    void aLaterBatchOfTheSameTransactionClaimsNothingOnceTheCulpritIsFound() throws Exception {
        AtomicBoolean refusal = new AtomicBoolean();
        BatchDelivery first = delivery(1, refusal);
        BatchDelivery second = delivery(2, refusal);
        RecordTooLargeException tooLarge = new RecordTooLargeException("refused");
        Callback[] firstCallbacks = callbacks(first, 0);
        Callback[] secondCallbacks = callbacks(second, 0, 1);

        reportOnProducerThread(firstCallbacks, tooLarge);
        reportOnProducerThread(secondCallbacks, tooLarge, new KafkaException("aborted with it", tooLarge));

        assertThat(first.culprit()).isZero();
        assertThat(second.culprit()).isEqualTo(-1);
        assertThat(second.culpritError()).isNull();
    }

    @Test
    void otherFailuresClaimNothing() throws Exception {
        AtomicBoolean refusal = new AtomicBoolean();
        BatchDelivery d = delivery(2, refusal);
        RecordTooLargeException tooLarge = new RecordTooLargeException("refused");
        Callback[] cbs = callbacks(d, 0, 1);

        reportOnProducerThread(cbs, new NotEnoughReplicasException("isr"), tooLarge);

        assertThat(d.culprit()).isEqualTo(1);
        assertThat(d.culpritError()).isSameAs(tooLarge);
    }

    @Test
    void aMessageSendItselfRefusedIsTheCulpritAlreadySoLaterReportsClaimNothing() throws Exception {
        AtomicBoolean refusal = new AtomicBoolean();
        BatchDelivery d = delivery(2, refusal);
        Callback[] cbs = callbacks(d, 1);
        // message 0 was refused inside send(): the sender marks it on the batch itself
        d.refusedOnSend();

        reportOnProducerThread(cbs, new RecordTooLargeException("failed with the refusal of message 0"));

        assertThat(refusal).isTrue();
        assertThat(d.culprit()).isEqualTo(-1);
    }

    @Test
    void outsideATransactionTheDeliveryIsTheOneCallbackAndFindsNoCulprit() throws Exception {
        BatchDelivery d = delivery(2, null);
        assertThat(d.callbackFor(0)).isSameAs(d);
        d.refusedOnSend();

        reportOnProducerThread(callbacks(d, 0, 1), new RecordTooLargeException("refused"), null);

        assertThat(d.culprit()).isEqualTo(-1);
    }

    @Test
    void aFailureSendReportsOnTheSendingThreadIsKeptForTheSenderAndClaimsNothing() {
        AtomicBoolean refusal = new AtomicBoolean();
        BatchDelivery d = delivery(1, refusal);
        RecordTooLargeException tooLarge = new RecordTooLargeException("larger than max.request.size");

        d.callbackFor(0).onCompletion(null, tooLarge);

        assertThat(d.takeRejected()).isSameAs(tooLarge);
        assertThat(refusal).isFalse();
        assertThat(d.culprit()).isEqualTo(-1);
    }
}
