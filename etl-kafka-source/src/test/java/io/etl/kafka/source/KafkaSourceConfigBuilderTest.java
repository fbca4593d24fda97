package io.etl.kafka.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.core.error.ConfigException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KafkaSourceConfigBuilderTest {

    @Test
    void customStartsFromTheDefaults() {
        KafkaSourceConfig config = KafkaSourceConfig.custom()
                .brokers("b:9092")
                .topics("orders")
                .groupId("g")
                .build();

        assertThat(config).isEqualTo(KafkaSourceConfig.of("b:9092", List.of("orders"), "g"));
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

    @Test
    void rejectsZeroMaxPollRecords() {
        assertThatThrownBy(() -> KafkaSourceConfig.custom().maxPollRecords(0))
                .isInstanceOf(ConfigException.class)
                .hasMessage("invalid configuration: max_poll_records: must be greater than or equal to 1");
    }

    @Test
    void rejectsTooManyPollRecords() {
        assertThatThrownBy(() -> KafkaSourceConfig.custom().maxPollRecords(100_001))
                .hasMessage("invalid configuration: max_poll_records: must be less than or equal to 100000");
    }

    @Test
    void rejectsSessionTimeoutBelowOneSecond() {
        assertThatThrownBy(() -> KafkaSourceConfig.custom().sessionTimeout(Duration.ofMillis(999)))
                .hasMessage("invalid configuration: session_timeout: must be at least 1s");
    }

    @Test
    void rejectsInvalidGroupInstanceId() {
        assertThatThrownBy(() -> KafkaSourceConfig.custom().groupInstanceId("a b"))
                .hasMessageStartingWith("invalid configuration: group_instance_id: must be at most 249 characters");
    }

    @Test
    void rejectsBlankTopic() {
        assertThatThrownBy(() -> KafkaSourceConfig.custom().topics("orders", ""))
                .hasMessage("invalid configuration: topics[1]: must not be blank");
    }

    @Test
    void rejectsDeniedConsumerPropertyNamingIt() {
        assertThatThrownBy(() -> KafkaSourceConfig.custom().consumer(Map.of("group.id", "x")))
                .isInstanceOfSatisfying(
                        ConfigException.class,
                        e -> assertThat(e.problems())
                                .anySatisfy(p -> assertThat(p.path()).isEqualTo("consumer.group.id")));
    }

    @Test
    void rejectsTopicsAndPatternTogetherAtBuild() {
        assertThatThrownBy(() -> KafkaSourceConfig.custom()
                        .brokers("b")
                        .groupId("g")
                        .topicPattern("orders-.*")
                        .topics("orders")
                        .build())
                .hasMessage("invalid configuration: topic_pattern: cannot be combined with topics:"
                        + " set exactly one of topics and topic_pattern");
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
}
