package io.etl.core.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.tuple;

import io.etl.core.config.ConnectorConfigType;
import io.etl.core.config.PipelineConfig;
import io.etl.core.config.RetryLevel;
import io.etl.core.config.SinkPoolConfig;
import io.etl.core.config.SinkSection;
import io.etl.core.error.ConfigException;
import io.etl.core.error.ConfigProblem;
import io.etl.core.error.ErrorPolicy;
import io.etl.core.error.RetryLetter;
import io.etl.core.sink.Encoder;
import io.etl.core.sink.Sink;
import io.etl.core.sink.SinkContext;
import io.etl.core.sink.SinkWriter;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RetrySectionTest {

    /** A sink type that can write retry topics; its sink is only bound here, never opened. */
    private static final class RetryCapableType implements ConnectorConfigType<FakeRetryWriterConfig> {
        @Override
        public Role role() {
            return Role.SINK;
        }

        @Override
        public String key() {
            return "kafka";
        }

        @Override
        public Class<FakeRetryWriterConfig> type() {
            return FakeRetryWriterConfig.class;
        }

        @Override
        public Optional<Sink<RetryLetter, ?>> retrySink(SinkSection section) {
            return Optional.of(new Sink<RetryLetter, RetryLetter>() {
                @Override
                public String name() {
                    return section.name();
                }

                @Override
                public SinkPoolConfig pool() {
                    return section.pool();
                }

                @Override
                public Encoder<RetryLetter, RetryLetter> encoder() {
                    throw new UnsupportedOperationException("binding only");
                }

                @Override
                public SinkWriter<RetryLetter> openWriter(SinkContext context) {
                    throw new UnsupportedOperationException("binding only");
                }
            });
        }
    }

    /** The retry writer's section: brokers only. */
    record FakeRetryWriterConfig(String brokers) {}

    private static final List<ConnectorConfigType<?>> CAPABLE =
            List.of(new FakeSourceType("kafka"), new RetryCapableType());

    private static List<String> problems(String yaml, List<ConnectorConfigType<?>> types) {
        ConfigException e =
                catchThrowableOfType(ConfigException.class, () -> ConfigLoader.parse(yaml, n -> null, types));
        assertThat(e).as("expected a ConfigException").isNotNull();
        return e.problems().stream().map(ConfigProblem::toString).toList();
    }

    @Test
    void theRetrySectionBindsItsLevelsAndItsConnectorKey() {
        PipelineConfig config = ConfigLoader.parse("""
                retry:
                  topics: [{after: 10s}, {after: 1m, suffix: -retry-slow}, {after: 1m}]
                  then: skip
                  kafka: {brokers: b, shards: 2}
                """, n -> null, CAPABLE);

        assertThat(config.retry()).hasValueSatisfying(section -> {
            assertThat(section.levels().topics())
                    .extracting(RetryLevel::after, RetryLevel::suffix)
                    .containsExactly(
                            tuple(Duration.ofSeconds(10), "-retry-10s"),
                            tuple(Duration.ofMinutes(1), "-retry-slow"),
                            tuple(Duration.ofMinutes(1), "-retry-1m"));
            assertThat(section.levels().then()).isEqualTo(ErrorPolicy.SKIP);
            assertThat(section.levels().topicsFor("orders"))
                    .containsExactly("orders-retry-10s", "orders-retry-slow", "orders-retry-1m");
            assertThat(section.writer().name()).isEqualTo("retry");
            assertThat(section.writer().connector(FakeRetryWriterConfig.class).brokers())
                    .isEqualTo("b");
            assertThat(section.writer().pool().shards()).isEqualTo(2);
        });
        assertThat(ConfigLoader.parse("retry: {topics: [{after: 1s}], kafka: {brokers: b}}", n -> null, CAPABLE)
                        .retry()
                        .orElseThrow()
                        .levels()
                        .then())
                .isEqualTo(ErrorPolicy.DEAD_LETTER);
    }

    @Test
    void levelsAndThenAreCheckedWithTheirPaths() {
        assertThat(problems(
                        "retry: {then: retry, topics: [{after: 0s}, {after: 5s, suffix: \"a b\"}], kafka: {brokers: b}}",
                        CAPABLE))
                .containsExactlyInAnyOrder("retry.topics[1].suffix: may hold only letters, digits, '.', '_' and '-'");
        assertThat(problems("retry: {then: retry, topics: [{after: 0s}], kafka: {brokers: b}}", CAPABLE))
                .containsExactlyInAnyOrder(
                        "retry.topics[0].after: must be above zero",
                        "retry.then: must be dead_letter, skip or fail: the retries are over");
        assertThat(problems("retry: {kafka: {brokers: b}}", CAPABLE))
                .containsExactly("retry.topics: must not be empty");
    }

    @Test
    void onErrorInTheRetryWriterIsAProblemAndSoIsAConnectorThatCannotWriteRetryTopics() {
        assertThat(problems("retry: {topics: [{after: 1s}], kafka: {brokers: b, on_error: skip}}", CAPABLE))
                .containsExactly("retry.kafka.on_error: has no meaning for the retry sink: a record that cannot be"
                        + " written to its retry topic gets the retry section's then policy");
        assertThat(problems("retry: {topics: [{after: 1s}], kafka: {brokers: b, topic: t}}", Configs.KAFKA))
                .containsExactly("retry.kafka: the kafka connector cannot write retry topics");
        assertThat(problems("retry: {topics: [{after: 1s}]}", CAPABLE))
                .singleElement()
                .satisfies(p -> assertThat(p).startsWith("retry: expected exactly one connector key"));
    }
}
