package io.etl.core.internal.runtime;

import io.etl.core.source.Source;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Pauses the source while the pipeline is blocked and resumes it once it is not, and shows which on the
 * {@code etl_source_paused} gauge. Used on the pipeline thread only.
 */
final class SourcePause {

    private final Source<?> source;
    private final AtomicLong gauge;
    private boolean paused;

    /** @param gauge the value behind {@code etl_source_paused}: 1 while paused */
    SourcePause(Source<?> source, AtomicLong gauge) {
        this.source = source;
        this.gauge = gauge;
    }

    /** Pauses or resumes the source as {@code blocked} says; returns whether that changed anything. */
    boolean blocked(boolean blocked) {
        if (blocked == paused) {
            return false;
        }
        if (blocked) {
            source.pause();
        } else {
            source.resume();
        }
        paused = blocked;
        gauge.set(blocked ? 1 : 0);
        return true;
    }

    boolean paused() {
        return paused;
    }
}
