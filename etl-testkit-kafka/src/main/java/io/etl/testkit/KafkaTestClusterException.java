package io.etl.testkit;

/**
 * A test cluster could not be started, or a helper ({@code produce}, {@code readAll}, ...) failed.
 * The message names the cluster and what was being done; the cause is the Kafka error.
 */
public class KafkaTestClusterException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what failed
     * @param cause   the underlying error
     */
    public KafkaTestClusterException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * @param message what failed
     */
    public KafkaTestClusterException(String message) {
        super(message);
    }
}
