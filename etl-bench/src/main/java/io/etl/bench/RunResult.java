package io.etl.bench;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.Map;

/**
 * What one timed run measured.
 *
 * @param implementation the contestant's label
 * @param records        input records
 * @param outputs        output records expected and seen (sum of the outputs' end offsets)
 * @param elapsedMillis  from starting the contestant until every output was present and the group had
 *                       committed the input's end offsets
 * @param firstOutputMillis from starting the contestant until the first output record was visible
 *                       (start-up: group join, metadata, first fetch)
 * @param peakHeapBytes  the highest heap use sampled every 100 ms during the run
 * @param maxLoadAverage the highest one-minute system load average sampled during the run: other work
 *                       on the machine competes for the same cores, so compare runs only at similar load
 * @param cpuMillis      CPU time this JVM used during the run (every thread, the harness's watcher
 *                       included): unlike elapsed time it hardly depends on what else the machine runs
 * @param perTopic       records per output topic, keyed by branch ({@code eu}, {@code us}, {@code apac},
 *                       {@code unrouted})
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record RunResult(
        String implementation,
        long records,
        long outputs,
        long elapsedMillis,
        long firstOutputMillis,
        long peakHeapBytes,
        double maxLoadAverage,
        long cpuMillis,
        Map<String, Long> perTopic)
        implements TimedRun {

    @Override
    /** Input records per second over the whole run. */
    public double recordsPerSecond() {
        return elapsedMillis == 0 ? 0 : records * 1000.0 / elapsedMillis;
    }

    @Override
    /** CPU microseconds this JVM spent per input record. */
    public double cpuMicrosPerRecord() {
        return records == 0 ? 0 : cpuMillis * 1000.0 / records;
    }

    @Override
    /** Input records per second after the first output appeared (start-up excluded). */
    public double steadyRecordsPerSecond() {
        long steady = elapsedMillis - firstOutputMillis;
        return steady <= 0 ? 0 : records * 1000.0 / steady;
    }
}
