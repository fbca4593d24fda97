package io.etl.core.error;

/**
 * A failure that retrying cannot fix (authorization, unknown topic, message too large at the broker,
 * fenced producer). The batch is abandoned, its partitions stop committing, and the pipeline fails.
 */
public final class FatalException extends EtlException {

    public FatalException(String message) {
        super(message, null);
    }

    public FatalException(String message, Throwable cause) {
        super(message, cause);
    }
}
