package io.etl.kafka.sink.internal;

import io.etl.core.error.RetryableException;
import io.etl.core.sink.SealedBatch;
import io.etl.core.sink.SinkContext;
import io.etl.core.sink.SinkWriter;
import io.etl.kafka.sink.KafkaMessage;
import io.etl.kafka.sink.KafkaSinkConfig;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * Writes sealed batches into the open transaction of the run ({@link KafkaTransaction}), whose one transactional
 * producer every Kafka sink of the run shares. A write never retries inside a transaction: a failed or expired
 * attempt completes its batch (so nothing waits on it) and dooms the transaction, which the pipeline then aborts,
 * reading again from the last commit; while a transaction is doomed, nothing more of it is sent. The message whose
 * refusal by the destination doomed the transaction is marked on its batch first ({@link SealedBatch#reject}), not
 * the messages the producer failed with it: the pipeline remembers it across the abort and, once it was refused
 * often enough, applies the sink's policy to it instead of sending it again.
 */
final class TransactionalKafkaWriter implements SinkWriter<KafkaMessage> {

    private final KafkaTransaction transaction;
    private final BatchSender sender;

    private TransactionalKafkaWriter(KafkaSinkConfig config, SinkContext context, KafkaTransaction transaction) {
        this.transaction = transaction;
        this.sender = new BatchSender(config, context);
    }

    /**
     * Joins the run's transaction with this sink's producer settings; the transactional producer is created when
     * the first transaction begins.
     *
     * @param producer the complete producer properties of this sink
     * @throws io.etl.core.error.ConfigException when another connector's sink owns the run's transaction, or this
     *                                           sink writes to other brokers than the first one
     */
    static TransactionalKafkaWriter join(
            KafkaSinkConfig config, String path, SinkContext context, Map<String, Object> producer) {
        KafkaTransaction transaction = KafkaTransaction.of(context.pipeline(), context.run(), path);
        transaction.join(path, producer);
        return new TransactionalKafkaWriter(config, context, transaction);
    }

    @Override
    public CompletableFuture<Void> writeBatch(SealedBatch<KafkaMessage> batch) {
        CompletableFuture<Void> unsent = sender.unsent(batch);
        if (unsent != null) {
            return unsent;
        }
        if (!transaction.healthy()) {
            // the open transaction cannot commit any more: nothing of it is sent, the pipeline aborts it
            return CompletableFuture.completedFuture(null);
        }
        KafkaProducer<byte[], byte[]> p;
        try {
            p = transaction.producer();
        } catch (RetryableException e) {
            transaction.failed(e);
            return CompletableFuture.completedFuture(null);
        }
        transaction.recordsWritten(batch.messages().size());
        return sender.send(
                p,
                batch,
                (delivery, error) -> completed(batch, delivery, error),
                this::expired,
                transaction.refusalFlag());
    }

    /**
     * Every report is in: a failure dooms the transaction, and the message whose refusal by the destination doomed
     * it, if it is in this batch, is marked on the batch; the batch is done either way.
     */
    private void completed(SealedBatch<KafkaMessage> batch, BatchDelivery delivery, Throwable error) {
        if (error != null) {
            // no retry inside a transaction: the pipeline aborts it and reads again from the last commit
            transaction.failed(error);
            int culprit = delivery.culprit();
            if (culprit >= 0) {
                batch.reject(culprit, sender.refusal(batch.messages().get(culprit), delivery.culpritError()));
            }
        }
        delivery.future().complete(null);
    }

    /** Reports missing after the deadline: the transaction cannot commit; the batch is done. */
    private void expired(CompletableFuture<Void> future, RetryableException error) {
        transaction.failed(error);
        future.complete(null);
    }

    @Override
    public void close(Duration timeout) {
        sender.close(() -> transaction.leave(timeout));
    }
}
