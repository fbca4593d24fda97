package io.etl.kafka.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.core.config.DataSize;
import io.etl.core.error.ConfigException;
import io.etl.kafka.sink.internal.ProducerSettings;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
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

    static Stream<Arguments> settingsOutOfRange() {
        return Stream.of(
                outOfRange(() -> KafkaSinkConfig.custom().brokers("b:9092").build(), "topic: must not be blank"),
                outOfRange(() -> KafkaSinkConfig.custom().brokers(" "), "brokers: must not be blank"),
                outOfRange(
                        () -> KafkaSinkConfig.custom().deliveryTimeout(Duration.ofMillis(500)),
                        "delivery_timeout: must be at least 1s"),
                outOfRange(
                        () -> KafkaSinkConfig.custom().maxMessageBytes(DataSize.ofBytes(0)),
                        "max_message_bytes: must be between 1B and 2GB"),
                outOfRange(
                        () -> KafkaSinkConfig.custom().topics(TopicSpec.of("a", 1), TopicSpec.of("a", 2)),
                        "topics[1].name: topic 'a' is listed twice"),
                outOfRange(
                        () -> KafkaSinkConfig.custom().producer(Map.of("bootstrap.servers", "x")),
                        "producer.bootstrap.servers: is not allowed: "
                                + ProducerSettings.DENIED.get("bootstrap.servers")));
    }

    private static Arguments outOfRange(ThrowingCallable call, String problem) {
        return Arguments.of(call, problem);
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("settingsOutOfRange")
    void rejectsSettingOutOfRangeWithTheYamlMessage(ThrowingCallable call, String problem) {
        assertThatThrownBy(call).isInstanceOf(ConfigException.class).hasMessage("invalid configuration: " + problem);
    }

    @Test
    void rejectsProducerLingerNotBelowDeliveryTimeoutAtBuild() {
        KafkaSinkConfig.Builder builder =
                KafkaSinkConfig.custom().brokers("b").topic("t").producerLinger(Duration.ofSeconds(40));

        assertThatThrownBy(builder::build)
                .hasMessage(
                        "invalid configuration: producer_linger: must be at least 0ms and below delivery_timeout (30s)");
        assertThat(builder.deliveryTimeout(Duration.ofSeconds(60)).build().producerLinger())
                .isEqualTo(Duration.ofSeconds(40));
    }
}
