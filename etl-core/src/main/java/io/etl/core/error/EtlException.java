package io.etl.core.error;

/**
 * Root of the framework's error taxonomy. Four kinds, each with one meaning:
 * {@link ConfigException} (found before any I/O), {@link RetryableException} (the whole batch is
 * tried again), {@link FatalException} (the batch is abandoned, the pipeline fails) and
 * {@link RecordException} (one record is bad; its stage's {@link ErrorPolicy} decides).
 */
public abstract sealed class EtlException extends RuntimeException
        permits ConfigException, RetryableException, FatalException, RecordException {

    protected EtlException(String message, Throwable cause) {
        super(message, cause);
    }
}
