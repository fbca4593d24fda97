package io.etl.bench;

import java.util.Locale;

/**
 * One row of the soak's table: the etl process and the pipeline as they were at {@code second} of the run, and
 * the latencies of the outputs appended since the row before. A figure that could not be read is -1 (a process
 * being restarted has no {@code /metrics} yet); latencies are -1 in an interval without outputs.
 *
 * @param second     seconds since the paced input started
 * @param pid        the etl process sampled
 * @param heapMiB    heap in use ({@code jvm_memory_used_bytes{area="heap"}}, all pools)
 * @param oldGenMiB  of which the old generation (what survives collections)
 * @param rssMiB     the process's resident set
 * @param threads    its threads
 * @param fds        its open file descriptors
 * @param inRate     orders written per second over the interval
 * @param outRate    outputs read per second over the interval
 * @param lag        input records not yet committed by the group
 * @param p50        median latency of the interval's outputs, ms
 * @param p99        99th percentile, ms
 * @param p999       99.9th percentile, ms
 * @param max        the longest, ms
 * @param events     what happened during the interval ({@code kill}, {@code outage-start}, ...), or empty
 */
record SoakSample(
        long second,
        long pid,
        long heapMiB,
        long oldGenMiB,
        long rssMiB,
        long threads,
        long fds,
        long inRate,
        long outRate,
        long lag,
        long p50,
        long p99,
        long p999,
        long max,
        String events) {

    /** The CSV header, in the order of {@link #csv()}. */
    static final String CSV_HEADER =
            "second,pid,heap_mib,old_gen_mib,rss_mib,threads,fds,in_per_s,out_per_s,lag,p50_ms,p99_ms,p999_ms,max_ms,events";

    /** The row as CSV. */
    String csv() {
        return String.format(
                Locale.ROOT,
                "%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%s",
                second,
                pid,
                heapMiB,
                oldGenMiB,
                rssMiB,
                threads,
                fds,
                inRate,
                outRate,
                lag,
                p50,
                p99,
                p999,
                max,
                events);
    }

    /** The heap figures of a Prometheus {@code /metrics} page, MiB: in use, and of it the old generation. */
    record Heap(long usedMiB, long oldGenMiB) {

        static final Heap UNKNOWN = new Heap(-1, -1);

        /** Sums {@code jvm_memory_used_bytes{area="heap",...}}; the old generation is the pool named Tenured or Old. */
        static Heap of(String metrics) {
            double used = 0;
            double old = 0;
            boolean found = false;
            for (String line : metrics.split("\n")) {
                if (!line.startsWith("jvm_memory_used_bytes{") || !line.contains("area=\"heap\"")) {
                    continue;
                }
                double value = Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                used += value;
                found = true;
                if (line.contains("Tenured") || line.contains("Old Gen")) {
                    old += value;
                }
            }
            return found ? new Heap(Math.round(used / (1 << 20)), Math.round(old / (1 << 20))) : UNKNOWN;
        }
    }
}
