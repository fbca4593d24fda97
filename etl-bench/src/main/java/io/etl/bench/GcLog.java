package io.etl.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a {@code -Xlog:gc:file=...} log: the peak heap occupancy is the largest "before" figure of a
 * collection ({@code Pause Young (Normal) (G1 Evacuation Pause) 25M->4M(256M) 3.1ms}).
 *
 * <pre>{@code
 * long peak = GcLog.peakHeapMiB(Path.of("target/etl-r1-gc.log"));
 * }</pre>
 */
public final class GcLog {

    private static final Pattern PAUSE = Pattern.compile("(\\d+)([KMG])->(\\d+)([KMG])\\((\\d+)([KMG])\\)");

    private GcLog() {}

    /** The largest heap occupancy before a collection, in MiB; 0 when the log shows none. */
    public static long peakHeapMiB(Path log) throws IOException {
        if (!Files.exists(log)) {
            return 0;
        }
        return peakHeapMiB(Files.readString(log));
    }

    /** As {@link #peakHeapMiB(Path)}, from the log's text. */
    public static long peakHeapMiB(String text) {
        long peakKiB = 0;
        Matcher m = PAUSE.matcher(text);
        while (m.find()) {
            peakKiB = Math.max(peakKiB, kib(m.group(1), m.group(2)));
        }
        return peakKiB / 1024;
    }

    private static long kib(String amount, String unit) {
        long n = Long.parseLong(amount);
        return switch (unit) {
            case "K" -> n;
            case "M" -> n * 1024;
            default -> n * 1024 * 1024;
        };
    }
}
