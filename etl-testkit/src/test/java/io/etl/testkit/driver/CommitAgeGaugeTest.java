package io.etl.testkit.driver;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.Pipeline;
import io.etl.core.metrics.EtlMetrics;
import io.micrometer.core.instrument.Gauge;
import org.junit.jupiter.api.Test;

/** {@code etl_checkpoint_last_commit_age_seconds}: no value before the first commit, then the time since the last. */
class CommitAgeGaugeTest {

    @Test
    void isNaNBeforeTheFirstCommitAndSmallRightAfterOne() {
        try (PipelineTestDriver driver = PipelineTestDriver.create()) {
            TestSource<String> in = driver.input("in", String.class);
            TestSink<String> out = driver.output("out", String.class);
            driver.start(Pipeline.named("age").from(in).to(out));
            Gauge age = driver.meterRegistry()
                    .get(EtlMetrics.CHECKPOINT_LAST_COMMIT_AGE)
                    .gauge();
            assertThat(age.value()).isNaN();

            in.send("k", "v");
            driver.awaitCommitted();

            assertThat(age.value()).isBetween(0.0, 10.0);
        }
    }
}
