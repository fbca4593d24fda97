package io.etl.bench;

/**
 * The CPU a forked contestant used, in all and in its JIT compiler threads, as {@link ProcStat} reads them, with the
 * per-record figures the races print. A compiler figure that {@code /proc} could not give ({@code -1}) counts as
 * none.
 *
 * @param millis         CPU milliseconds of every thread of the process
 * @param compilerMillis CPU milliseconds of its JIT compiler threads, or -1 when unknown
 */
public record ProcessCpu(long millis, long compilerMillis) {

    /** What process {@code pid} has used so far. */
    public static ProcessCpu of(long pid) {
        return new ProcessCpu(ProcStat.cpuMillis(pid), ProcStat.compilerCpuMillis(pid));
    }

    /** What was used since {@code earlier}, a reading of the same process. */
    public ProcessCpu since(ProcessCpu earlier) {
        long compilers =
                compilerMillis < 0 || earlier.compilerMillis < 0 ? -1 : compilerMillis - earlier.compilerMillis;
        return new ProcessCpu(millis - earlier.millis, compilers);
    }

    /** CPU microseconds per record over {@code records}. */
    public double microsPerRecord(long records) {
        return millis * 1000.0 / records;
    }

    /** The JIT compilers' share of {@link #microsPerRecord}. */
    public double compilerMicrosPerRecord(long records) {
        return Math.max(0, compilerMillis) * 1000.0 / records;
    }

    /** {@link #microsPerRecord} without the JIT compilers: what a longer run tends to. */
    public double withoutCompilersMicrosPerRecord(long records) {
        return microsPerRecord(records) - compilerMicrosPerRecord(records);
    }
}
