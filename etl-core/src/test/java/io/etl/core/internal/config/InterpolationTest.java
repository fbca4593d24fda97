package io.etl.core.internal.config;

import static io.etl.core.internal.config.Configs.parse;
import static io.etl.core.internal.config.Configs.problems;
import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.config.DataSize;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InterpolationTest {

    private static String substitute(String text, Map<String, String> env) {
        ProblemCollector problems = new ProblemCollector();
        String value = new Interpolator(env::get, problems).substitute(text, "k", new ArrayList<>());
        problems.throwIfAny();
        return value;
    }

    @Test
    void substitutesAVariableInsideAString() {
        assertThat(substitute("${HOST}:${PORT}", Map.of("HOST", "b1", "PORT", "9092")))
                .isEqualTo("b1:9092");
    }

    @Test
    void colonDashDefaultIsUsedWhenUnsetOrEmpty() {
        assertThat(substitute("${B:-localhost:9092}", Map.of())).isEqualTo("localhost:9092");
        assertThat(substitute("${B:-localhost:9092}", Map.of("B", ""))).isEqualTo("localhost:9092");
        assertThat(substitute("${B:-localhost:9092}", Map.of("B", "b1"))).isEqualTo("b1");
    }

    @Test
    void dashDefaultIsUsedOnlyWhenUnset() {
        assertThat(substitute("${B-fallback}", Map.of())).isEqualTo("fallback");
        assertThat(substitute("[${B-fallback}]", Map.of("B", ""))).isEqualTo("[]");
    }

    @Test
    void defaultMayItselfHoldAPlaceholder() {
        assertThat(substitute("${A:-${B:-x}}", Map.of("B", "b"))).isEqualTo("b");
        assertThat(substitute("${A:-${B:-x}}", Map.of())).isEqualTo("x");
    }

    @Test
    void doubleDollarEscapesALiteralPlaceholder() {
        assertThat(substitute("$${NOT_A_VAR} costs $5", Map.of())).isEqualTo("${NOT_A_VAR} costs $5");
        assertThat(substitute("${A:-$${B}}", Map.of())).isEqualTo("${B}");
    }

    @Test
    void unsetVariableIsAProblemNamingTheVariableAndThePath() {
        assertThat(problems("""
                sinks:
                  eu:
                    kafka: {brokers: "${KAFKA_BROKERS}", topic: t}
                """))
                .containsExactly("sinks.eu.kafka.brokers: environment variable KAFKA_BROKERS is not set");
    }

    @Test
    void questionMarkFormFailsWithItsMessage() {
        String yaml = """
                sinks:
                  eu:
                    kafka: {brokers: "${KAFKA_BROKERS:?set it to the cluster address}", topic: t}
                """;

        assertThat(problems(yaml))
                .containsExactly(
                        "sinks.eu.kafka.brokers: environment variable KAFKA_BROKERS is not set or empty: set it to the cluster address");
        assertThat(problems(yaml, Map.of("KAFKA_BROKERS", ""))).hasSize(1);
        assertThat(parse(yaml, Map.of("KAFKA_BROKERS", "b:1"))
                        .sink("eu")
                        .connector(FakeSinkConfig.class)
                        .brokers())
                .isEqualTo("b:1");
    }

    @Test
    void unsetVariablesInListsCarryTheirIndex() {
        assertThat(problems("""
                source:
                  orders:
                    kafka: {brokers: b, topics: [a, "${T1}", "x-${T2}"]}
                """))
                .containsExactly(
                        "source.orders.kafka.topics[1]: environment variable T1 is not set",
                        "source.orders.kafka.topics[2]: environment variable T2 is not set");
    }

    @Test
    void malformedPlaceholdersAreProblems() {
        assertThat(problems("pipeline: {name: 'a${B'}\nmetrics: {common_tags: {x: '${1X}', y: '${A:x}'}}"))
                .containsExactly(
                        "pipeline.name: unterminated ${ placeholder; " + Interpolator.FORMS,
                        "metrics.common_tags.x: malformed placeholder: a variable name must start with a letter or '_'; "
                                + Interpolator.FORMS,
                        "metrics.common_tags.y: malformed placeholder for A; " + Interpolator.FORMS);
    }

    @Test
    void substitutedScalarsCoerceToNumbersBooleansDurationsAndSizes() {
        FakeSinkConfig sink =
                parse("""
                sinks:
                  eu:
                    kafka:
                      brokers: b
                      topic: t
                      shards: ${SHARDS}
                      max_message_bytes: ${MAX:-2MiB}
                      request_timeout: ${TIMEOUT}
                metrics: {enabled: "${METRICS:-false}"}
                """, Map.of("SHARDS", "3", "TIMEOUT", "45s")).sink("eu").connector(FakeSinkConfig.class);

        assertThat(sink.maxMessageBytes()).isEqualTo(DataSize.ofMebibytes(2));
        assertThat(sink.requestTimeout()).isEqualTo(Duration.ofSeconds(45));
        assertThat(parse("sinks: {eu: {kafka: {brokers: b, topic: t, shards: '${S}'}}}", Map.of("S", "3"))
                        .sink("eu")
                        .pool()
                        .shards())
                .isEqualTo(3);
        assertThat(parse("metrics: {enabled: '${M:-false}'}").metrics().enabled())
                .isFalse();
    }

    @Test
    void substitutedValuesNeverAppearInProblems() {
        List<String> found = problems(
                """
                pipeline: {on_error: "${POLICY}"}
                checkpoint: {interval: "${INTERVAL}"}
                sinks:
                  eu:
                    kafka: {brokers: b, topic: t, shards: "${SHARDS}"}
                """, Map.of("POLICY", "s3cr3t-policy", "INTERVAL", "s3cr3t-interval", "SHARDS", "s3cr3t-shards"));

        assertThat(found)
                .containsExactly(
                        "pipeline.on_error: value of ${POLICY} is not one of skip, fail, dead_letter, retry",
                        "checkpoint.interval: value of ${INTERVAL} is not a duration; use 250ms, 30s, 5m, 1h or ISO-8601",
                        "sinks.eu.kafka.shards: expected a whole number (value of ${SHARDS})");
        assertThat(String.join("\n", found)).doesNotContain("s3cr3t");
    }

    @Test
    void keysAreNotInterpolatedAndYamlStructureCannotBeInjected() {
        FakeSinkConfig sink =
                parse("""
                sinks:
                  eu:
                    kafka: {brokers: "${B}", topic: t}
                """, Map.of("B", "x\nshards: 99\n}")).sink("eu").connector(FakeSinkConfig.class);

        assertThat(sink.brokers()).isEqualTo("x\nshards: 99\n}");
    }
}
