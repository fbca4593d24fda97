package io.etl.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TrainingRunTest {

    @Test
    void waitsForThePreloadAndBuildsTheMetricsWithoutABroker() {
        List<String> steps = TrainingRun.run();

        assertThat(steps).hasSize(2).first().isEqualTo("configuration preload finished");
        assertThat(steps.get(1))
                .startsWith("metrics registry with the JVM's meters: ")
                .endsWith(" lines scraped");
        long lines = Long.parseLong(steps.get(1).replaceAll("\\D+", ""));
        assertThat(lines).isGreaterThan(20);
    }
}
