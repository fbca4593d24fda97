package io.etl.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.Pipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.error.ConfigException;
import io.etl.core.error.ConfigProblem;
import io.etl.testkit.driver.PipelineTestDriver;
import io.etl.testkit.driver.TestSink;
import io.etl.testkit.driver.TestSource;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class FailureOutputTest {

    @Test
    void configurationProblemsFoundAtStartAreOneLineNamingEachWithoutAStackTrace() {
        String err = runFailing(ConfigException.of("source.in.kafka.topics", "topic 'in' not found"));

        assertThat(err.lines())
                .containsExactly(
                        "error: pipeline 'failing' failed:",
                        "  sinks.out.kafka.topic: topic 'out' does not exist",
                        "  source.in.kafka.topics: topic 'in' not found");
    }

    @Test
    void problemsWithOneMessageShareALineNamingEveryPath() {
        String unreachable = "could not reach brokers b:9092 within 1s";
        String err = runFailing(new ConfigException(List.of(
                new ConfigProblem("source.in.kafka.brokers", unreachable),
                new ConfigProblem("sinks.eu.kafka.brokers", unreachable),
                new ConfigProblem("sinks.us.kafka.topic", "topic 'us' does not exist"))));

        assertThat(err.lines())
                .containsExactly(
                        "error: pipeline 'failing' failed:",
                        "  sinks.out.kafka.topic: topic 'out' does not exist",
                        "  source.in.kafka.brokers, sinks.eu.kafka.brokers: " + unreachable,
                        "  sinks.us.kafka.topic: topic 'us' does not exist");
    }

    @Test
    void anyOtherFailureIsFollowedByItsStackTrace() {
        String err = runFailing(new IllegalStateException("the source broke"));

        assertThat(err.lines().findFirst())
                .hasValue("error: pipeline 'failing' failed: sinks.out.kafka.topic: topic 'out' does not exist");
        assertThat(err).contains("Suppressed: java.lang.IllegalStateException: the source broke", "\tat ");
    }

    /** Runs a service whose sink cannot open for a missing topic and whose source's opening throws {@code failure}. */
    private static String runFailing(RuntimeException sourceFailure) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        try (PipelineTestDriver parts = PipelineTestDriver.create()) {
            TestSource<String> in = parts.<String>source("in", 1).failOpening(sourceFailure);
            TestSink<String> out = parts.<String>sink("out")
                    .failOpening(ConfigException.of("sinks.out.kafka.topic", "topic 'out' does not exist"));
            PipelineFactory factory = new PipelineFactory() {
                @Override
                public String name() {
                    return "failing";
                }

                @Override
                public Pipeline create(PipelineConfig config) {
                    return Pipeline.named("failing").from(in).to(out);
                }
            };

            int exit = PipelineService.of(factory, PipelineConfig.defaults())
                    .httpPort(0)
                    .stopSignal(StopSignal.manual())
                    .err(err)
                    .run();

            assertThat(exit).isEqualTo(ExitCodes.FAILED);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
