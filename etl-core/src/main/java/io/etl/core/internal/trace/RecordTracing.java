package io.etl.core.internal.trace;

import io.etl.core.config.TracingConfig;
import io.etl.core.internal.trace.otel.OtelRecordTracing;
import io.etl.core.record.RecordMeta;
import io.etl.core.record.TraceContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one pipeline does with trace context, chosen once when it starts ({@link #create}). Used by the
 * pipeline thread only, in this order per source record: {@link #beginRecord}, then per output
 * {@link #beginOutput} and {@link #endOutput}, then {@link #endRecord}.
 */
public abstract class RecordTracing {

    private static final Logger LOG = LoggerFactory.getLogger(RecordTracing.class);
    private static final String OTEL_API = "io.opentelemetry.api.GlobalOpenTelemetry";

    /** Neither propagates nor traces. */
    public static final RecordTracing OFF = new RecordTracing() {
        @Override
        public TraceContext beginRecord(RecordMeta meta) {
            return null;
        }

        @Override
        public TraceContext beginOutput(TraceContext record, String sink) {
            return null;
        }
    };

    /** Hands every output its input's trace context. */
    public static final RecordTracing PROPAGATE = new RecordTracing() {
        @Override
        public TraceContext beginRecord(RecordMeta meta) {
            return TraceContext.find(meta.headers());
        }

        @Override
        public TraceContext beginOutput(TraceContext record, String sink) {
            return record;
        }
    };

    /**
     * {@link #OFF} when {@code propagate} is off; spans through the global OpenTelemetry when {@code spans} is
     * on, the API is on the class path and an SDK is registered; {@link #PROPAGATE} otherwise.
     */
    public static RecordTracing create(TracingConfig config, String pipeline, String source) {
        if (!config.propagate()) {
            return OFF;
        }
        if (!config.spans()) {
            return PROPAGATE;
        }
        RecordTracing spans = openTelemetryPresent() ? OtelRecordTracing.ifSdkRegistered(pipeline, source) : null;
        if (spans == null) {
            LOG.debug("pipeline '{}': no OpenTelemetry SDK registered; propagating trace context only", pipeline);
            return PROPAGATE;
        }
        LOG.debug("pipeline '{}': OpenTelemetry SDK registered; a span per record and per output", pipeline);
        return spans;
    }

    static boolean openTelemetryPresent() {
        try {
            Class.forName(OTEL_API, false, RecordTracing.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /**
     * Starts work on a source record.
     *
     * @return the record's trace context, or null when its outputs carry none
     */
    public abstract TraceContext beginRecord(RecordMeta meta);

    /**
     * Starts one output of the current record to {@code sink}.
     *
     * @param record what {@link #beginRecord} returned
     * @return the trace context the output carries, or null for none
     */
    public abstract TraceContext beginOutput(TraceContext record, String sink);

    /** Ends the output started last; {@code error} is the reason it failed, or null. */
    public void endOutput(Throwable error) {}

    /** Marks the current record as failed (it was skipped, dead-lettered or stops the pipeline). */
    public void recordFailed(Throwable error) {}

    /** Ends work on the current record. */
    public void endRecord() {}
}
