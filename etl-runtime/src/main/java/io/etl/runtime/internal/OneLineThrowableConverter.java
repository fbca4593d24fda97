package io.etl.runtime.internal;

import ch.qos.logback.classic.pattern.ThrowableProxyConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.etl.core.error.ErrorText;

/**
 * The exception of a log event on the event's own line: after {@code " | "}, its stack trace with every line break
 * folded into {@code " | "}, so that a log reader that takes one line for one event never splits it.
 */
public final class OneLineThrowableConverter extends ThrowableProxyConverter {

    /** Public for logback. */
    public OneLineThrowableConverter() {}

    @Override
    public String convert(ILoggingEvent event) {
        String trace = super.convert(event);
        return trace.isBlank() ? "" : " | " + ErrorText.oneLine(trace, " | ");
    }
}
