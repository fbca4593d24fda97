package io.etl.core.internal.chain;

/** Unwinds the chain when a stage with policy {@code fail} rejected a record. */
public final class PipelineStop extends RuntimeException {

    public PipelineStop(Throwable cause) {
        super(cause.getMessage(), cause, false, false);
    }
}
