package io.etl.examples.split;

import io.etl.core.source.SourcePartition;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;

/**
 * Tells the demo to give up when neither input nor commits moved for {@link SplitRun#STALL_LIMIT} while input
 * is still unaccounted for. Called from one thread.
 */
final class StallGuard {

    private long lastChange = System.nanoTime();
    private Map<SourcePartition, Long> lastCommitted = Map.of();
    private long lastIn = -1;

    /** Whether nothing moved since the limit, given the offsets committed now. */
    boolean stalled(Map<SourcePartition, Long> committed, MeterRegistry registry) {
        long in = SplitMeters.recordsIn(registry);
        long now = System.nanoTime();
        if (in != lastIn || !committed.equals(lastCommitted)) {
            lastIn = in;
            lastCommitted = committed;
            lastChange = now;
            return false;
        }
        return now - lastChange > SplitRun.STALL_LIMIT.toNanos();
    }
}
