package io.etl.bench.avro;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.etl.bench.impl.RaceClientSettings;
import io.etl.bench.impl.RaceTopics;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The hand-written contestant of the Avro race: the JSON race's kafka-clients loop (one consumer and one
 * producer on one thread, the same client settings, commits behind acknowledged polls) doing what a team
 * writes by hand with Avro: read the schema id, fetch each new writer schema once over HTTP, resolve it to the
 * reader schema, route, and write with the id the registry holds for each output subject (looked up once).
 */
final class AvroClientsLoop implements Runnable, ConsumerRebalanceListener {

    private static final int MAX_OUTSTANDING_POLLS = 16;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final KafkaProducer<byte[], byte[]> producer;
    private final RaceTopics topics;
    private final String[] outputs;
    private final byte[][] headers;
    private final String registry;
    private final HttpClient http =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final Map<Integer, GenericDatumReader<GenericRecord>> readers = new HashMap<>();
    private final GenericDatumWriter<GenericRecord> writer =
            new GenericDatumWriter<>(AvroOrders.ROUTED, GenericData.get());
    private final ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    private final ArrayDeque<Poll> pending = new ArrayDeque<>();
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    volatile boolean running = true;
    private BinaryDecoder decoder;
    private BinaryEncoder encoder;

    AvroClientsLoop(String bootstrapServers, RaceTopics topics, String registry) {
        Map<String, Object> consumerProps = new HashMap<>();
        consumerProps.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        consumerProps.put(ConsumerConfig.GROUP_ID_CONFIG, topics.group());
        consumerProps.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        consumerProps.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumerProps.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, RaceClientSettings.MAX_POLL_RECORDS);
        Map<String, Object> producerProps = new HashMap<>();
        producerProps.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        producerProps.put(ProducerConfig.ACKS_CONFIG, "all");
        producerProps.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        producerProps.put(ProducerConfig.LINGER_MS_CONFIG, RaceClientSettings.LINGER_MS);
        producerProps.put(ProducerConfig.BATCH_SIZE_CONFIG, RaceClientSettings.BATCH_SIZE);
        this.consumer = new KafkaConsumer<>(consumerProps, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.producer = new KafkaProducer<>(producerProps, new ByteArraySerializer(), new ByteArraySerializer());
        this.topics = topics;
        this.registry = registry.endsWith("/") ? registry : registry + "/";
        this.outputs = topics.outputs().toArray(String[]::new);
        this.headers = new byte[outputs.length][];
        for (int b = 0; b < outputs.length; b++) {
            headers[b] = header(lookUp(outputs[b] + "-value", AvroOrders.ROUTED));
        }
    }

    private static byte[] header(int id) {
        return new byte[] {0, (byte) (id >>> 24), (byte) (id >>> 16), (byte) (id >>> 8), (byte) id};
    }

    private String call(String method, String path, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(registry + path))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/vnd.schemaregistry.v1+json");
        request.method(
                method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException(
                        method + " " + path + ": HTTP " + response.statusCode() + " " + response.body());
            }
            return response.body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private int lookUp(String subject, Schema schema) {
        try {
            String body =
                    JSON.createObjectNode().put("schema", schema.toString()).toString();
            return JSON.readTree(call("POST", "subjects/" + subject, body))
                    .get("id")
                    .asInt();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private GenericDatumReader<GenericRecord> reader(int id) {
        GenericDatumReader<GenericRecord> reader = readers.get(id);
        if (reader == null) {
            try {
                Schema writer = new Schema.Parser()
                        .parse(JSON.readTree(call("GET", "schemas/ids/" + id, null))
                                .get("schema")
                                .asText());
                reader = new GenericDatumReader<>(writer, AvroOrders.ORDER, GenericData.get());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            readers.put(id, reader);
        }
        return reader;
    }

    /** One poll's records: acknowledged when {@link #remaining} reaches zero. */
    private final class Poll implements Callback {
        final Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        final AtomicInteger remaining = new AtomicInteger(1);

        @Override
        public void onCompletion(RecordMetadata metadata, Exception exception) {
            if (exception != null) {
                failure.compareAndSet(null, exception);
                return;
            }
            remaining.decrementAndGet();
        }
    }

    @Override
    public void run() {
        try {
            consumer.subscribe(List.of(topics.input()), this);
            while (running && failure.get() == null) {
                commitAcknowledged(false);
                if (pending.size() >= MAX_OUTSTANDING_POLLS) {
                    producer.flush();
                    continue;
                }
                process(consumer.poll(Duration.ofMillis(50)));
            }
            producer.flush();
            commitAcknowledged(true);
        } catch (WakeupException closing) {
            producer.flush();
            commitAcknowledged(true);
        } catch (RuntimeException e) {
            failure.compareAndSet(null, e);
        } finally {
            producer.close(Duration.ofSeconds(10));
            consumer.close(Duration.ofSeconds(10));
        }
    }

    private void process(ConsumerRecords<byte[], byte[]> records) {
        if (records.isEmpty()) {
            return;
        }
        Poll poll = new Poll();
        for (TopicPartition tp : records.partitions()) {
            List<ConsumerRecord<byte[], byte[]>> partition = records.records(tp);
            for (ConsumerRecord<byte[], byte[]> record : partition) {
                if (transformAndSend(record, poll)) {
                    poll.remaining.incrementAndGet();
                }
            }
            poll.offsets.put(
                    tp,
                    new OffsetAndMetadata(partition.get(partition.size() - 1).offset() + 1));
        }
        poll.remaining.decrementAndGet();
        pending.addLast(poll);
    }

    private boolean transformAndSend(ConsumerRecord<byte[], byte[]> record, Callback callback) {
        byte[] value = record.value();
        if (value == null || value.length < 5 || value[0] != 0) {
            return false;
        }
        int id = ((value[1] & 0xff) << 24) | ((value[2] & 0xff) << 16) | ((value[3] & 0xff) << 8) | (value[4] & 0xff);
        GenericRecord order;
        try {
            decoder = DecoderFactory.get().binaryDecoder(value, 5, value.length - 5, decoder);
            order = reader(id).read(null, decoder);
        } catch (IOException e) {
            return false;
        }
        GenericRecord routed = AvroOrders.route(order);
        if (routed == null) {
            return false;
        }
        int branch = AvroOrders.branch(routed);
        out.reset();
        out.writeBytes(headers[branch]);
        try {
            encoder = EncoderFactory.get().directBinaryEncoder(out, encoder);
            writer.write(routed, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        producer.send(new ProducerRecord<>(outputs[branch], record.key(), out.toByteArray()), callback);
        return true;
    }

    private void commitAcknowledged(boolean sync) {
        Map<TopicPartition, OffsetAndMetadata> commit = null;
        while (!pending.isEmpty() && pending.peekFirst().remaining.get() == 0) {
            if (commit == null) {
                commit = new HashMap<>();
            }
            commit.putAll(pending.pollFirst().offsets);
        }
        if (commit == null) {
            return;
        }
        if (sync) {
            consumer.commitSync(commit);
        } else {
            consumer.commitAsync(commit, (o, e) -> {
                if (e != null && !(e instanceof RetriableException)) {
                    failure.compareAndSet(null, e);
                }
            });
        }
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
        producer.flush();
        commitAcknowledged(true);
        pending.clear();
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {}

    /** Stops the loop from another thread. */
    void stop() {
        running = false;
        consumer.wakeup();
    }
}
