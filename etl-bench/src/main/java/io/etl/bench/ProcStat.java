package io.etl.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What Linux's {@code /proc} says about another process: CPU time used by all its threads (user plus
 * system, {@code /proc/PID/stat}, in clock ticks of 10 ms) and its peak resident set ({@code VmHWM}).
 *
 * <pre>{@code
 * long cpu = ProcStat.cpuMillis(process.pid());
 * }</pre>
 */
public final class ProcStat {

    /** Clock ticks per second of {@code /proc/PID/stat} ({@code getconf CLK_TCK}; 100 on Linux). */
    public static final int CLOCK_TICKS = 100;

    private ProcStat() {}

    /** CPU milliseconds the process used so far, or -1 when it is gone or /proc is unavailable. */
    public static long cpuMillis(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // fields[0] is field 3 (state): utime is field 14, stime field 15
            long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
            return ticks * 1000 / CLOCK_TICKS;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Peak resident set in MiB, or -1 when unknown. */
    public static long peakRssMiB(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /** The one-minute load average, or -1. */
    public static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
