package io.etl.bench;

import java.util.Locale;

/**
 * The timing of one run as both race tables show it first: throughput over the whole run and after the
 * first output, elapsed time, time to the first output, and CPU per record.
 */
interface TimedRun {

    /** Input records per second over the whole run. */
    double recordsPerSecond();

    /** From starting the contestant until it was done. */
    long elapsedMillis();

    /** From starting the contestant until its first output was visible. */
    long firstOutputMillis();

    /** Input records per second after the first output appeared (start-up excluded). */
    double steadyRecordsPerSecond();

    /** CPU microseconds the contestant spent per input record. */
    double cpuMicrosPerRecord();

    /**
     * The cells of a table row for these figures: records/s, elapsed (s), first output (s), records/s after
     * first output, CPU µs/record.
     */
    default String timingCells() {
        return String.format(
                Locale.ROOT,
                "%,.0f | %.2f | %.2f | %,.0f | %.1f",
                recordsPerSecond(),
                elapsedMillis() / 1000.0,
                firstOutputMillis() / 1000.0,
                steadyRecordsPerSecond(),
                cpuMicrosPerRecord());
    }
}
