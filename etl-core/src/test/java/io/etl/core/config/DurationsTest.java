package io.etl.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationsTest {

    @Test
    void formatsDurationsAsTheConfigurationWritesThem() {
        assertThat(Durations.format(Duration.ofSeconds(30))).isEqualTo("30s");
        assertThat(Durations.format(Duration.ofMillis(250))).isEqualTo("250ms");
        assertThat(Durations.format(Duration.ofMillis(1500))).isEqualTo("1500ms");
        assertThat(Durations.format(Duration.ofSeconds(90))).isEqualTo("1m30s");
        assertThat(Durations.format(Duration.ofMinutes(5))).isEqualTo("5m");
        assertThat(Durations.format(Duration.ofHours(2))).isEqualTo("2h");
        assertThat(Durations.format(Duration.ofDays(1))).isEqualTo("1d");
        assertThat(Durations.format(Duration.ZERO)).isEqualTo("0s");
        assertThat(Durations.format(Duration.ofSeconds(-3))).isEqualTo("-3s");
    }
}
