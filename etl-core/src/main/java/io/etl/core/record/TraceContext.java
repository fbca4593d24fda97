package io.etl.core.record;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The W3C trace context ({@code traceparent} and, when present, {@code tracestate}) that one output must
 * carry, together with the one its source record arrived with. The pipeline hands it to
 * {@link io.etl.core.sink.Encoder#encode(Object, RecordMeta, int, TraceContext)}; a connector whose messages
 * have headers puts it on the message with {@link #applyTo(List)}.
 *
 * <pre>{@code
 * TraceContext input = TraceContext.find(meta.headers());          // null: the input has no traceparent
 * List<Header> headers = trace.applyTo(message.headers());         // same list when nothing changes
 * }</pre>
 *
 * <p>Without OpenTelemetry the output's context is the input's; with an OpenTelemetry SDK it names the
 * producer span of this output, in the input's trace.
 */
public final class TraceContext {

    /** The W3C {@code traceparent} header. */
    public static final String TRACEPARENT = "traceparent";
    /** The W3C {@code tracestate} header. */
    public static final String TRACESTATE = "tracestate";

    private final Header traceparent;
    private final Header tracestate;
    private final Header inputTraceparent;

    private TraceContext(Header traceparent, Header tracestate, Header inputTraceparent) {
        this.traceparent = Objects.requireNonNull(traceparent, "traceparent");
        this.tracestate = tracestate;
        this.inputTraceparent = inputTraceparent;
    }

    /**
     * The trace context a record arrived with: its last {@code traceparent} header and last {@code tracestate}
     * header, found in one pass. Returns {@code null}, allocating nothing, when there is no {@code traceparent}.
     */
    public static TraceContext find(List<Header> headers) {
        Header parent = null;
        Header state = null;
        for (int i = 0, n = headers.size(); i < n; i++) {
            Header h = headers.get(i);
            String key = h.key();
            if (key.equals(TRACEPARENT)) {
                parent = h;
            } else if (key.equals(TRACESTATE)) {
                state = h;
            }
        }
        if (parent == null || parent.value() == null) {
            return null;
        }
        return new TraceContext(parent, state, parent);
    }

    /**
     * A context for an output of a record that arrived with {@code input} (null when it had none) whose own
     * trace context is {@code traceparent} and {@code tracestate} (null or empty for none).
     */
    public static TraceContext of(String traceparent, String tracestate, TraceContext input) {
        return new TraceContext(
                Header.of(TRACEPARENT, traceparent),
                tracestate == null || tracestate.isEmpty() ? null : Header.of(TRACESTATE, tracestate),
                input == null ? null : input.inputTraceparent);
    }

    /** The {@code traceparent} header the output carries. */
    public Header traceparent() {
        return traceparent;
    }

    /** The {@code tracestate} header the output carries, or null. */
    public Header tracestate() {
        return tracestate;
    }

    /** The source record's {@code traceparent} header, or null when it had none. */
    public Header inputTraceparent() {
        return inputTraceparent;
    }

    /**
     * Puts this context on an output's headers as an encoder built them:
     * <ul>
     *   <li>no {@code traceparent}: this one is added (with this {@code tracestate}, unless the headers have one);</li>
     *   <li>a {@code traceparent} equal to the input's (a copy of the input's headers) but not to this one:
     *       replaced by this one, and the {@code tracestate} with it;</li>
     *   <li>any other {@code traceparent}: the encoder set its own; the headers are kept as they are.</li>
     * </ul>
     *
     * @return {@code headers} itself when nothing changes, else a new list
     */
    public List<Header> applyTo(List<Header> headers) {
        Header parent = null;
        boolean hasState = false;
        for (int i = 0, n = headers.size(); i < n; i++) {
            Header h = headers.get(i);
            if (h.key().equals(TRACEPARENT)) {
                parent = h;
            } else if (h.key().equals(TRACESTATE)) {
                hasState = true;
            }
        }
        if (parent == null) {
            List<Header> out = new ArrayList<>(headers.size() + 2);
            out.addAll(headers);
            out.add(traceparent);
            if (tracestate != null && !hasState) {
                out.add(tracestate);
            }
            return out;
        }
        boolean copied = inputTraceparent != null && Arrays.equals(parent.value(), inputTraceparent.value());
        if (!copied || Arrays.equals(parent.value(), traceparent.value())) {
            return headers;
        }
        List<Header> out = new ArrayList<>(headers.size() + 1);
        for (int i = 0, n = headers.size(); i < n; i++) {
            Header h = headers.get(i);
            if (!h.key().equals(TRACEPARENT) && !h.key().equals(TRACESTATE)) {
                out.add(h);
            }
        }
        out.add(traceparent);
        if (tracestate != null) {
            out.add(tracestate);
        }
        return out;
    }

    @Override
    public String toString() {
        return "TraceContext[" + traceparent.valueAsString()
                + (tracestate == null ? "" : ", tracestate=" + tracestate.valueAsString()) + "]";
    }
}
