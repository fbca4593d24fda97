package io.etl.kafka.sink;

import static io.etl.core.config.ConfigRejection.rejected;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.core.config.ConfigRejection;
import io.etl.core.config.DataSize;
import io.etl.core.error.ConfigException;
import io.etl.kafka.common.KafkaSaslConfig;
import io.etl.kafka.common.KafkaSecurityConfig;
import io.etl.kafka.common.SecurityProtocol;
import io.etl.kafka.sink.internal.ProducerSettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The sink's builder: defaults, copies, a check at every setter, and a check of the whole by the constructor and
 * every {@code with...} copy, so that no path builds a section YAML validation would reject.
 */
class KafkaSinkConfigBuilderTest {

    private static final KafkaSinkConfig BASE =
            KafkaSinkConfig.custom().brokers("b:9092").topic("t").build();

    @Test
    void customStartsFromTheDefaults() {
        KafkaSinkConfig config =
                KafkaSinkConfig.custom().brokers("b:9092").topic("t").build();

        assertThat(config)
                .isEqualTo(new KafkaSinkConfig(
                        "b:9092", "t", null, null, null, null, null, null, null, null, null, null, null, null, null));
        assertThat(config.producerLinger()).isEqualTo(KafkaSinkConfig.DEFAULT_PRODUCER_LINGER);
    }

    @Test
    void fromKeepsEverythingNotSetAgain() {
        KafkaSinkConfig base = KafkaSinkConfig.custom()
                .brokers("b:9092")
                .topic("t")
                .compression(Compression.LZ4)
                .deliveryTimeout(Duration.ofSeconds(60))
                .build();

        KafkaSinkConfig copy = KafkaSinkConfig.from(base)
                .topic("u")
                .topics(TopicSpec.custom().name("u").partitions(3).build())
                .build();

        assertThat(copy.brokers()).isEqualTo("b:9092");
        assertThat(copy.compression()).isEqualTo(Compression.LZ4);
        assertThat(copy.deliveryTimeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(copy.topic()).isEqualTo("u");
        assertThat(copy.topics())
                .containsExactly(TopicSpec.custom().name("u").partitions(3).build());
        assertThat(base.topic()).isEqualTo("t");
    }

    static Stream<ConfigRejection> settingsOutOfRange() {
        return Stream.of(
                rejected(() -> KafkaSinkConfig.custom().topic(" "), "topic: must not be blank"),
                rejected(
                        () -> KafkaSinkConfig.custom()
                                .brokers("b:9092")
                                .topic("t")
                                .route(RouteConfig.matching("orders-.*"))
                                .build(),
                        "route: a route's template names no topic (the route picks one per record): remove topic,"
                                + " or route"),
                // the route block checks itself where it is built, before the sink section sees it
                rejected(
                        () -> KafkaSinkConfig.routeTemplate("b:9092", RouteConfig.matching("(")),
                        "topic_pattern: is not a regular expression: Unclosed group"),
                rejected(() -> KafkaSinkConfig.custom().brokers(" "), "brokers: must not be blank"),
                rejected(
                        () -> KafkaSinkConfig.custom().deliveryTimeout(Duration.ofMillis(500)),
                        "delivery_timeout: must be at least 1s"),
                rejected(
                        () -> KafkaSinkConfig.custom().maxMessageBytes(DataSize.ofBytes(0)),
                        "max_message_bytes: must be between 1B and 2GB"),
                rejected(
                        () -> KafkaSinkConfig.custom()
                                .topics(
                                        TopicSpec.custom()
                                                .name("a")
                                                .partitions(1)
                                                .build(),
                                        TopicSpec.custom()
                                                .name("a")
                                                .partitions(2)
                                                .build()),
                        "topics[1].name: topic 'a' is listed twice"),
                rejected(
                        () -> KafkaSinkConfig.custom().producer(Map.of("bootstrap.servers", "x")),
                        "producer.bootstrap.servers: is not allowed: "
                                + ProducerSettings.DENIED.get("bootstrap.servers")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("settingsOutOfRange")
    void rejectsSettingOutOfRangeWithTheYamlMessage(ConfigRejection rejection) {
        rejection.assertRejected();
    }

    @Test
    void rejectsProducerLingerNotBelowDeliveryTimeoutAtBuild() {
        KafkaSinkConfig.Builder builder =
                KafkaSinkConfig.custom().brokers("b:9092").topic("t").producerLinger(Duration.ofSeconds(40));

        assertThatThrownBy(builder::build)
                .hasMessage(
                        "invalid configuration: producer_linger: must be at least 0ms and below delivery_timeout (30s)");
        assertThat(builder.deliveryTimeout(Duration.ofSeconds(60)).build().producerLinger())
                .isEqualTo(Duration.ofSeconds(40));
    }

    static Stream<ConfigRejection> pathsAroundTheBuilder() {
        return Stream.of(
                rejected(
                        () -> new KafkaSinkConfig(
                                "b:9092", " ", null, null, null, null, null, null, null, null, null, null, null, null,
                                null),
                        "topic: must not be blank"),
                rejected(
                        () -> new KafkaSinkConfig(
                                "b:9092",
                                "t",
                                Duration.ofSeconds(2),
                                null,
                                null,
                                null,
                                Duration.ofSeconds(3),
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null),
                        "producer_linger: must be at least 0ms and below delivery_timeout (2s)"),
                rejected(
                        () -> new KafkaSinkConfig(
                                "b:9092",
                                "t",
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                null,
                                Map.of("acks", "1"),
                                null,
                                null,
                                null),
                        "producer.acks: is not allowed: " + ProducerSettings.DENIED.get("acks")),
                rejected(() -> BASE.withDeliveryTimeout(Duration.ofMillis(4)), "delivery_timeout: must be at least 1s"),
                rejected(
                        () -> KafkaSinkConfig.from(BASE)
                                .producerLinger(Duration.ofSeconds(10))
                                .build()
                                .withDeliveryTimeout(Duration.ofSeconds(4)),
                        "producer_linger: must be at least 0ms and below delivery_timeout (4s)"),
                rejected(
                        () -> BASE.withMaxMessageBytes(DataSize.ofBytes(0)),
                        "max_message_bytes: must be between 1B and 2GB"),
                rejected(
                        () -> BASE.withStatisticsInterval(Duration.ofSeconds(-1)),
                        "statistics_interval: must not be negative (0s disables statistics)"),
                rejected(
                        () -> BASE.withProducer(Map.of("linger.ms", "5")),
                        "producer.linger.ms: is not allowed: owned by the typed 'producer_linger' field"),
                rejected(
                        () -> BASE.withTopics(List.of(
                                TopicSpec.custom().name("a").build(),
                                TopicSpec.custom().name("a").build())),
                        "topics[1].name: topic 'a' is listed twice"),
                rejected(() -> BASE.withAnnotations(Map.of(" ", "x")), "annotations: keys must not be blank"),
                rejected(
                        () -> BASE.withSecurity(KafkaSecurityConfig.custom()
                                .protocol(SecurityProtocol.SASL_SSL)
                                .build()),
                        "security.sasl: is required with protocol SASL_SSL (or set sasl.mechanism and"
                                + " sasl.jaas.config in the client passthrough)"),
                rejected(() -> new TopicSpec("t", 0, null, null), "partitions: must be greater than or equal to 1"),
                rejected(() -> TopicSpec.custom().build(), "name: must not be blank"),
                rejected(
                        () -> TopicSpec.custom().replicationFactor(0),
                        "replication_factor: must be greater than or equal to 1"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pathsAroundTheBuilder")
    void constructorAndCopiesRejectWhatTheBuilderRejects(ConfigRejection rejection) {
        rejection.assertRejected();
    }

    @Test
    void copiesGoThroughTheBuilderAndKeepTheRest() {
        KafkaSecurityConfig sasl = KafkaSecurityConfig.saslSsl(KafkaSaslConfig.scramSha512("etl", "pw"), null);
        KafkaSinkConfig copy = BASE.withSecurity(sasl).withStatisticsInterval(Duration.ZERO);

        assertThat(copy)
                .isEqualTo(KafkaSinkConfig.from(BASE)
                        .security(sasl)
                        .statisticsInterval(Duration.ZERO)
                        .build());
        assertThat(copy.withSecurity(null).security()).isNull();
        assertThat(copy.topic()).isEqualTo("t");
        assertThatThrownBy(() -> new KafkaSinkConfig(
                        null,
                        null,
                        null,
                        DataSize.ofBytes(0),
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
                        null))
                .isInstanceOfSatisfying(
                        ConfigException.class,
                        e -> assertThat(e.problems())
                                .extracting(Object::toString)
                                .as("every constraint at once; the rules between keys wait for those")
                                .containsExactly("brokers: must not be blank"));
    }

    @Test
    void aSectionWithoutTopicOrRouteIsBuiltButNoSinkWritesWithIt() {
        // the retry section's writer names no topic: its topics are named after the source's
        KafkaSinkConfig noTopic = KafkaSinkConfig.custom().brokers("b:9092").build();
        assertThat(noTopic.topic()).isNull();
        assertThat(noTopic.route()).isNull();

        assertThatThrownBy(() -> KafkaSink.from("eu", noTopic, null))
                .isInstanceOfSatisfying(
                        ConfigException.class,
                        e -> assertThat(e.problems())
                                .extracting(Object::toString)
                                .containsExactly("sinks.eu.kafka.topic: must not be blank"));
    }
}
