package io.etl.kafka.sink.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.core.checkpoint.RunContext;
import io.etl.core.checkpoint.TransactionalCheckpoint;
import io.etl.core.config.DeliveryGuarantee;
import io.etl.core.error.ConfigException;
import io.etl.core.error.EtlException;
import io.etl.core.error.FatalException;
import io.etl.core.error.RetryableException;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.junit.jupiter.api.Test;

class KafkaTransactionTest {

    private final RunContext run =
            RunContext.of("run-1", DeliveryGuarantee.EXACTLY_ONCE, "orders-1", Duration.ofSeconds(10));

    @Test
    void fencedOrUnauthorizedProducersFailThePipeline() {
        KafkaTransaction tx = KafkaTransaction.of("orders", run, "sinks.eu.kafka");
        assertThat(tx.classify("committing", new ProducerFencedException("newer instance")))
                .isInstanceOf(FatalException.class)
                .hasMessageContaining("fenced");
        assertThat(tx.classify("writing", new InvalidProducerEpochException("old epoch")))
                .isInstanceOf(FatalException.class);
        assertThat(tx.classify("committing", new TransactionalIdAuthorizationException("denied")))
                .isInstanceOf(FatalException.class);
    }

    @Test
    void transientFailuresAbortAndReadAgain() {
        KafkaTransaction tx = KafkaTransaction.of("orders", run, "sinks.eu.kafka");
        assertThat(tx.classify("writing", new NotEnoughReplicasException("isr")))
                .isInstanceOf(RetryableException.class);
        assertThat(tx.classify("committing", new TimeoutException("slow")))
                .isInstanceOf(RetryableException.class)
                .hasMessageContaining("timed out");
        assertThat(tx.classify("committing", new CommitFailedException("rebalanced")))
                .isInstanceOf(RetryableException.class);
    }

    @Test
    void theFirstWriteErrorDoomsTheTransaction() {
        KafkaTransaction tx = KafkaTransaction.of("orders", run, "sinks.eu.kafka");
        tx.failed(new NotEnoughReplicasException("first"));
        tx.failed(new ProducerFencedException("second"));
        EtlException failure = tx.failure();
        assertThat(failure).isInstanceOf(RetryableException.class).hasMessageContaining("first");
        assertThat(tx.healthy()).isFalse();
    }

    @Test
    void everySinkOfTheRunSharesOneTransactionRegisteredAsTheCheckpoint() {
        KafkaTransaction eu = KafkaTransaction.of("orders", run, "sinks.eu.kafka");
        KafkaTransaction us = KafkaTransaction.of("orders", run, "sinks.us.kafka");
        assertThat(us).isSameAs(eu);
        assertThat(run.find(TransactionalCheckpoint.class)).containsSame(eu);
    }

    @Test
    void sinksOnOtherBrokersCannotJoinTheTransaction() {
        KafkaTransaction tx = KafkaTransaction.of("orders", run, "sinks.eu.kafka");
        tx.join(
                "sinks.eu.kafka",
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        "a:9092",
                        ProducerConfig.MAX_REQUEST_SIZE_CONFIG,
                        1000));
        assertThatThrownBy(() -> tx.join(
                        "sinks.us.kafka",
                        Map.of(
                                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                                "b:9092",
                                ProducerConfig.MAX_REQUEST_SIZE_CONFIG,
                                1000)))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("sinks.us.kafka.brokers")
                .hasMessageContaining("sinks.eu.kafka");
    }
}
