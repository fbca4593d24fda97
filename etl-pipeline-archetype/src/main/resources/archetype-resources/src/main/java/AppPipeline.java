package ${package};

import io.etl.core.Pipeline;
import io.etl.core.sink.Sink;
import io.etl.core.source.Source;
import java.util.Locale;

/**
 * The pipeline: every record of the input that has a value, through {@link #transform(String)}, to the output.
 *
 * <p>The chain takes its source and sink as parameters, so the same code runs on Kafka in production
 * ({@link AppPipelineFactory}) and on in-memory parts in a unit test ({@code AppPipelineTest}).
 */
public final class AppPipeline {

    /** The pipeline's name: a tag on every meter and what {@code run --pipeline NAME} selects. */
    public static final String NAME = "${artifactId}";

    private AppPipeline() {
    }

    /**
     * What happens to each record's value: edit this. The record's key and headers are kept. It runs
     * once per input record, in partition order; an exception it throws is handled by the
     * {@code pipeline.on_error} policy (default: stop the pipeline).
     */
## tag::transform[]
    static String transform(String value) {
        return value.toUpperCase(Locale.ROOT);
    }
## end::transform[]

    /**
     * The chain from {@code input} through {@link #transform(String)} to {@code output}. A tombstone (a record
     * without a value, a delete in a compacted topic) has nothing to transform: it is dropped and counted.
     */
## tag::define[]
    public static Pipeline define(Source<String> input, Sink<? super String, ?> output) {
        return Pipeline.named(NAME)
                .from(input)
                .filter("skip-tombstones", value -> value != null)
                .map("transform", AppPipeline::transform)
                .to(output);
    }
## end::define[]
}
