package io.etl.core.internal.config;

import static io.etl.core.internal.config.Configs.problems;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.etl.core.config.BreakerConfig;
import io.etl.core.config.SinkPoolConfig;
import io.etl.core.error.ConfigException;
import org.junit.jupiter.api.Test;

/** A builder's setter and YAML validation word the same problem the same way. */
class CodeConfigValidationTest {

    @Test
    void builderAndYamlGiveTheSameMessageForOneRange() {
        String yaml = problems("""
                pipeline: {name: p}
                sinks:
                  eu:
                    kafka: {brokers: b, topic: t, shards: 0, breaker: {sliding_window: 0}}
                """).get(0);
        ConfigException code = catchThrowableOfType(
                ConfigException.class, () -> SinkPoolConfig.custom().shards(0));
        ConfigException nested = catchThrowableOfType(
                ConfigException.class, () -> BreakerConfig.custom().slidingWindow(0));

        assertThat(yaml)
                .isEqualTo("sinks.eu.kafka.breaker.sliding_window: "
                        + nested.problems().get(0).message());
        assertThat(problems("""
                pipeline: {name: p}
                sinks:
                  eu:
                    kafka: {brokers: b, topic: t, shards: 0}
                """))
                .containsExactly(
                        "sinks.eu.kafka.shards: " + code.problems().get(0).message());
    }
}
