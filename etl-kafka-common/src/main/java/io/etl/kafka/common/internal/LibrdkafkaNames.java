package io.etl.kafka.common.internal;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Property names of librdkafka (the C client behind most non-Java Kafka clients) that the Java client
 * does not know, each with what to write instead. A configuration ported from such a client often
 * carries them; the passthrough check names the replacement rather than calling them unknown.
 *
 * <p>Names a connector owns (for example {@code metadata.broker.list}, {@code message.timeout.ms}) are on
 * that connector's denylist instead, with its own reason; this list holds the rest.
 *
 * <pre>{@code
 * LibrdkafkaNames.producer().get("queue.buffering.max.kbytes");   // "buffer.memory (in bytes)"
 * }</pre>
 */
public final class LibrdkafkaNames {

    private static final Map<String, String> COMMON = pairs(
            "socket.timeout.ms", "the Java client's request.timeout.ms",
            "topic.metadata.refresh.interval.ms", "the Java client's metadata.max.age.ms",
            "socket.keepalive.enable", "nothing: the Java client always sets SO_KEEPALIVE",
            "api.version.request", "nothing: the Java client always negotiates API versions",
            "broker.version.fallback", "nothing: the Java client negotiates API versions with the broker",
            "ssl.ca.location", "security.tls.ca_file (or ssl.truststore.type: PEM with ssl.truststore.location)",
            "ssl.certificate.location", "security.tls.cert_file (or ssl.keystore.certificate.chain)",
            "ssl.key.location", "security.tls.key_file (or ssl.keystore.key)",
            "sasl.username", "security.sasl.username (or the username option of sasl.jaas.config)",
            "sasl.password", "security.sasl.password (or the password option of sasl.jaas.config)",
            "sasl.kerberos.keytab", "security.sasl.keytab_file",
            "sasl.kerberos.principal", "security.sasl.principal");

    private static final Map<String, String> PRODUCER = merge(
            COMMON,
            pairs(
                    "queue.buffering.max.messages",
                            "buffer.memory (the Java producer bounds its buffer in bytes, not messages)",
                    "queue.buffering.max.kbytes", "buffer.memory (in bytes)",
                    "batch.num.messages",
                            "batch.size (in bytes) for the producer, batch.max_records for the framework batch",
                    "message.send.max.retries", "the Java client's retries",
                    "sticky.partitioning.linger.ms",
                            "nothing: the Java producer's partitioner sticks to a partition per batch",
                    "produce.offset.report", "nothing: every Java delivery report carries its offset",
                    "queuing.strategy", "nothing: the Java producer keeps send order per partition"));

    private static final Map<String, String> CONSUMER = merge(
            COMMON,
            pairs(
                    "enable.partition.eof",
                            "nothing: the Java consumer has no end-of-partition event (a poll returns no records)",
                    "fetch.message.max.bytes", "the Java client's max.partition.fetch.bytes",
                    "fetch.wait.max.ms", "the Java client's fetch.max.wait.ms",
                    "fetch.error.backoff.ms", "the Java client's retry.backoff.ms",
                    "queued.min.messages", "max_poll_records (records per poll)",
                    "queued.max.messages.kbytes", "the Java client's fetch.max.bytes",
                    "offset.store.method", "nothing: offsets are always committed to the group coordinator",
                    "auto.commit.enable", "nothing: the pipeline commits offsets itself, only behind durable output",
                    "consume.callback.max.messages", "max_poll_records"));

    private LibrdkafkaNames() {}

    /** librdkafka producer names unknown to the Java producer, each with its replacement. */
    public static Map<String, String> producer() {
        return PRODUCER;
    }

    /** librdkafka consumer names unknown to the Java consumer, each with its replacement. */
    public static Map<String, String> consumer() {
        return CONSUMER;
    }

    private static Map<String, String> pairs(String... keyValue) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < keyValue.length; i += 2) {
            map.put(keyValue[i], keyValue[i + 1]);
        }
        return map;
    }

    private static Map<String, String> merge(Map<String, String> a, Map<String, String> b) {
        Map<String, String> map = new LinkedHashMap<>(a);
        map.putAll(b);
        return Collections.unmodifiableMap(map);
    }
}
