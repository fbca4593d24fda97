package io.etl.core.internal.trace;

import static io.etl.core.internal.trace.TracePipelines.meta;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.core.Pipeline;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.config.PipelineSection;
import io.etl.core.config.TracingConfig;
import io.etl.core.internal.trace.TracePipelines.CapturingSink;
import io.etl.core.internal.trace.TracePipelines.Encoded;
import io.etl.core.internal.trace.TracePipelines.ListSource;
import io.etl.core.record.Header;
import io.etl.core.record.RecordMeta;
import io.etl.core.record.TraceContext;
import io.etl.core.sink.Encoder;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collector;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** With an OpenTelemetry SDK registered: a consumer span per record, a producer span per output, in the input's trace. */
class SpansTest {

    static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    static final String INPUT_SPAN = "00f067aa0ba902b7";
    static final String PARENT = "00-" + TRACE_ID + "-" + INPUT_SPAN + "-01";

    @RegisterExtension
    static final OpenTelemetryExtension OTEL = OpenTelemetryExtension.create();

    @Test
    void createsAProcessSpanPerRecordAndASendSpanPerOutputUnderTheInputsTrace() {
        Map<Long, SpanContext> currentInOperator = new ConcurrentHashMap<>();
        CapturingSink sink = new CapturingSink();
        ListSource source = new ListSource(List.of(
                meta(0, Header.of(TraceContext.TRACEPARENT, PARENT), Header.of(TraceContext.TRACESTATE, "vendor=a"))));

        run(
                Pipeline.named("traced")
                        .from(source)
                        .mapRecord("seen", (v, m) -> {
                            currentInOperator.put(m.offset(), Span.current().getSpanContext());
                            return v;
                        })
                        .flatMap("twice", v -> List.of(v, v))
                        .to(sink),
                sink,
                2,
                PipelineConfig.defaults());

        List<SpanData> spans = OTEL.getSpans();
        SpanData consumer = only(spans, SpanKind.CONSUMER);
        assertThat(consumer.getName()).isEqualTo("process in");
        assertThat(consumer.getTraceId()).isEqualTo(TRACE_ID);
        assertThat(consumer.getParentSpanId()).isEqualTo(INPUT_SPAN);
        assertThat(consumer.getParentSpanContext().isRemote()).isTrue();
        assertThat(consumer.getAttributes().asMap())
                .containsEntry(OtelRecordTraceKeys.DESTINATION, "in")
                .containsEntry(OtelRecordTraceKeys.OFFSET, 0L)
                .containsEntry(OtelRecordTraceKeys.PIPELINE, "traced");
        assertThat(currentInOperator.get(0L))
                .as("the consumer span is current while operators run")
                .isEqualTo(consumer.getSpanContext());

        List<SpanData> producers =
                spans.stream().filter(s -> s.getKind() == SpanKind.PRODUCER).toList();
        assertThat(producers).hasSize(2).allSatisfy(p -> {
            assertThat(p.getName()).isEqualTo("send out");
            assertThat(p.getTraceId()).isEqualTo(TRACE_ID);
            assertThat(p.getParentSpanId()).isEqualTo(consumer.getSpanId());
            assertThat(p.hasEnded()).isTrue();
        });
        assertThat(sink.encoded)
                .extracting(e -> e.trace().traceparent().valueAsString())
                .containsExactlyInAnyOrderElementsOf(producers.stream()
                        .map(p -> "00-" + TRACE_ID + "-" + p.getSpanId() + "-01")
                        .toList());
        assertThat(sink.encoded).allSatisfy(e -> {
            assertThat(e.trace().tracestate().valueAsString()).isEqualTo("vendor=a");
            assertThat(e.trace().inputTraceparent().valueAsString()).isEqualTo(PARENT);
        });
    }

    @Test
    void startsANewTraceForARecordWithoutTraceparent() {
        CapturingSink sink = new CapturingSink();

        run(
                Pipeline.named("roots")
                        .from(new ListSource(List.of(meta(0), meta(1))))
                        .to(sink),
                sink,
                2,
                PipelineConfig.defaults());

        List<SpanData> consumers = OTEL.getSpans().stream()
                .filter(s -> s.getKind() == SpanKind.CONSUMER)
                .toList();
        assertThat(consumers)
                .hasSize(2)
                .allSatisfy(c -> assertThat(c.getParentSpanContext().isValid()).isFalse());
        assertThat(consumers.get(0).getTraceId()).isNotEqualTo(consumers.get(1).getTraceId());
        Map<String, SpanData> producerBySpanId = OTEL.getSpans().stream()
                .filter(s -> s.getKind() == SpanKind.PRODUCER)
                .collect(Collectors.toMap(SpanData::getSpanId, Function.identity()));
        assertThat(sink.encoded).hasSize(2).allSatisfy(e -> {
            String[] parts = e.trace().traceparent().valueAsString().split("-");
            SpanData producer = producerBySpanId.get(parts[2]);
            assertThat(producer).as("producer span of %s", e.value()).isNotNull();
            assertThat(parts[1]).isEqualTo(producer.getTraceId());
            assertThat(e.trace().inputTraceparent()).isNull();
        });
    }

    @Test
    void startsANewTraceWhenTheInputsTraceparentIsMalformed() {
        CapturingSink sink = new CapturingSink();
        String malformed = "00-not-a-trace-01";

        run(
                Pipeline.named("malformed")
                        .from(new ListSource(List.of(meta(0, Header.of(TraceContext.TRACEPARENT, malformed)))))
                        .to(sink),
                sink,
                1,
                PipelineConfig.defaults());

        SpanData consumer = only(OTEL.getSpans(), SpanKind.CONSUMER);
        assertThat(consumer.getParentSpanContext().isValid()).isFalse();
        TraceContext output = sink.encoded.get(0).trace();
        assertThat(output.traceparent().valueAsString()).startsWith("00-" + consumer.getTraceId() + "-");
        assertThat(output.applyTo(List.of(Header.of(TraceContext.TRACEPARENT, malformed))))
                .as("a copy of the malformed header is replaced")
                .containsExactly(output.traceparent());
    }

    @Test
    void marksTheSpansOfAnOutputTheEncoderRejected() {
        CapturingSink sink = new CapturingSink() {
            @Override
            public Encoder<String, Encoded> encoder() {
                Encoder<String, Encoded> base = super.encoder();
                return new Encoder<>() {
                    @Override
                    public Encoded encode(String value, RecordMeta meta, int outputIndex) {
                        throw new IllegalStateException("no");
                    }

                    @Override
                    public Encoded encode(String value, RecordMeta meta, int outputIndex, TraceContext trace) {
                        if (meta.offset() == 0) {
                            throw new IllegalArgumentException("cannot encode " + value);
                        }
                        return base.encode(value, meta, outputIndex, trace);
                    }

                    @Override
                    public long sizeOf(Encoded message) {
                        return 1;
                    }
                };
            }
        };

        run(
                Pipeline.named("rejects")
                        .from(new ListSource(List.of(
                                meta(0, Header.of(TraceContext.TRACEPARENT, PARENT)),
                                meta(1, Header.of(TraceContext.TRACEPARENT, PARENT)))))
                        .to(sink),
                sink,
                1,
                PipelineConfig.defaults());

        List<SpanData> spans = OTEL.getSpans();
        SpanData failedSend = spans.stream()
                .filter(s -> s.getKind() == SpanKind.PRODUCER && s.getStatus().getStatusCode() == StatusCode.ERROR)
                .collect(single());
        assertThat(failedSend.getStatus().getDescription()).contains("cannot encode v0");
        assertThat(spans.stream()
                        .filter(s -> s.getKind() == SpanKind.CONSUMER
                                && s.getStatus().getStatusCode() == StatusCode.ERROR)
                        .toList())
                .singleElement()
                .satisfies(c -> assertThat(c.getSpanId()).isEqualTo(failedSend.getParentSpanId()));
        assertThat(spans).filteredOn(s -> s.getKind() == SpanKind.CONSUMER).hasSize(2);
    }

    @Test
    void createsNoSpansWhenSpansAreOff() {
        CapturingSink sink = new CapturingSink();
        PipelineConfig config = withTracing(new TracingConfig(true, false));

        run(
                Pipeline.named("plain")
                        .from(new ListSource(List.of(meta(0, Header.of(TraceContext.TRACEPARENT, PARENT)))))
                        .to(sink),
                sink,
                1,
                config);

        assertThat(OTEL.getSpans()).isEmpty();
        assertThat(sink.encoded.get(0).trace().traceparent().valueAsString()).isEqualTo(PARENT);
    }

    @Test
    void callsFromAnotherThreadLeaveThePipelineThreadsSpansAlone() throws InterruptedException {
        RecordTracing tracing = RecordTracing.create(TracingConfig.defaults(), "p", "s");
        tracing.beginRecord(meta(0, Header.of(TraceContext.TRACEPARENT, PARENT)));
        SpanContext current = Span.current().getSpanContext();

        Thread worker = new Thread(() -> {
            tracing.recordFailed(new IllegalStateException("from a worker"));
            tracing.endRecord();
        });
        worker.start();
        worker.join();

        assertThat(OTEL.getSpans()).as("nothing ended by the worker").isEmpty();
        tracing.endRecord();
        assertThat(OTEL.getSpans()).singleElement().satisfies(span -> {
            assertThat(span.getSpanContext()).isEqualTo(current);
            assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
        });
        assertThat(Span.current().getSpanContext().isValid())
                .as("the scope was closed")
                .isFalse();
    }

    static PipelineConfig withTracing(TracingConfig tracing) {
        return PipelineConfig.custom()
                .pipeline(PipelineSection.custom().tracing(tracing).build())
                .build();
    }

    static void run(Pipeline pipeline, CapturingSink sink, int outputs, PipelineConfig config) {
        RunningPipeline running = pipeline.start(config);
        try {
            await().atMost(Duration.ofSeconds(10))
                    .until(() ->
                            sink.written.size() >= outputs || running.result().isDone());
        } finally {
            running.stopAndWait(Duration.ofSeconds(10));
        }
        assertThat(sink.written).hasSize(outputs);
    }

    static SpanData only(List<SpanData> spans, SpanKind kind) {
        return spans.stream().filter(s -> s.getKind() == kind).collect(single());
    }

    static <T> Collector<T, ?, T> single() {
        return Collectors.collectingAndThen(Collectors.toList(), list -> {
            assertThat(list).hasSize(1);
            return list.get(0);
        });
    }

    /** The attribute keys, read where the test can see them. */
    static final class OtelRecordTraceKeys {
        static final AttributeKey<String> DESTINATION = AttributeKey.stringKey("messaging.destination.name");
        static final AttributeKey<Long> OFFSET = AttributeKey.longKey("etl.source.offset");
        static final AttributeKey<String> PIPELINE = AttributeKey.stringKey("etl.pipeline");
    }
}
