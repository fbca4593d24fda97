package io.etl.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BrokerOptionsTest {

    @Test
    void forkedBrokersKeepTheKitsFlagsUnlessOptionsNameOthers() {
        assertThat(BrokerOptions.defaults().jvmOptions()).isEmpty();
        assertThat(new BrokerOptions(Map.of(), null, Duration.ofSeconds(5), null).jvmOptions())
                .isEmpty();
        assertThat(new BrokerOptions(Map.of(), null, null, null, null).jvmOptions())
                .isEmpty();
    }

    @Test
    void jvmFlagsAreCopiedAndSurviveAnAddedBrokerProperty() {
        List<String> flags = new ArrayList<>(List.of("-Xmx1G", "-XX:+UseG1GC"));
        BrokerOptions options = BrokerOptions.builder().jvmOptions(flags).build();
        flags.add("-Xss256k");

        BrokerOptions more = options.withBrokerProperty("num.io.threads", "2");

        assertThat(options.jvmOptions()).containsExactly("-Xmx1G", "-XX:+UseG1GC");
        assertThat(more.jvmOptions()).containsExactly("-Xmx1G", "-XX:+UseG1GC");
        assertThat(more.brokerProperties()).containsEntry("num.io.threads", "2");
        assertThatThrownBy(() -> options.jvmOptions().add("-Xmx2G")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> BrokerOptions.builder().jvmOptions(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void aFixedPortAndAKeptDataDirectorySurviveAnAddedBrokerProperty() {
        BrokerOptions options = BrokerOptions.builder()
                .clientPort(9092)
                .dataDirectory(Path.of("kafka-data"))
                .build()
                .withBrokerProperty("num.partitions", "3");

        assertThat(options.clientPort()).isEqualTo(9092);
        assertThat(options.dataDirectory()).isEqualTo(Path.of("kafka-data"));
        assertThat(BrokerOptions.defaults().clientPort()).isZero();
        assertThat(BrokerOptions.defaults().dataDirectory()).isNull();
    }

    @Test
    void aPortOutsideTheRangeIsRejectedWithTheValue() {
        assertThatThrownBy(() -> BrokerOptions.builder().clientPort(70_000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("clientPort must be 0..65535, got 70000");
    }

    @Test
    void forkedBrokersRefuseAFixedPortBeforeStartingAnything() {
        BrokerOptions options = BrokerOptions.builder().clientPort(9092).build();

        assertThatThrownBy(() -> KafkaTestCluster.forkedSingle(options))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("options of the embedded broker");
    }
}
