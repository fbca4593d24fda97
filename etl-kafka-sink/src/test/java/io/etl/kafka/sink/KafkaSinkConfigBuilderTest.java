package io.etl.kafka.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.core.config.DataSize;
import io.etl.core.error.ConfigException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

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

    @Test
    void rejectsMissingTopicAtBuild() {
        assertThatThrownBy(() -> KafkaSinkConfig.custom().brokers("b:9092").build())
                .isInstanceOf(ConfigException.class)
                .hasMessage("invalid configuration: topic: must not be blank");
    }

    @Test
    void rejectsBlankBrokers() {
        assertThatThrownBy(() -> KafkaSinkConfig.custom().brokers(" "))
                .hasMessage("invalid configuration: brokers: must not be blank");
    }

    @Test
    void rejectsDeliveryTimeoutBelowOneSecond() {
        assertThatThrownBy(() -> KafkaSinkConfig.custom().deliveryTimeout(Duration.ofMillis(500)))
                .hasMessage("invalid configuration: delivery_timeout: must be at least 1s");
    }

    @Test
    void rejectsZeroMaxMessageBytes() {
        assertThatThrownBy(() -> KafkaSinkConfig.custom().maxMessageBytes(DataSize.ofBytes(0)))
                .hasMessage("invalid configuration: max_message_bytes: must be between 1B and 2GB");
    }

    @Test
    void rejectsDeniedProducerPropertyNamingIt() {
        assertThatThrownBy(() -> KafkaSinkConfig.custom().producer(Map.of("bootstrap.servers", "x")))
                .isInstanceOfSatisfying(
                        ConfigException.class,
                        e -> assertThat(e.problems())
                                .allSatisfy(p -> assertThat(p.path()).startsWith("producer")));
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

    @Test
    void rejectsTwiceListedTopic() {
        assertThatThrownBy(() -> KafkaSinkConfig.custom().topics(TopicSpec.of("a", 1), TopicSpec.of("a", 2)))
                .hasMessage("invalid configuration: topics[1].name: topic 'a' is listed twice");
    }
}
