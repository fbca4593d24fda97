package io.etl.core.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.config.BatchConfig;
import io.etl.core.config.BreakerConfig;
import io.etl.core.config.PipelineConfig;
import io.etl.core.config.RetryConfig;
import io.etl.core.config.SinkPoolConfig;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StartupWarmUpTest {

    record Leaf(@Min(1) int size) {}

    record Tree(@Valid Leaf leaf, List<@Valid Leaf> leaves, Map<String, @Valid Tree> children, String name) {}

    @Test
    void describesEveryTypeTheConstraintsCascadeTo() {
        assertThat(ConfigValidator.warmUp(SinkPoolConfig.class))
                .containsExactlyInAnyOrder(
                        SinkPoolConfig.class, BatchConfig.class, RetryConfig.class, BreakerConfig.class);
    }

    @Test
    void followsContainerElementsAndStopsAtCycles() {
        assertThat(ConfigValidator.warmUp(Tree.class)).containsExactlyInAnyOrder(Tree.class, Leaf.class);
    }

    @Test
    void awaitingThePreloadStartsItAndReturnsOnceItIsDone() {
        assertThat(PipelineConfig.awaitPreload(Duration.ofSeconds(60))).isTrue();
        assertThat(PipelineConfig.awaitPreload(Duration.ZERO))
                .as("already done")
                .isTrue();
    }

    @Test
    void loadingAfterPreloadReportsTheSameProblems() {
        String yaml = "pipeline: {name: p}\ncheckpoint: {interval: -1s, unknown_key: 1}\n";
        String before = problemsOf(yaml);
        PipelineConfig.preload();
        assertThat(problemsOf(yaml)).isEqualTo(before).contains("checkpoint.unknown_key");
    }

    private static String problemsOf(String yaml) {
        try {
            PipelineConfig.parse(yaml, name -> null);
            return "";
        } catch (RuntimeException e) {
            return e.getMessage();
        }
    }
}
