package io.etl.core.internal.config;

import static io.etl.core.internal.config.Configs.problems;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.etl.core.config.BreakerConfig;
import io.etl.core.config.SinkPoolConfig;
import io.etl.core.error.ConfigException;
import org.junit.jupiter.api.Test;

/**
 * A builder's setter and YAML validation word the same problem the same way, and binding a file still reports
 * every problem at once although each record's constructor rejects a value out of range.
 */
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

    @Test
    void bindingReportsEveryProblemOfTheFileAtOnceThoughEachConstructorWouldStopAtItsFirst() {
        assertThat(problems("""
                        pipeline: {operator_attempts: 0, transactional_id: " "}
                        sinks:
                          eu:
                            kafka: {brokers: b, topic: t, shards: 0, queue: 0, batch: {max_records: 0}}
                        checkpoint: {max_pending_records: 0, drain_timeout: 1m}
                        """))
                .containsExactlyInAnyOrder(
                        "pipeline.operator_attempts: must be greater than or equal to 1",
                        "pipeline.transactional_id: must not be blank when set",
                        "sinks.eu.kafka.shards: must be between 1 and 256",
                        "sinks.eu.kafka.queue: must be between 1 and 1024",
                        "sinks.eu.kafka.batch.max_records: must be greater than or equal to 1",
                        "checkpoint.max_pending_records: must be greater than or equal to 1",
                        "pipeline.shutdown_timeout: is 45s but must be greater than checkpoint.drain_timeout (1m),"
                                + " which has to fit inside it with time left to commit and close the clients");
    }

    @Test
    void constructorsCheckAgainOnceABindingEnded() {
        problems("sinks: {eu: {kafka: {brokers: b, topic: t, shards: 0}}}\n");

        assertThatThrownBy(() -> new SinkPoolConfig(0, null, null, null, null, null, null))
                .isInstanceOf(ConfigException.class)
                .hasMessage("invalid configuration: shards: must be between 1 and 256");
    }
}
