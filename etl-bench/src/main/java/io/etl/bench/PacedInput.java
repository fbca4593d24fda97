package io.etl.bench;

import io.etl.bench.orders.BenchOrders;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Writes {@link BenchOrders} 0, 1, 2, ... at a fixed rate in the background, each with its send time in the header
 * {@value #SENT_AT} (8 bytes, epoch milliseconds): the pipeline carries input headers to its outputs, so the time an
 * output was appended minus that header is the order's end-to-end latency, however long it ran.
 *
 * <pre>{@code
 * try (PacedInput input = PacedInput.start(bootstrap, "orders", 40_000)) { ... input.sent() ... }
 * }</pre>
 */
final class PacedInput implements AutoCloseable {

    /** The header holding an order's send time. */
    static final String SENT_AT = "soak.sent.at";

    /** How often the orders then due are sent. */
    private static final long PACE_NANOS = 1_000_000;

    private final KafkaProducer<byte[], byte[]> producer;
    private final String topic;
    private final int rate;
    private final AtomicInteger sent = new AtomicInteger();
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private final Thread thread;
    private volatile boolean stopped;

    private PacedInput(String bootstrap, String topic, int rate) {
        Map<String, Object> props = new HashMap<>();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 1);
        props.put(ProducerConfig.CLIENT_ID_CONFIG, "soak-input");
        this.producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
        this.topic = topic;
        this.rate = rate;
        this.thread = new Thread(this::run, "soak-input");
        this.thread.setDaemon(true);
    }

    /** Starts writing to {@code topic} at {@code rate} orders per second. */
    static PacedInput start(String bootstrap, String topic, int rate) {
        if (rate < 1) {
            throw new IllegalArgumentException("the rate must be at least 1 order/s, not " + rate);
        }
        PacedInput input = new PacedInput(bootstrap, topic, rate);
        input.thread.start();
        return input;
    }

    /** The send time an input header holds, or -1 when it holds none. */
    static long sentAt(Iterable<Header> headers) {
        for (Header h : headers) {
            if (h.key().equals(SENT_AT) && h.value() != null && h.value().length == Long.BYTES) {
                return ByteBuffer.wrap(h.value()).getLong();
            }
        }
        return -1;
    }

    private void run() {
        long start = System.nanoTime();
        int i = 0;
        try {
            while (!stopped) {
                long due = (System.nanoTime() - start) * rate / 1_000_000_000L;
                while (i < due && !stopped) {
                    long now = System.currentTimeMillis();
                    List<Header> headers = List.of(new RecordHeader(
                            SENT_AT,
                            ByteBuffer.allocate(Long.BYTES).putLong(now).array()));
                    producer.send(
                            new ProducerRecord<>(
                                    topic,
                                    null,
                                    now,
                                    BenchOrders.id(i).getBytes(StandardCharsets.UTF_8),
                                    BenchOrders.jsonBytes(i),
                                    headers),
                            (metadata, e) -> {
                                if (e != null) {
                                    failure.compareAndSet(null, e);
                                }
                            });
                    i++;
                    sent.set(i);
                }
                LockSupport.parkNanos(PACE_NANOS); // the pacing of the producer
            }
            producer.flush();
        } catch (RuntimeException e) {
            failure.compareAndSet(null, e);
        }
    }

    /** Orders handed to the producer so far: orders {@code 0} to {@code sent() - 1}. */
    int sent() {
        return sent.get();
    }

    /** The first send that failed, if any. */
    Exception failure() {
        return failure.get();
    }

    /** Stops sending and waits until everything sent is acknowledged. */
    @Override
    public void close() {
        stopped = true;
        try {
            thread.join(60_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.close(Duration.ofSeconds(30));
    }
}
