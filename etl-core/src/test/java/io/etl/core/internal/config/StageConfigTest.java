package io.etl.core.internal.config;

import static io.etl.core.internal.config.Configs.parse;
import static io.etl.core.internal.config.Configs.problems;
import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.config.AsyncOrdering;
import io.etl.core.config.StageConfig;
import io.etl.core.error.ErrorPolicy;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class StageConfigTest {

    @Test
    void stageSettingsBindFromTheirSectionAndLeaveTheRestUnset() {
        StageConfig enrich = parse("""
                        pipeline:
                          stages:
                            enrich:
                              concurrency: 200
                              ordering: partition
                              timeout: 2s
                              rate_limit: 500
                              key_queue: 8
                              on_error: dead_letter
                        """).pipeline().stages().get("enrich");

        assertThat(enrich)
                .isEqualTo(StageConfig.custom()
                        .concurrency(200)
                        .ordering(AsyncOrdering.PARTITION)
                        .timeout(Duration.ofSeconds(2))
                        .rateLimit(500)
                        .keyQueue(8)
                        .onError(ErrorPolicy.DEAD_LETTER)
                        .build());
        assertThat(enrich.attempts()).isNull();
        assertThat(enrich.queue()).isNull();
    }

    @Test
    void anUnknownStageKeyFailsNamingItsPath() {
        assertThat(problems("pipeline: {stages: {enrich: {concurency: 3}}}\n"))
                .singleElement()
                .asString()
                .contains("pipeline.stages.enrich.concurency");
    }

    @Test
    void aStageValueOutOfRangeFailsNamingItsPath() {
        assertThat(problems("pipeline: {stages: {enrich: {concurrency: 0, ordering: sideways}}}\n"))
                .anySatisfy(p -> assertThat(p).contains("pipeline.stages.enrich.ordering"));
        assertThat(problems("pipeline: {stages: {enrich: {concurrency: 0}}}\n"))
                .singleElement()
                .asString()
                .contains("pipeline.stages.enrich.concurrency")
                .contains("greater than or equal to 1");
    }

    @Test
    void aKeySetInTheFileOverridesTheSameKeyGivenInCode() {
        StageConfig code = StageConfig.custom()
                .concurrency(50)
                .ordering(AsyncOrdering.NONE)
                .build();
        StageConfig file = StageConfig.custom().concurrency(4).build();

        StageConfig merged = code.overriddenBy(file);

        assertThat(merged.concurrency()).isEqualTo(4);
        assertThat(merged.ordering()).isEqualTo(AsyncOrdering.NONE);
        assertThat(code.overriddenBy(null)).isEqualTo(code);
    }
}
