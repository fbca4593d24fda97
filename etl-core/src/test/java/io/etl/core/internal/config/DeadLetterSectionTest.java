package io.etl.core.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.etl.core.config.ConnectorConfigType;
import io.etl.core.config.PipelineConfig;
import io.etl.core.config.SinkPoolConfig;
import io.etl.core.config.SinkSection;
import io.etl.core.error.ConfigException;
import io.etl.core.error.ConfigProblem;
import io.etl.core.error.DeadLetter;
import io.etl.core.sink.Encoder;
import io.etl.core.sink.Sink;
import io.etl.core.sink.SinkContext;
import io.etl.core.sink.SinkWriter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DeadLetterSectionTest {

    /** A sink type that can write dead letters; its sink is only bound here, never opened. */
    private static final class DeadLetterCapableType implements ConnectorConfigType<FakeSinkConfig> {
        @Override
        public Role role() {
            return Role.SINK;
        }

        @Override
        public String key() {
            return "kafka";
        }

        @Override
        public Class<FakeSinkConfig> type() {
            return FakeSinkConfig.class;
        }

        @Override
        public Optional<Sink<DeadLetter, ?>> deadLetterSink(SinkSection section) {
            FakeSinkConfig config = section.connector(FakeSinkConfig.class);
            return Optional.of(new Sink<DeadLetter, DeadLetter>() {
                @Override
                public String name() {
                    return section.name() + "->" + config.topic();
                }

                @Override
                public SinkPoolConfig pool() {
                    return section.pool();
                }

                @Override
                public Encoder<DeadLetter, DeadLetter> encoder() {
                    throw new UnsupportedOperationException("binding only");
                }

                @Override
                public SinkWriter<DeadLetter> openWriter(SinkContext context) {
                    throw new UnsupportedOperationException("binding only");
                }
            });
        }
    }

    private static final List<ConnectorConfigType<?>> CAPABLE =
            List.of(new FakeSourceType("kafka"), new DeadLetterCapableType());

    private static List<String> problems(String yaml, List<ConnectorConfigType<?>> types) {
        ConfigException e =
                catchThrowableOfType(ConfigException.class, () -> ConfigLoader.parse(yaml, n -> null, types));
        assertThat(e).as("expected a ConfigException").isNotNull();
        return e.problems().stream().map(ConfigProblem::toString).toList();
    }

    @Test
    void deadLetterSectionBindsLikeASinkEntryWithItsConnectorKey() {
        PipelineConfig config = ConfigLoader.parse("""
                dead_letter:
                  kafka: {brokers: b, topic: orders-dlt, shards: 2, producer: {linger.ms: "5"}}
                """, n -> null, CAPABLE);

        assertThat(config.deadLetter()).hasValueSatisfying(section -> {
            assertThat(section.name()).isEqualTo(PipelineConfig.DEAD_LETTER);
            assertThat(section.connector()).isEqualTo("kafka");
            assertThat(section.connector(FakeSinkConfig.class))
                    .isEqualTo(new FakeSinkConfig("b", "orders-dlt", null, null, null, Map.of("linger.ms", "5")));
            assertThat(section.pool().shards()).isEqualTo(2);
        });
    }

    @Test
    void noDeadLetterSectionIsEmpty() {
        assertThat(ConfigLoader.parse("pipeline: {name: p}", n -> null, CAPABLE).deadLetter())
                .isEmpty();
        assertThat(PipelineConfig.defaults().deadLetter()).isEmpty();
    }

    @Test
    void onErrorInTheDeadLetterSectionIsAProblemWithItsPath() {
        assertThat(problems("dead_letter: {kafka: {brokers: b, topic: t, on_error: skip}}", CAPABLE))
                .containsExactly(
                        "dead_letter.kafka.on_error: has no meaning for the dead-letter sink: a dead letter that cannot be"
                                + " written fails the pipeline");
    }

    @Test
    void aConnectorThatCannotWriteDeadLettersIsAProblem() {
        assertThat(problems("dead_letter: {kafka: {brokers: b, topic: t}}", Configs.KAFKA))
                .containsExactly("dead_letter.kafka: the kafka connector cannot write dead letters");
    }

    @Test
    void deadLetterSectionProblemsCarryTheirPath() {
        assertThat(problems("dead_letter: {kafka: {brokers: b, topik: t}}", CAPABLE))
                .anySatisfy(p -> assertThat(p).startsWith("dead_letter.kafka.topik: unknown key"));
        assertThat(problems("dead_letter: {kafka: {brokers: b, topic: t}, other: {}}", CAPABLE))
                .singleElement()
                .satisfies(p -> assertThat(p).startsWith("dead_letter: has 2 connector keys"));
    }
}
