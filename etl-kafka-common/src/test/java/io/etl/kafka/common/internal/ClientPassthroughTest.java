package io.etl.kafka.common.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.error.ConfigProblem;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ClientPassthroughTest {

    private final ClientPassthrough producer =
            ClientPassthrough.producer(Map.of("acks", "forced to all", "bootstrap.servers", "owned by brokers"));

    private List<String> problems(Map<String, String> props, Set<String> typed) {
        return producer.check(props, "sinks.eu.kafka.producer", typed).stream()
                .map(ConfigProblem::toString)
                .toList();
    }

    @Test
    void deniedKeyIsAProblemWithItsReason() {
        assertThat(problems(Map.of("acks", "1"), Set.of()))
                .containsExactly("sinks.eu.kafka.producer.acks: is not allowed: forced to all");
    }

    @Test
    void unknownKeyIsAProblemWithASuggestion() {
        assertThat(problems(Map.of("linger_ms", "5", "compresion.type", "lz4", "zzz", "1"), Set.of()))
                .containsExactly(
                        "sinks.eu.kafka.producer.compresion.type: unknown producer property (did you mean compression.type?)",
                        "sinks.eu.kafka.producer.linger_ms: unknown producer property (did you mean linger.ms?)",
                        "sinks.eu.kafka.producer.zzz: unknown producer property");
    }

    @Test
    void securityPropertiesPassUnlessTheTypedSectionSetsThemToo() {
        Map<String, String> props =
                Map.of("security.protocol", "SASL_SSL", "sasl.mechanism", "PLAIN", "ssl.truststore.location", "/x");
        assertThat(problems(props, Set.of())).isEmpty();
        assertThat(problems(props, Set.of("security.protocol")))
                .containsExactly(
                        "sinks.eu.kafka.producer.security.protocol: is also set by the typed security section; set it in one place");
    }

    @Test
    void consumerKnowsConsumerKeysOnly() {
        ClientPassthrough consumer = ClientPassthrough.consumer(Map.of());
        assertThat(consumer.isKnown("max.poll.records")).isTrue();
        assertThat(consumer.isKnown("linger.ms")).isFalse();
        assertThat(producer.isKnown("linger.ms")).isTrue();
    }

    @Test
    void librdkafkaNameIsAProblemNamingTheJavaProperty() {
        assertThat(problems(Map.of("queue.buffering.max.kbytes", "1024", "message.send.max.retries", "3"), Set.of()))
                .containsExactly(
                        "sinks.eu.kafka.producer.message.send.max.retries: is a librdkafka property the Java producer"
                                + " does not know; use the Java client's retries",
                        "sinks.eu.kafka.producer.queue.buffering.max.kbytes: is a librdkafka property the Java producer"
                                + " does not know; use buffer.memory (in bytes)");
        assertThat(ClientPassthrough.consumer(Map.of())
                        .check(Map.of("fetch.wait.max.ms", "100"), "source.in.kafka.consumer", Set.of()))
                .singleElement()
                .hasToString("source.in.kafka.consumer.fetch.wait.max.ms: is a librdkafka"
                        + " property the Java consumer does not know; use the Java client's fetch.max.wait.ms");
    }

    @Test
    void librdkafkaNamesAreNamesTheJavaClientsDoNotKnow() {
        ClientPassthrough consumer = ClientPassthrough.consumer(Map.of());
        assertThat(LibrdkafkaNames.producer().keySet()).isNotEmpty().noneMatch(producer::isKnown);
        assertThat(LibrdkafkaNames.consumer().keySet()).isNotEmpty().noneMatch(consumer::isKnown);
    }

    @Test
    void valueOfTheWrongTypeIsAProblemWithTheKeyPath() {
        assertThat(problems(Map.of("retries", "x", "batch.size", "16384"), Set.of()))
                .containsExactly(
                        "sinks.eu.kafka.producer.retries: invalid value 'x' (expected int, [0,...,2147483647])");
    }

    @Test
    void valueOutOfRangeOrNotAnAllowedValueIsAProblem() {
        assertThat(problems(
                        Map.of("retries", "-1", "partitioner.ignore.keys", "maybe", "buffer.memory", "1024"), Set.of()))
                .containsExactly(
                        "sinks.eu.kafka.producer.partitioner.ignore.keys: invalid value 'maybe' (expected boolean)",
                        "sinks.eu.kafka.producer.retries: invalid value '-1' (expected int, [0,...,2147483647])");
        assertThat(ClientPassthrough.consumer(Map.of())
                        .check(Map.of("isolation.level", "dirty"), "source.in.kafka.consumer", Set.of()))
                .singleElement()
                .asString()
                .startsWith("source.in.kafka.consumer.isolation.level: invalid value 'dirty' (expected string, ")
                .contains("read_committed");
    }
}
