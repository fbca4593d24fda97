package ${package};

import io.etl.core.Pipeline;
import io.etl.core.error.ErrorPolicy;
import io.etl.core.sink.Sink;
import io.etl.core.source.Source;
import java.util.Locale;

/**
 * The pipeline: every {@link Event} of the input, through {@link #transform(Event)}, to the output.
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
     * What happens to each event: edit this. The record's key and headers are kept. It runs once per input record,
     * in partition order. An exception it throws sends the record, as it was read, to the dead-letter topic (the
     * {@code onError} policy of the chain below): here, an event without text.
     */
## tag::transform[]
    static Event transform(Event event) {
        if (event.text() == null) {
            throw new IllegalArgumentException("event " + event.id() + " has no text");
        }
        return new Event(event.id(), event.text().toUpperCase(Locale.ROOT));
    }
## end::transform[]

    /**
     * The chain from {@code input} through {@link #transform(Event)} to {@code output}. A record the transform
     * rejects goes to the dead letters; so does one that is not an {@link Event} at all (not JSON, a tombstone),
     * by the source's {@code on_error} in {@code pipeline.yaml}.
     */
## tag::define[]
    public static Pipeline define(Source<Event> input, Sink<? super Event, ?> output) {
        return Pipeline.named(NAME)
                .from(input)
                .map("transform", AppPipeline::transform)
                .onError(ErrorPolicy.DEAD_LETTER)       // a rejected event goes to the dead-letter topic
                .to(output);
    }
## end::define[]
}
