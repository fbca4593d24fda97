package io.etl.core.error;

/**
 * A batch write failed for a reason that may pass (timeout, disconnect, leader change). The sink pool
 * retries the whole batch with capped exponential backoff; already delivered messages of the batch
 * are written again (duplicates, never loss).
 */
public final class RetryableException extends EtlException {

    public RetryableException(String message) {
        super(message, null);
    }

    public RetryableException(String message, Throwable cause) {
        super(message, cause);
    }
}
