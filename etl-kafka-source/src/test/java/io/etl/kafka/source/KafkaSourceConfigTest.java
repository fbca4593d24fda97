package io.etl.kafka.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.core.config.PipelineConfig;
import io.etl.core.config.SourceSection;
import io.etl.core.error.ConfigException;
import io.etl.core.error.ConfigProblem;
import io.etl.core.error.ErrorPolicy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KafkaSourceConfigTest {

    private static PipelineConfig parse(String yaml) {
        return PipelineConfig.parse(yaml, name -> null);
    }

    private static List<String> problems(String yaml) {
        try {
            parse(yaml);
        } catch (ConfigException e) {
            return e.problems().stream().map(ConfigProblem::toString).toList();
        }
        throw new AssertionError("expected configuration problems");
    }

    @Test
    void minimalSectionGetsTheDocumentedDefaults() {
        PipelineConfig config = parse("""
                source:
                  orders:
                    kafka: {brokers: 'b:9092', topics: [orders], group_id: g}
                """);

        KafkaSourceConfig kafka = config.source("orders").connector(KafkaSourceConfig.class);
        assertThat(kafka.brokers()).isEqualTo("b:9092");
        assertThat(kafka.topics()).containsExactly("orders");
        assertThat(kafka.topicPattern()).isNull();
        assertThat(kafka.groupInstanceId()).isNull();
        assertThat(kafka.autoOffsetReset()).isEqualTo(KafkaSourceConfig.AutoOffsetReset.EARLIEST);
        assertThat(kafka.maxPollRecords()).isEqualTo(2000);
        assertThat(kafka.pollTimeout()).isEqualTo(Duration.ofMillis(100));
        assertThat(kafka.revokeTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(kafka.sessionTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(kafka.startupTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(kafka.statisticsInterval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(kafka.consumer()).isEmpty();
        assertThat(config.source("orders").onError()).isEqualTo(ErrorPolicy.FAIL);
    }

    @Test
    void everyKeyBinds() {
        KafkaSourceConfig kafka = parse("""
                source:
                  orders:
                    kafka:
                      brokers: b:9092
                      topic_pattern: "orders-.*"
                      group_id: g
                      group_instance_id: host-1
                      auto_offset_reset: latest
                      max_poll_records: 500
                      poll_timeout: 50ms
                      revoke_timeout: 3s
                      session_timeout: 6s
                      startup_timeout: 5s
                      on_error: skip
                      consumer: {isolation.level: read_committed, fetch.min.bytes: "1024"}
                """).source("orders").connector(KafkaSourceConfig.class);

        assertThat(kafka.topics()).isEmpty();
        assertThat(kafka.topicPattern()).isEqualTo("orders-.*");
        assertThat(kafka.groupInstanceId()).isEqualTo("host-1");
        assertThat(kafka.autoOffsetReset()).isEqualTo(KafkaSourceConfig.AutoOffsetReset.LATEST);
        assertThat(kafka.maxPollRecords()).isEqualTo(500);
        assertThat(kafka.pollTimeout()).isEqualTo(Duration.ofMillis(50));
        assertThat(kafka.revokeTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(kafka.sessionTimeout()).isEqualTo(Duration.ofSeconds(6));
        assertThat(kafka.startupTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(kafka.consumer())
                .containsExactly(Map.entry("isolation.level", "read_committed"), Map.entry("fetch.min.bytes", "1024"));
    }

    @Test
    void aGroupInstanceIdTheBrokerWouldRejectIsAProblem() {
        assertThat(problems("""
                source:
                  orders:
                    kafka: {brokers: b:9092, topics: [orders], group_id: g, group_instance_id: "host 1/a"}
                """))
                .containsExactly("source.orders.kafka.group_instance_id: must be at most 249 characters of"
                        + " a-z, A-Z, 0-9, '.', '_' and '-' (for example the host name); got 'host 1/a'");
    }

    @Test
    void topicsAndTopicPatternTogetherIsAProblem() {
        assertThat(problems("""
                source:
                  orders:
                    kafka: {brokers: b:9092, topics: [orders], topic_pattern: "o.*", group_id: g}
                """))
                .containsExactly(
                        "source.orders.kafka.topic_pattern: cannot be combined with topics: set exactly one of topics and topic_pattern");
    }

    @Test
    void neitherTopicsNorTopicPatternIsAProblem() {
        assertThat(problems("""
                source:
                  orders:
                    kafka: {brokers: b:9092, group_id: g}
                """))
                .containsExactly("source.orders.kafka.topics: set exactly one of topics and topic_pattern");
    }

    @Test
    void invalidTopicPatternIsAProblem() {
        assertThat(problems("""
                source:
                  orders:
                    kafka: {brokers: b:9092, topic_pattern: "orders-(", group_id: g}
                """))
                .singleElement()
                .asString()
                .startsWith("source.orders.kafka.topic_pattern: is not a valid regular expression");
    }

    @Test
    void missingBrokersAndGroupAreProblems() {
        assertThat(problems("""
                source:
                  orders:
                    kafka: {topics: [orders]}
                """))
                .containsExactlyInAnyOrder(
                        "source.orders.kafka.brokers: must not be blank",
                        "source.orders.kafka.group_id: must not be blank");
    }

    @Test
    void deniedConsumerPropertiesAreProblemsWithPathAndReason() {
        assertThat(problems("""
                source:
                  orders:
                    kafka:
                      brokers: b:9092
                      topics: [orders]
                      group_id: g
                      consumer:
                        bootstrap.servers: other:9092
                        group.id: other
                        enable.auto.commit: "true"
                        auto.offset.reset: latest
                        key.deserializer: x
                        value.deserializer: y
                        max.poll.records: "10"
                        isolation.level: read_committed
                """))
                .containsExactlyInAnyOrder(
                        "source.orders.kafka.consumer.bootstrap.servers: is not allowed: set brokers instead",
                        "source.orders.kafka.consumer.group.id: is not allowed: set group_id instead",
                        "source.orders.kafka.consumer.enable.auto.commit: is not allowed: the pipeline commits offsets itself,"
                                + " only behind durable output",
                        "source.orders.kafka.consumer.auto.offset.reset: is not allowed: set auto_offset_reset instead",
                        "source.orders.kafka.consumer.key.deserializer: is not allowed: keys stay bytes in RecordMeta",
                        "source.orders.kafka.consumer.value.deserializer: is not allowed: payloads are decoded by the source's"
                                + " decoder (bytes(), string(), json(..), decoder(..))",
                        "source.orders.kafka.consumer.max.poll.records: is not allowed: set max_poll_records instead");
    }

    @Test
    void librdkafkaConsumerNamesAreDeniedOrPointedAtTheJavaProperty() {
        assertThat(problems("""
                source:
                  orders:
                    kafka:
                      brokers: b:9092
                      topics: [orders]
                      group_id: g
                      consumer:
                        metadata.broker.list: other:9092
                        statistics.interval.ms: "5000"
                        enable.auto.offset.store: "false"
                        fetch.wait.max.ms: "100"
                        enable.partition.eof: "true"
                """))
                .containsExactlyInAnyOrder(
                        "source.orders.kafka.consumer.metadata.broker.list: is not allowed: set brokers instead"
                                + " (metadata.broker.list is librdkafka's alias of bootstrap.servers)",
                        "source.orders.kafka.consumer.statistics.interval.ms: is not allowed: set statistics_interval instead,"
                                + " which refreshes the etl_kafka_source_* meters (librdkafka's name; the Java consumer has no"
                                + " statistics callback)",
                        "source.orders.kafka.consumer.enable.auto.offset.store: is not allowed: the pipeline stores and commits"
                                + " offsets itself, only behind durable output (librdkafka's name)",
                        "source.orders.kafka.consumer.fetch.wait.max.ms: is a librdkafka property the Java consumer does not"
                                + " know; use the Java client's fetch.max.wait.ms",
                        "source.orders.kafka.consumer.enable.partition.eof: is a librdkafka property the Java consumer does not"
                                + " know; use nothing: the Java consumer has no end-of-partition event (a poll returns no records)");
    }

    @Test
    void consumerPassthroughValuesAreCheckedAtLoadTime() {
        assertThat(problems("""
                source:
                  orders:
                    kafka:
                      brokers: b:9092
                      topics: [orders]
                      group_id: g
                      statistics_interval: -1s
                      consumer: {fetch.min.bytes: lots, max.poll.interval.ms: "0", fetch.max.wait.ms: "250"}
                """))
                .containsExactlyInAnyOrder(
                        "source.orders.kafka.statistics_interval: '-1s' is not a duration; use 250ms, 30s, 5m, 1h or ISO-8601",
                        "source.orders.kafka.consumer.fetch.min.bytes: invalid value 'lots' (expected int, [0,...])",
                        "source.orders.kafka.consumer.max.poll.interval.ms: invalid value '0' (expected int, [1,...])");
    }

    @Test
    void unknownConsumerPropertyIsAProblemWithASuggestion() {
        assertThat(problems("""
                source:
                  orders:
                    kafka:
                      brokers: b:9092
                      topics: [orders]
                      group_id: g
                      consumer: {fetch_min_bytes: "1", fetch.max.wait.msec: "10", totally.unknown.thing: "1"}
                """))
                .containsExactlyInAnyOrder(
                        "source.orders.kafka.consumer.fetch_min_bytes: unknown consumer property (did you mean fetch.min.bytes?)",
                        "source.orders.kafka.consumer.fetch.max.wait.msec: unknown consumer property (did you mean fetch.max.wait.ms?)",
                        "source.orders.kafka.consumer.totally.unknown.thing: unknown consumer property");
    }

    @Test
    void misspeltTypedKeyIsAProblemWithItsPath() {
        assertThat(problems("""
                source:
                  orders:
                    kafka: {brokers: b:9092, topics: [orders], group_id: g, group_instance: x}
                """))
                .singleElement()
                .asString()
                .startsWith("source.orders.kafka.group_instance: unknown key");
    }

    @Test
    void securityPropertiesAreAllowedThroughThePassthroughButNotTwice() {
        assertThat(parse("""
                source:
                  orders:
                    kafka:
                      brokers: b:9092
                      topics: [orders]
                      group_id: g
                      consumer: {security.protocol: SASL_PLAINTEXT, sasl.mechanism: PLAIN, sasl.jaas.config: x}
                """)
                        .source("orders")
                        .connector(KafkaSourceConfig.class)
                        .consumer())
                .hasSize(3);
        assertThat(problems("""
                source:
                  orders:
                    kafka:
                      brokers: b:9092
                      topics: [orders]
                      group_id: g
                      security: {protocol: SASL_PLAINTEXT, sasl: {mechanism: PLAIN, username: u, password: p}}
                      consumer: {security.protocol: SASL_PLAINTEXT}
                """))
                .containsExactly("source.orders.kafka.consumer.security.protocol: is also set by the typed security"
                        + " section; set it in one place");
    }

    @Test
    void typedSecuritySectionIsCheckedWithItsPath() {
        assertThat(problems("""
                source:
                  orders:
                    kafka:
                      brokers: b:9092
                      topics: [orders]
                      group_id: g
                      security: {protocol: PLAINTEXT, sasl: {mechanism: PLAIN, username: u, password: p}}
                """))
                .containsExactly("source.orders.kafka.security.sasl: needs protocol SASL_SSL or SASL_PLAINTEXT"
                        + " (protocol is PLAINTEXT)");
    }

    @Test
    void tooShortTimeoutsAreProblems() {
        assertThat(problems("""
                source:
                  orders:
                    kafka: {brokers: b:9092, topics: [orders], group_id: g, session_timeout: 500ms, revoke_timeout: 0s}
                """))
                .containsExactlyInAnyOrder(
                        "source.orders.kafka.session_timeout: must be at least 1s",
                        "source.orders.kafka.revoke_timeout: must be at least 1ms");
    }

    @Test
    void kafkaSourceFromASectionUsesItsNameAndErrorPolicy() {
        PipelineConfig config = parse("""
                source:
                  orders:
                    kafka: {brokers: b:9092, topics: [orders], group_id: g, on_error: skip}
                """);

        KafkaSource<String> source = KafkaSource.from(config.source("orders")).string();

        assertThat(source.name()).isEqualTo("orders");
        assertThat(source.errorPolicy()).isEqualTo(ErrorPolicy.SKIP);
        assertThat(source.config().groupId()).isEqualTo("g");
        assertThat(source.pollTimeout()).isEqualTo(Duration.ofMillis(100));
    }

    @Test
    void builtInCodeConfigHasDefaults() {
        KafkaSourceConfig config = KafkaSourceConfig.custom()
                .brokers("b:9092")
                .topics("t")
                .groupId("g")
                .build()
                .withGroupInstanceId("i-1");
        assertThat(config.groupInstanceId()).isEqualTo("i-1");
        assertThat(config.maxPollRecords()).isEqualTo(KafkaSourceConfig.DEFAULT_MAX_POLL_RECORDS);
        assertThatThrownBy(() -> KafkaSource.from(new SourceSection("x", "other", "cfg", null)))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("source.x");
    }
}
