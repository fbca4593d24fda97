package io.etl.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * What Linux's {@code /proc} says about another process: CPU time used by all its threads (user plus
 * system, {@code /proc/PID/stat}, in clock ticks of 10 ms), its resident set now and at its peak ({@code VmRSS},
 * {@code VmHWM}), its threads and its open file descriptors.
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

    /**
     * CPU milliseconds the process's JIT compiler threads ({@code C1 CompilerThread*}, {@code C2 CompilerThread*})
     * used so far, or -1 when unknown: the part of {@link #cpuMillis} a short run spends compiling.
     */
    public static long compilerCpuMillis(long pid) {
        Map<String, Long> groups = cpuMillisByThreadGroup(pid);
        if (groups == null) {
            return -1;
        }
        return groups.entrySet().stream()
                .filter(e -> e.getKey().startsWith("C1 Compiler") || e.getKey().startsWith("C2 Compiler"))
                .mapToLong(Map.Entry::getValue)
                .sum();
    }

    /**
     * CPU milliseconds the process's threads used so far, by thread name with a number after {@code #} or {@code -}
     * as {@code N} (so the {@code GC Thread#N} of a kind add up), native threads included, as {@code /proc/PID/task}
     * names them (at most 15 characters: {@code C2 CompilerThre}); null when unknown.
     */
    public static Map<String, Long> cpuMillisByThreadGroup(long pid) {
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            Map<String, Long> ticks = new TreeMap<>();
            for (Path task : tasks.toList()) {
                String stat;
                try {
                    stat = Files.readString(task.resolve("stat"));
                } catch (IOException gone) {
                    continue;
                }
                String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
                        .replaceAll("(?<=[#-])[0-9]+", "N");
                String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                ticks.merge(name, Long.parseLong(fields[11]) + Long.parseLong(fields[12]), Long::sum);
            }
            ticks.replaceAll((name, t) -> t * 1000 / CLOCK_TICKS);
            return ticks;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** {@code later} minus {@code earlier}, thread group by thread group ({@link #cpuMillisByThreadGroup}). */
    public static Map<String, Long> difference(Map<String, Long> later, Map<String, Long> earlier) {
        Map<String, Long> out = new TreeMap<>();
        later.forEach((name, ms) -> out.put(name, ms - earlier.getOrDefault(name, 0L)));
        return out;
    }

    /** Peak resident set in MiB, or -1 when unknown. */
    public static long peakRssMiB(long pid) {
        long kib = status(pid, "VmHWM:");
        return kib < 0 ? -1 : kib / 1024;
    }

    /** Resident set now in MiB ({@code VmRSS}), or -1 when unknown. */
    public static long rssMiB(long pid) {
        long kib = status(pid, "VmRSS:");
        return kib < 0 ? -1 : kib / 1024;
    }

    /** Threads of the process now, or -1 when unknown. */
    public static long threads(long pid) {
        return status(pid, "Threads:");
    }

    /** File descriptors the process holds open now (entries of {@code /proc/PID/fd}), or -1 when unknown. */
    public static long openFileDescriptors(long pid) {
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return fds.count();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** The number in the line of {@code /proc/PID/status} that starts with {@code field}, or -1. */
    private static long status(long pid, String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith(field)) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
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
