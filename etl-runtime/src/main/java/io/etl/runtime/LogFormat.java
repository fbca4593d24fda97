package io.etl.runtime;

import java.util.Locale;

/**
 * How the runtime writes its log lines (to standard error): {@link #TEXT} for people, {@link #JSON} for
 * log collectors. Chosen with {@code --log-format}, else the {@value #ENV} environment variable, else text.
 */
public enum LogFormat {
    /** One human-readable line per event: time, level, pipeline, logger, message. */
    TEXT,
    /** One JSON object per line, with the MDC (including {@code pipeline}). */
    JSON;

    /** The environment variable read when {@code --log-format} is not given. */
    public static final String ENV = "ETL_LOG_FORMAT";

    /** {@code text} or {@code json} in any case; anything else is an {@link IllegalArgumentException} naming {@code where}. */
    public static LogFormat parse(String value, String where) {
        try {
            return valueOf(value.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": '" + value + "' is not a log format; use text or json", e);
        }
    }
}
