package io.etl.kafka.common.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class AdminSettingsTest {

    private static final Map<String, Object> CONNECTION = Map.of(
            "bootstrap.servers", "b:9093",
            "security.protocol", "SASL_SSL",
            "sasl.mechanism", "PLAIN",
            "acks", "all",
            "group.id", "g");

    @Test
    void adminPropertiesKeepWhatAnAdminClientKnowsAndSetTheCallersBoundAndId() {
        Properties props = AdminSettings.properties(CONNECTION, Duration.ofSeconds(7), "etl-check-sinks.eu.kafka");

        assertThat(props)
                .containsOnly(
                        Map.entry("bootstrap.servers", "b:9093"),
                        Map.entry("security.protocol", "SASL_SSL"),
                        Map.entry("sasl.mechanism", "PLAIN"),
                        Map.entry("default.api.timeout.ms", 7000),
                        Map.entry("request.timeout.ms", 7000),
                        Map.entry("client.id", "etl-check-sinks.eu.kafka"));
    }

    @Test
    void theClusterIdentityIgnoresTheClientIdAndTheTimeouts() {
        Properties a = AdminSettings.properties(CONNECTION, Duration.ofSeconds(1), "a");
        Properties b = AdminSettings.properties(CONNECTION, Duration.ofMinutes(1), "b");
        Properties other = AdminSettings.properties(Map.of("bootstrap.servers", "c:9093"), Duration.ofSeconds(1), "a");

        assertThat(AdminSettings.clusterIdentity(a))
                .isEqualTo(AdminSettings.clusterIdentity(b))
                .containsOnlyKeys("bootstrap.servers", "security.protocol", "sasl.mechanism")
                .isNotEqualTo(AdminSettings.clusterIdentity(other));
    }

    @Test
    void millisecondsAreClampedToWhatAnAdminOptionTakes() {
        assertThat(AdminSettings.millis(Duration.ZERO)).isEqualTo(1);
        assertThat(AdminSettings.millis(Duration.ofMillis(-5))).isEqualTo(1);
        assertThat(AdminSettings.millis(Duration.ofDays(365))).isEqualTo(Integer.MAX_VALUE);
        assertThat(AdminSettings.millisUntil(System.nanoTime() - 1_000_000)).isEqualTo(1);
    }
}
