package io.etl.kafka.common.internal;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;

/**
 * Helpers both connectors use to classify and describe kafka-clients exceptions: finding the telling
 * exception under wrappers, and the wording of a cause in a message. What each connector makes of an error
 * (retry, fail, record error) stays in its own classifier.
 */
public final class KafkaErrors {

    private KafkaErrors() {}

    /**
     * The message of {@code t}, followed by its root cause when it has one, e.g.
     * {@code "Failed to construct kafka consumer (ConfigException: Invalid value x for configuration y)"}.
     */
    public static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String msg =
                root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
        return root == t ? msg : t.getMessage() + " (" + root.getClass().getSimpleName() + ": " + msg + ")";
    }

    /** {@code t}'s simple class name and its message, e.g. {@code "TimeoutException: timed out"}. */
    public static String describe(Throwable t) {
        return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
    }

    /** The most telling exception: wrappers and generic {@code KafkaException}s around an API error are removed. */
    public static Throwable unwrap(Throwable error) {
        Throwable e = error;
        for (int depth = 0; depth < 10 && e.getCause() != null && e.getCause() != e; depth++) {
            if (e instanceof ExecutionException
                    || e instanceof CompletionException
                    || (e instanceof KafkaException && !(e instanceof ApiException))) {
                e = e.getCause();
            } else {
                break;
            }
        }
        return e;
    }

    /** Whether the brokers refused the client's credentials or its permissions: retrying cannot help. */
    public static boolean isAccessRefused(Throwable e) {
        return e instanceof AuthenticationException || e instanceof AuthorizationException;
    }
}
