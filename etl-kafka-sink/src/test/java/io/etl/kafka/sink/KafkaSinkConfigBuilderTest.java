package io.etl.kafka.sink;

import static io.etl.core.config.ConfigRejection.rejected;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.core.config.ConfigRejection;
import io.etl.core.config.DataSize;
import io.etl.kafka.sink.internal.ProducerSettings;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class KafkaSinkConfigBuilderTest {

    @Test
    void customStartsFromTheDefaults() {
        KafkaSinkConfig config =
                KafkaSinkConfig.custom().brokers("b:9092").topic("t").build();

        assertThat(config).isEqualTo(KafkaSinkConfig.of("b:9092", "t"));
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
                .topics(TopicSpec.of("u", 3))
                .build();

        assertThat(copy.brokers()).isEqualTo("b:9092");
        assertThat(copy.compression()).isEqualTo(Compression.LZ4);
        assertThat(copy.deliveryTimeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(copy.topic()).isEqualTo("u");
        assertThat(copy.topics()).containsExactly(TopicSpec.of("u", 3));
        assertThat(base.topic()).isEqualTo("t");
    }

    static Stream<ConfigRejection> settingsOutOfRange() {
        return Stream.of(
                rejected(() -> KafkaSinkConfig.custom().brokers("b:9092").build(), "topic: must not be blank"),
                rejected(() -> KafkaSinkConfig.custom().brokers(" "), "brokers: must not be blank"),
                rejected(
                        () -> KafkaSinkConfig.custom().deliveryTimeout(Duration.ofMillis(500)),
                        "delivery_timeout: must be at least 1s"),
                rejected(
                        () -> KafkaSinkConfig.custom().maxMessageBytes(DataSize.ofBytes(0)),
                        "max_message_bytes: must be between 1B and 2GB"),
                rejected(
                        () -> KafkaSinkConfig.custom().topics(TopicSpec.of("a", 1), TopicSpec.of("a", 2)),
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
}
