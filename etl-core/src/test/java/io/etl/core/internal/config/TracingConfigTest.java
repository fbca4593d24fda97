package io.etl.core.internal.config;

import static io.etl.core.internal.config.Configs.parse;
import static io.etl.core.internal.config.Configs.problems;
import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.config.PipelineSection;
import io.etl.core.config.TracingConfig;
import org.junit.jupiter.api.Test;

class TracingConfigTest {

    @Test
    void tracingPropagatesAndTracesByDefault() {
        TracingConfig tracing = parse("pipeline: {name: p}\n").pipeline().tracing();

        assertThat(tracing.propagate()).isTrue();
        assertThat(tracing.spans()).isTrue();
        assertThat(PipelineSection.defaults().tracing()).isEqualTo(tracing);
    }

    @Test
    void tracingKeysBindYamlBooleans() {
        TracingConfig off =
                parse("pipeline:\n  tracing:\n    propagate: off\n").pipeline().tracing();
        TracingConfig noSpans =
                parse("pipeline: {tracing: {spans: false}}\n").pipeline().tracing();

        assertThat(off).isEqualTo(new TracingConfig(false, true));
        assertThat(noSpans).isEqualTo(new TracingConfig(true, false));
    }

    @Test
    void aTracingValueThatIsNoBooleanFailsNamingTheKey() {
        assertThat(problems("pipeline: {tracing: {propagate: sometimes}}\n"))
                .singleElement()
                .asString()
                .contains("pipeline.tracing.propagate");
    }

    @Test
    void anUnknownTracingKeyFailsNamingThePath() {
        assertThat(problems("pipeline: {tracing: {mode: off}}\n"))
                .singleElement()
                .asString()
                .contains("pipeline.tracing.mode");
    }
}
