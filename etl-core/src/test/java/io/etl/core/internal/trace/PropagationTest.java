package io.etl.core.internal.trace;

import static io.etl.core.internal.trace.SpansTest.PARENT;
import static io.etl.core.internal.trace.SpansTest.run;
import static io.etl.core.internal.trace.SpansTest.withTracing;
import static io.etl.core.internal.trace.TracePipelines.meta;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.ThreadMXBean;
import io.etl.core.Pipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.config.TracingConfig;
import io.etl.core.internal.trace.TracePipelines.CapturingSink;
import io.etl.core.internal.trace.TracePipelines.ListSource;
import io.etl.core.record.Header;
import io.etl.core.record.RecordMeta;
import io.etl.core.record.TraceContext;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.lang.management.ManagementFactory;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Without an OpenTelemetry SDK (the API's no-op global): outputs carry their input's trace context, nothing more. */
class PropagationTest {

    @BeforeEach
    void noSdkRegistered() {
        GlobalOpenTelemetry.resetForTest();
    }

    @Test
    void picksPropagationWhenNoSdkIsRegistered() {
        assertThat(RecordTracing.create(TracingConfig.defaults(), "p", "s")).isSameAs(RecordTracing.PROPAGATE);
        assertThat(RecordTracing.create(new TracingConfig(false, null), "p", "s"))
                .isSameAs(RecordTracing.OFF);
        assertThat(RecordTracing.create(new TracingConfig(false, true), "p", "s"))
                .isSameAs(RecordTracing.OFF);
    }

    @Test
    void leavesTheGlobalUnsetSoTheApplicationCanRegisterItsSdkLater() {
        RecordTracing.create(TracingConfig.defaults(), "p", "s");

        assertThat(GlobalOpenTelemetry.isSet()).isFalse();
        GlobalOpenTelemetry.set(OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder()
                        .addSpanProcessor(SimpleSpanProcessor.create(InMemorySpanExporter.create()))
                        .build())
                .build());
        assertThat(RecordTracing.create(TracingConfig.defaults(), "p", "s")).isNotSameAs(RecordTracing.PROPAGATE);
        GlobalOpenTelemetry.resetForTest();
    }

    @Test
    void handsEveryOutputItsInputsTraceContext() {
        CapturingSink sink = new CapturingSink();
        RecordMeta traced = meta(
                0,
                Header.of("region", "eu"),
                Header.of(TraceContext.TRACEPARENT, PARENT),
                Header.of(TraceContext.TRACESTATE, "vendor=a"));

        run(
                Pipeline.named("copy")
                        .from(new ListSource(List.of(traced, meta(1))))
                        .flatMap(v -> List.of(v, v))
                        .to(sink),
                sink,
                4,
                PipelineConfig.defaults());

        assertThat(sink.encoded)
                .filteredOn(e -> e.meta().offset() == 0)
                .hasSize(2)
                .allSatisfy(e -> {
                    assertThat(e.trace().traceparent())
                            .isSameAs(traced.headers().get(1));
                    assertThat(e.trace().tracestate()).isSameAs(traced.headers().get(2));
                });
        assertThat(sink.encoded)
                .filteredOn(e -> e.meta().offset() == 1)
                .hasSize(2)
                .allSatisfy(e ->
                        assertThat(e.trace()).as("no trace context to carry").isNull());
    }

    @Test
    void passesNoTraceContextWhenPropagationIsOff() {
        CapturingSink sink = new CapturingSink();

        run(
                Pipeline.named("off")
                        .from(new ListSource(List.of(meta(0, Header.of(TraceContext.TRACEPARENT, PARENT)))))
                        .to(sink),
                sink,
                1,
                withTracing(new TracingConfig(false, null)));

        assertThat(sink.encoded)
                .singleElement()
                .satisfies(e -> assertThat(e.trace()).isNull());
    }

    @Test
    void allocatesNothingForARecordWithoutTraceparent() {
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        RecordTracing tracing = RecordTracing.PROPAGATE;
        RecordMeta plain = meta(0, Header.of("region", "eu"), Header.of("source", "crm"));
        for (int i = 0; i < 20_000; i++) {
            tracing.endOutput(null);
            tracing.beginOutput(tracing.beginRecord(plain), "out");
        }
        long thread = Thread.currentThread().getId();

        long before = threads.getThreadAllocatedBytes(thread);
        int carried = 0;
        for (int i = 0; i < 100_000; i++) {
            TraceContext record = tracing.beginRecord(plain);
            if (tracing.beginOutput(record, "out") != null) {
                carried++;
            }
            tracing.endOutput(null);
            tracing.endRecord();
        }
        long allocated = threads.getThreadAllocatedBytes(thread) - before;

        assertThat(carried).isZero();
        assertThat(allocated)
                .as("bytes allocated for 100,000 records without traceparent")
                .isLessThan(10_000);
    }
}
