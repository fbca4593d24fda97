package io.etl.core;

import io.etl.core.error.DeadLetterHandler;
import io.etl.core.source.Source;

/**
 * The first step of building a pipeline: optional pipeline-wide settings, then the source.
 */
public interface PipelineBuilder {

    /**
     * Where records go whose stage has policy {@code dead_letter}, for dead letters stored by code. Without
     * it they go to the configuration's {@code dead_letter} section (a dead-letter topic, no code needed);
     * giving both is a configuration error.
     */
    PipelineBuilder deadLetter(DeadLetterHandler handler);

    /** The source the chain reads from. */
    <T> RecordStream<T> from(Source<T> source);
}
