package io.etl.core.sink;

import io.etl.core.config.SinkPoolConfig;
import io.etl.core.error.ErrorPolicy;

/**
 * A terminal of a pipeline: a named destination with its encoder and pool settings. Connectors build
 * these (for example {@code KafkaSink.from(section).json()}); the pipeline runs a sink pool for
 * each, and opens the writer only when the pipeline starts.
 *
 * @param <T> value type accepted
 * @param <M> message type written
 */
public interface Sink<T, M> {

    /** Unique name within the pipeline; tags the sink's metrics. */
    String name();

    /** Shards, batching, in-flight permits, retry and breaker settings. */
    SinkPoolConfig pool();

    /** Turns values into messages. */
    Encoder<T, M> encoder();

    /** What happens to a record the encoder rejects (default {@link ErrorPolicy#SKIP}). */
    default ErrorPolicy errorPolicy() {
        return pool().onError();
    }

    /**
     * Opens the writer; called once when the pipeline starts, may do I/O and fail with a config error. The
     * sinks of a pipeline are opened concurrently, each on a thread of its own, before the source is opened.
     */
    SinkWriter<M> openWriter(SinkContext context);
}
