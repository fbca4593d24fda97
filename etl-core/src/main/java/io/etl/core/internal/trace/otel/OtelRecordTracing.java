package io.etl.core.internal.trace.otel;

import io.etl.core.internal.trace.RecordTracing;
import io.etl.core.record.Header;
import io.etl.core.record.RecordMeta;
import io.etl.core.record.TraceContext;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.TracerBuilder;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapSetter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Spans through the global OpenTelemetry: per source record a {@code process <topic>} span of kind CONSUMER
 * whose parent is the record's {@code traceparent} (a new trace when it has none), current on the pipeline
 * thread while the chain runs, so spans of user operators nest under it; per output a {@code send <sink>}
 * span of kind PRODUCER, child of the consumer span, whose context the output carries. The producer span
 * covers encoding and the hand-off to the sink's pool; the broker's acknowledgement comes later, per batch.
 */
public final class OtelRecordTracing extends RecordTracing {

    /** The instrumentation scope name of every span the pipeline creates. */
    public static final String SCOPE = "io.etl";

    static final AttributeKey<String> OPERATION_TYPE = AttributeKey.stringKey("messaging.operation.type");
    static final AttributeKey<String> DESTINATION = AttributeKey.stringKey("messaging.destination.name");
    static final AttributeKey<String> PARTITION = AttributeKey.stringKey("messaging.destination.partition.id");
    static final AttributeKey<Long> OFFSET = AttributeKey.longKey("etl.source.offset");
    static final AttributeKey<String> PIPELINE = AttributeKey.stringKey("etl.pipeline");
    static final AttributeKey<String> SOURCE = AttributeKey.stringKey("etl.source");
    static final AttributeKey<String> SINK = AttributeKey.stringKey("etl.sink");

    private static final W3CTraceContextPropagator W3C = W3CTraceContextPropagator.getInstance();

    private static final List<String> KEYS = List.of(TraceContext.TRACEPARENT, TraceContext.TRACESTATE);

    private static final TextMapGetter<TraceContext> GETTER = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(TraceContext carrier) {
            return KEYS;
        }

        @Override
        public String get(TraceContext carrier, String key) {
            if (carrier == null) {
                return null;
            }
            Header h = key.equals(TraceContext.TRACEPARENT)
                    ? carrier.traceparent()
                    : key.equals(TraceContext.TRACESTATE) ? carrier.tracestate() : null;
            return h == null ? null : h.valueAsString();
        }
    };

    private static final TextMapSetter<String[]> SETTER = (carrier, key, value) -> {
        if (TraceContext.TRACEPARENT.equals(key)) {
            carrier[0] = value;
        } else if (TraceContext.TRACESTATE.equals(key)) {
            carrier[1] = value;
        }
    };

    private final Tracer tracer;
    private final String pipeline;
    private Thread owner;
    private final String source;
    private final Map<String, String> sendNames = new HashMap<>();
    private String lastTopic;
    private String lastProcessName;
    private Context record;
    private Span consumer;
    private Scope scope;
    private Span producer;

    private OtelRecordTracing(Tracer tracer, String pipeline, String source) {
        this.tracer = tracer;
        this.pipeline = pipeline;
        this.source = source;
    }

    /**
     * Tracing through the global OpenTelemetry, or null when no SDK is registered (the no-op API). Never
     * registers anything itself: {@code GlobalOpenTelemetry.get()} on an unset global would fix it to the no-op
     * for the life of the JVM, so an application that registers its SDK after starting a pipeline would fail.
     * It is called only when a global is set or OpenTelemetry's own global autoconfiguration is switched on.
     */
    public static RecordTracing ifSdkRegistered(String pipeline, String source) {
        if (!GlobalOpenTelemetry.isSet() && !globalAutoConfiguration()) {
            return null;
        }
        TracerBuilder builder = GlobalOpenTelemetry.get().tracerBuilder(SCOPE);
        String version = OtelRecordTracing.class.getPackage().getImplementationVersion();
        if (version != null) {
            builder.setInstrumentationVersion(version);
        }
        Tracer tracer = builder.build();
        // the no-op API hands out invalid span contexts; an SDK always makes valid ones (sampled or not).
        // The probe is never ended, so it is never exported.
        Span probe = tracer.spanBuilder("etl-probe").setNoParent().startSpan();
        return probe.getSpanContext().isValid() ? new OtelRecordTracing(tracer, pipeline, source) : null;
    }

    private static boolean globalAutoConfiguration() {
        String property = System.getProperty("otel.java.global-autoconfigure.enabled");
        String value = property != null ? property : System.getenv("OTEL_JAVA_GLOBAL_AUTOCONFIGURE_ENABLED");
        return Boolean.parseBoolean(value);
    }

    @Override
    public TraceContext beginRecord(RecordMeta meta) {
        owner = Thread.currentThread();
        if (consumer != null) {
            endRecord();
        }
        TraceContext input = TraceContext.find(meta.headers());
        Context parent = input == null ? Context.root() : W3C.extract(Context.root(), input, GETTER);
        consumer = tracer.spanBuilder(processName(meta.topic()))
                .setParent(parent)
                .setSpanKind(SpanKind.CONSUMER)
                .setAttribute(OPERATION_TYPE, "process")
                .setAttribute(DESTINATION, meta.topic())
                .setAttribute(PARTITION, Integer.toString(meta.partition()))
                .setAttribute(OFFSET, meta.offset())
                .setAttribute(PIPELINE, pipeline)
                .setAttribute(SOURCE, source)
                .startSpan();
        record = parent.with(consumer);
        scope = record.makeCurrent();
        return input;
    }

    private String processName(String topic) {
        if (!topic.equals(lastTopic)) {
            lastTopic = topic;
            lastProcessName = "process " + topic;
        }
        return lastProcessName;
    }

    /** Spans and their scope belong to the pipeline thread; a call from any other thread changes nothing. */
    private boolean foreignThread() {
        return Thread.currentThread() != owner;
    }

    @Override
    public TraceContext beginOutput(TraceContext input, String sink) {
        if (record == null || foreignThread()) {
            return input;
        }
        if (producer != null) {
            endOutput(null);
        }
        producer = tracer.spanBuilder(sendNames.computeIfAbsent(sink, name -> "send " + name))
                .setParent(record)
                .setSpanKind(SpanKind.PRODUCER)
                .setAttribute(OPERATION_TYPE, "send")
                .setAttribute(PIPELINE, pipeline)
                .setAttribute(SINK, sink)
                .startSpan();
        String[] headers = new String[2];
        W3C.inject(Context.root().with(producer), headers, SETTER);
        return headers[0] == null ? input : TraceContext.of(headers[0], headers[1], input);
    }

    @Override
    public void endOutput(Throwable error) {
        Span span = producer;
        if (span == null || foreignThread()) {
            return;
        }
        producer = null;
        if (error != null) {
            failed(span, error);
        }
        span.end();
    }

    @Override
    public void recordFailed(Throwable error) {
        if (consumer != null && !foreignThread()) {
            failed(consumer, error);
        }
    }

    private static void failed(Span span, Throwable error) {
        span.setStatus(
                StatusCode.ERROR, error.getMessage() == null ? error.getClass().getName() : error.getMessage());
        span.recordException(error);
    }

    @Override
    public void endRecord() {
        if (foreignThread()) {
            return;
        }
        if (producer != null) {
            endOutput(null);
        }
        Span span = consumer;
        if (span == null) {
            return;
        }
        consumer = null;
        record = null;
        try {
            scope.close();
        } finally {
            scope = null;
            span.end();
        }
    }
}
