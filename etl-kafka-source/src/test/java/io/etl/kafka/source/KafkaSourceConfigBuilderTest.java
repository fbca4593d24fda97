package io.etl.kafka.source;

import static io.etl.core.config.ConfigRejection.rejected;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.core.config.ConfigRejection;
import io.etl.core.error.ConfigException;
import io.etl.kafka.common.KafkaSecurityConfig;
import io.etl.kafka.common.SecurityProtocol;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The source's builder: defaults, copies, a check at every setter, and a check of the whole by the constructor and
 * every {@code with...} copy, so that no path builds a section YAML validation would reject.
 */
class KafkaSourceConfigBuilderTest {

    private static final KafkaSourceConfig BASE = KafkaSourceConfig.custom()
            .brokers("b:9092")
            .topics("orders")
            .groupId("g")
            .build();

    @Test
    void customStartsFromTheDefaults() {
        KafkaSourceConfig config = KafkaSourceConfig.custom()
                .brokers("b:9092")
                .topics("orders")
                .groupId("g")
                .build();

        assertThat(config)
                .isEqualTo(new KafkaSourceConfig(
                        "b:9092",
                        List.of("orders"),
                        null,
                        "g",
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null));
    }

    @Test
    void fromKeepsEverythingNotSetAgain() {
        KafkaSourceConfig base = KafkaSourceConfig.custom()
                .brokers("b:9092")
                .topics("orders")
                .groupId("g")
                .maxPollRecords(500)
                .sessionTimeout(Duration.ofSeconds(30))
                .build();

        KafkaSourceConfig copy =
                KafkaSourceConfig.from(base).groupInstanceId("host-1").build();

        assertThat(copy.maxPollRecords()).isEqualTo(500);
        assertThat(copy.sessionTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(copy.groupInstanceId()).isEqualTo("host-1");
        assertThat(base.groupInstanceId()).isNull();
    }

    static Stream<ConfigRejection> settingsOutOfRange() {
        return Stream.of(
                rejected(
                        () -> KafkaSourceConfig.custom().maxPollRecords(0),
                        "max_poll_records: must be greater than or equal to 1"),
                rejected(
                        () -> KafkaSourceConfig.custom().maxPollRecords(100_001),
                        "max_poll_records: must be less than or equal to 100000"),
                rejected(
                        () -> KafkaSourceConfig.custom().sessionTimeout(Duration.ofMillis(999)),
                        "session_timeout: must be at least 1s"),
                rejected(() -> KafkaSourceConfig.custom().topics("orders", ""), "topics[1]: must not be blank"),
                rejected(
                        () -> KafkaSourceConfig.custom()
                                .brokers("b:9092")
                                .groupId("g")
                                .topicPattern("orders-.*")
                                .topics("orders")
                                .build(),
                        "topic_pattern: cannot be combined with topics: set exactly one of topics and topic_pattern"),
                rejected(
                        () -> KafkaSourceConfig.custom().consumer(Map.of("group.id", "x")),
                        "consumer.group.id: is not allowed: set group_id instead"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("settingsOutOfRange")
    void rejectsSettingOutOfRangeWithTheYamlMessage(ConfigRejection rejection) {
        rejection.assertRejected();
    }

    @Test
    void rejectsInvalidGroupInstanceId() {
        assertThatThrownBy(() -> KafkaSourceConfig.custom().groupInstanceId("a b"))
                .hasMessageStartingWith("invalid configuration: group_instance_id: must be at most 249 characters");
    }

    @Test
    void listsEveryMissingRequiredSettingAtBuild() {
        assertThatThrownBy(() -> KafkaSourceConfig.custom().build())
                .isInstanceOfSatisfying(
                        ConfigException.class,
                        e -> assertThat(e.problems())
                                .extracting(Object::toString)
                                .contains("brokers: must not be blank", "group_id: must not be blank"));
    }

    static Stream<ConfigRejection> pathsAroundTheBuilder() {
        return Stream.of(
                rejected(
                        () -> new KafkaSourceConfig(
                                "b:9092", null, null, "g", null, null, null, null, null, null, null, null, null, null,
                                null, null),
                        "topics: set exactly one of topics and topic_pattern"),
                rejected(
                        () -> new KafkaSourceConfig(
                                "b:9092",
                                List.of("t"),
                                null,
                                "g",
                                null,
                                null,
                                0,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null),
                        "max_poll_records: must be greater than or equal to 1"),
                rejected(
                        () -> new KafkaSourceConfig(
                                "b:9092",
                                List.of("t"),
                                null,
                                "g",
                                null,
                                null,
                                null,
                                null,
                                null,
                                Duration.ofMillis(10),
                                null,
                                null,
                                null,
                                null,
                                null,
                                null),
                        "session_timeout: must be at least 1s"),
                rejected(
                        () -> BASE.withGroupInstanceId("a b"),
                        "group_instance_id: must be at most 249 characters of a-z, A-Z, 0-9, '.', '_' and '-' (for"
                                + " example the host name); got 'a b'"),
                rejected(
                        () -> BASE.withConsumer(Map.of("enable.auto.commit", "true")),
                        "consumer.enable.auto.commit: is not allowed: the pipeline commits offsets itself, only"
                                + " behind durable output"),
                rejected(
                        () -> BASE.withSecurity(KafkaSecurityConfig.custom()
                                .protocol(SecurityProtocol.SASL_PLAINTEXT)
                                .build()),
                        "security.sasl: is required with protocol SASL_PLAINTEXT (or set sasl.mechanism and"
                                + " sasl.jaas.config in the client passthrough)"),
                rejected(
                        () -> KafkaSourceConfig.from(BASE).topicPattern("orders-("),
                        "topic_pattern: is not a valid regular expression (Unclosed group near index 8)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pathsAroundTheBuilder")
    void constructorAndCopiesRejectWhatTheBuilderRejects(ConfigRejection rejection) {
        rejection.assertRejected();
    }

    @Test
    void copiesGoThroughTheBuilderAndKeepTheRest() {
        KafkaSourceConfig copy = BASE.withGroupInstanceId("host-1").withConsumer(Map.of("fetch.min.bytes", "1"));

        assertThat(copy)
                .isEqualTo(KafkaSourceConfig.from(BASE)
                        .groupInstanceId("host-1")
                        .consumer(Map.of("fetch.min.bytes", "1"))
                        .build());
        assertThat(copy.withSecurity(KafkaSecurityConfig.plaintext())
                        .withSecurity(null)
                        .security())
                .isNull();
        assertThat(copy.topics()).containsExactly("orders");
    }
}
