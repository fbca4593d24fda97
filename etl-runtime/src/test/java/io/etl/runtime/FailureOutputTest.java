package io.etl.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.Pipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.config.SinkPoolConfig;
import io.etl.core.error.ConfigException;
import io.etl.core.record.RecordMeta;
import io.etl.core.sink.Encoder;
import io.etl.core.sink.Sink;
import io.etl.core.sink.SinkContext;
import io.etl.core.sink.SinkWriter;
import io.etl.core.source.CommitCallback;
import io.etl.core.source.Source;
import io.etl.core.source.SourceContext;
import io.etl.core.source.SourceOutput;
import io.etl.core.source.SourcePartition;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FailureOutputTest {

    @Test
    void configurationProblemsFoundAtStartAreOneLineNamingEachWithoutAStackTrace() {
        String err = runFailing(() -> {
            throw ConfigException.of("source.in.kafka.topics", "topic 'in' not found");
        });

        assertThat(err.lines())
                .singleElement()
                .isEqualTo("error: pipeline 'failing' failed: invalid configuration: sinks.out.kafka.topic: topic"
                        + " 'out' does not exist; source.in.kafka.topics: topic 'in' not found");
    }

    @Test
    void anyOtherFailureIsFollowedByItsStackTrace() {
        String err = runFailing(() -> {
            throw new IllegalStateException("the source broke");
        });

        assertThat(err.lines().findFirst())
                .hasValue("error: pipeline 'failing' failed: invalid configuration: sinks.out.kafka.topic: topic"
                        + " 'out' does not exist");
        assertThat(err).contains("Suppressed: java.lang.IllegalStateException: the source broke", "\tat ");
    }

    /** Runs a pipeline whose sink cannot open for a missing topic and whose source's opening does {@code open}. */
    private static String runFailing(Runnable open) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        PipelineFactory factory = new PipelineFactory() {
            @Override
            public String name() {
                return "failing";
            }

            @Override
            public Pipeline create(PipelineConfig config) {
                return Pipeline.named("failing").from(new OpeningSource(open)).to(new MissingTopicSink());
            }
        };

        int exit = PipelineService.of(factory, PipelineConfig.defaults())
                .httpPort(0)
                .stopSignal(StopSignal.manual())
                .err(err)
                .run();

        assertThat(exit).isEqualTo(ExitCodes.FAILED);
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /** A source that runs {@code open} when opened and never has a record. */
    private record OpeningSource(Runnable open) implements Source<String> {
        @Override
        public String name() {
            return "in";
        }

        @Override
        public void open(SourceContext context) {
            open.run();
        }

        @Override
        public void poll(Duration timeout, SourceOutput<String> output) {}

        @Override
        public void commit(Map<SourcePartition, Long> offsets, boolean sync, CommitCallback done) {
            done.completed(offsets, null);
        }

        @Override
        public void pause() {}

        @Override
        public void resume() {}

        @Override
        public void close(Duration timeout) {}
    }

    /** A sink whose writer cannot open: its topic is missing. */
    private static final class MissingTopicSink implements Sink<String, String> {
        @Override
        public String name() {
            return "out";
        }

        @Override
        public SinkPoolConfig pool() {
            return SinkPoolConfig.defaults();
        }

        @Override
        public Encoder<String, String> encoder() {
            return new Encoder<>() {
                @Override
                public String encode(String value, RecordMeta meta, int outputIndex) {
                    return value;
                }

                @Override
                public long sizeOf(String message) {
                    return message.length();
                }
            };
        }

        @Override
        public SinkWriter<String> openWriter(SinkContext context) {
            throw ConfigException.of("sinks.out.kafka.topic", "topic 'out' does not exist");
        }
    }
}
