package io.etl.core.config;

import java.time.Duration;

/**
 * Durations written the way the configuration accepts them ({@code 250ms}, {@code 30s}, {@code 1m30s}),
 * for messages and logs; {@link Duration#toString()} would print {@code PT30S}.
 *
 * <pre>{@code
 * Durations.format(Duration.ofSeconds(30));   // "30s"
 * Durations.format(Duration.ofMillis(1500));  // "1500ms"
 * }</pre>
 */
public final class Durations {

    private Durations() {}

    /**
     * {@code d} in its largest exact unit ({@code 2h}, {@code 5m}, {@code 30s}, {@code 250ms}), or as a
     * combination of hours, minutes and seconds ({@code 1m30s}) when whole seconds; sub-millisecond parts are
     * dropped, negative durations keep their sign.
     */
    public static String format(Duration d) {
        if (d == null) {
            return "null";
        }
        if (d.isNegative()) {
            return "-" + format(d.negated());
        }
        long ms = d.toMillis();
        if (ms == 0) {
            return d.isZero() ? "0s" : d.toNanos() / 1000 + "us";
        }
        if (ms % 1000 != 0) {
            return ms + "ms";
        }
        long s = ms / 1000;
        if (s % 86_400 == 0) {
            return s / 86_400 + "d";
        }
        StringBuilder out = new StringBuilder();
        if (s >= 3600) {
            out.append(s / 3600).append('h');
            s %= 3600;
        }
        if (s >= 60) {
            out.append(s / 60).append('m');
            s %= 60;
        }
        if (s > 0) {
            out.append(s).append('s');
        }
        return out.toString();
    }
}
