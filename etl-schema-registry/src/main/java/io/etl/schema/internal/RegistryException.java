package io.etl.schema.internal;

/**
 * The schema registry answered with an error, or (when {@link #unavailable()}) could not be asked at all: every
 * URL refused, timed out, answered 5xx, 408, 429, 401 or 403. An unavailable registry may answer later; the other
 * errors are the registry's considered answer about a request (an unknown id, an incompatible schema).
 */
public final class RegistryException extends RuntimeException {

    /** Confluent's error code of a subject the registry does not know. */
    public static final int SUBJECT_NOT_FOUND = 40401;
    /** Confluent's error code of a version the subject does not have. */
    public static final int VERSION_NOT_FOUND = 40402;
    /** Confluent's error code of a schema (or id) the registry does not have. */
    public static final int SCHEMA_NOT_FOUND = 40403;
    /** Confluent's error code of a schema that is incompatible with the subject's earlier versions. */
    public static final int INCOMPATIBLE = 409;
    /** Confluent's error code of a schema the registry cannot parse. */
    public static final int INVALID_SCHEMA = 42201;

    private final int status;
    private final int errorCode;
    private final boolean unavailable;

    RegistryException(String message, int status, int errorCode, boolean unavailable, Throwable cause) {
        super(message, cause);
        this.status = status;
        this.errorCode = errorCode;
        this.unavailable = unavailable;
    }

    /** The HTTP status, 0 when no answer came. */
    public int status() {
        return status;
    }

    /** Confluent's {@code error_code}, or the HTTP status when the body had none, 0 when no answer came. */
    public int errorCode() {
        return errorCode;
    }

    /** Whether the registry could not be asked (the question may be answered later). */
    public boolean unavailable() {
        return unavailable;
    }

    /** Whether the registry does not have what was asked for (404). */
    public boolean notFound() {
        return status == 404;
    }
}
