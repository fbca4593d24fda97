package io.etl.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class JvmMetersTest {

    @Test
    void nothingIsBoundUntilAskedAndAskingAgainBindsNothingMore() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (JvmMeters jvm = new JvmMeters()) {
            assertThat(jvm.bound()).isFalse();
            assertThat(registry.getMeters()).isEmpty();

            jvm.bindTo(registry);
            int meters = registry.getMeters().size();
            assertThat(jvm.bound()).isTrue();
            assertThat(registry.find("jvm.memory.used").gauges()).isNotEmpty();
            assertThat(registry.find("jvm.gc.memory.allocated").counter()).isNotNull();
            assertThat(registry.find("process.uptime").timeGauge()).isNotNull();

            jvm.bindTo(new SimpleMeterRegistry());
            jvm.bindTo(registry);
            assertThat(registry.getMeters()).hasSize(meters);
        }
    }
}
