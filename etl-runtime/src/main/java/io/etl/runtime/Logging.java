package io.etl.runtime;

import io.etl.runtime.internal.DefaultLogbackConfigurator;
import io.etl.runtime.internal.LogbackSupport;
import java.util.Locale;
import org.slf4j.MDC;

/**
 * The runtime's logging set-up. The runnable jar ships logback with a configuration built in code
 * that writes text or JSON lines to standard error; a {@code -Dlogback.configurationFile=...} of your own
 * wins. Without logback on the class path (an application embedding the runtime with another binding)
 * these methods only set the MDC.
 *
 * <pre>{@code
 * Logging.configure(LogFormat.JSON);
 * Logging.pipeline("orders-split");     // every later line carries pipeline=orders-split in its MDC
 * }</pre>
 */
public final class Logging {

    /** The MDC key holding the pipeline's name on every line the process logs. */
    public static final String MDC_PIPELINE = "pipeline";
    /** The system property the runtime's logback configuration reads to pick the format ({@code text} or {@code json}). */
    public static final String FORMAT_PROPERTY = "etl.log.format";

    private Logging() {}

    /** The format from {@value LogFormat#ENV}, else text; a bad value is an {@link IllegalArgumentException}. */
    public static LogFormat formatFromEnvironment() {
        String env = System.getenv(LogFormat.ENV);
        return env == null || env.isBlank() ? LogFormat.TEXT : LogFormat.parse(env, LogFormat.ENV);
    }

    /**
     * Switches the process's log lines to {@code format}, reloading logback's configuration when it was loaded
     * with another one.
     */
    public static void configure(LogFormat format) {
        String wanted = format.name().toLowerCase(Locale.ROOT);
        String before = System.setProperty(FORMAT_PROPERTY, wanted);
        boolean changed = !wanted.equals(DefaultLogbackConfigurator.format(before, System.getenv(LogFormat.ENV)));
        if (changed && LogbackSupport.available()) {
            LogbackSupport.reload();
        }
    }

    /** Puts {@code name} in the MDC of this thread and, with logback, of every thread that logs from now on. */
    public static void pipeline(String name) {
        MDC.put(MDC_PIPELINE, name);
        if (LogbackSupport.available()) {
            LogbackSupport.tagEveryThread(MDC_PIPELINE, name);
        }
    }

    /** Sets a logger's level ({@code error}, {@code warn}, {@code info}, {@code debug}, {@code trace}) where logback is used. */
    public static void level(String logger, String level) {
        if (LogbackSupport.available()) {
            LogbackSupport.level(logger, level);
        }
    }
}
