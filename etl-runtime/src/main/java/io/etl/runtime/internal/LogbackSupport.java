package io.etl.runtime.internal;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.classic.util.ContextInitializer;
import ch.qos.logback.core.joran.spi.JoranException;
import ch.qos.logback.core.spi.FilterReply;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.slf4j.Marker;

/** Everything that touches logback classes; only called when {@link #available()}. */
public final class LogbackSupport {

    private static final boolean AVAILABLE = detect();

    private LogbackSupport() {}

    private static boolean detect() {
        try {
            Class.forName("ch.qos.logback.classic.LoggerContext", false, LogbackSupport.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
        return LoggerFactory.getILoggerFactory().getClass().getName().equals("ch.qos.logback.classic.LoggerContext");
    }

    /** Whether logback is the SLF4J binding of this process. */
    public static boolean available() {
        return AVAILABLE;
    }

    /** Runs logback's configuration again, so that changed system properties take effect. */
    public static void reload() {
        LoggerContext context = context();
        List<TurboFilter> kept = new ArrayList<>(context.getTurboFilterList());
        context.reset();
        try {
            new ContextInitializer(context).autoConfig();
        } catch (JoranException e) {
            System.err.println("warning: logging configuration failed: " + e.getMessage());
        }
        kept.stream().filter(f -> f instanceof ThreadTag).forEach(context::addTurboFilter);
    }

    /** From now on, each thread that logs has {@code key=value} in its MDC (set on its first line). */
    public static void tagEveryThread(String key, String value) {
        LoggerContext context = context();
        context.getTurboFilterList().removeIf(f -> f instanceof ThreadTag t && t.key.equals(key));
        ThreadTag tag = new ThreadTag(key, value);
        tag.start();
        context.addTurboFilter(tag);
    }

    /** Sets {@code logger}'s level. */
    public static void level(String logger, String level) {
        context().getLogger(logger).setLevel(Level.toLevel(level, Level.INFO));
    }

    private static LoggerContext context() {
        ILoggerFactory factory = LoggerFactory.getILoggerFactory();
        return (LoggerContext) factory;
    }

    /** Puts a key into the MDC of whichever thread logs, before the event is made: covers client threads too. */
    private static final class ThreadTag extends TurboFilter {
        private final String key;
        private final String value;

        ThreadTag(String key, String value) {
            this.key = key;
            this.value = value;
        }

        /**
         * Runs for every level check of every logger, also for levels that are off (Kafka's clients ask
         * {@code isTraceEnabled()} for every record they send): those return at once, without touching the MDC.
         */
        @Override
        public FilterReply decide(
                Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
            if (level == null || logger == null || !level.isGreaterOrEqual(logger.getEffectiveLevel())) {
                return FilterReply.NEUTRAL;
            }
            if (!value.equals(MDC.get(key))) {
                MDC.put(key, value);
            }
            return FilterReply.NEUTRAL;
        }
    }
}
