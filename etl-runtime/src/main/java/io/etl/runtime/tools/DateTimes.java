package io.etl.runtime.tools;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A point in time as the tools take it: {@code 2026-12-07T10:15:00Z} or with an offset ({@code +01:00}), a local
 * date-time ({@code 2026-12-07T10:15}, in the machine's zone), a date ({@code 2026-12-07}, its first moment), or a
 * time ago ({@code -15m}, {@code -2h}, {@code -1d}).
 */
final class DateTimes {

    /** What the option accepts, for its error message. */
    static final String ACCEPTED = "use 2026-12-07T10:15:00Z, 2026-12-07T10:15 (local time), 2026-12-07 or -2h";

    private static final Pattern AGO = Pattern.compile("-(\\d+)(s|m|h|d)");

    private DateTimes() {}

    /** The instant {@code text} names, reading "now" from {@code clock}; an {@link IllegalArgumentException} if none. */
    static Instant parse(String text, Clock clock) {
        String s = text.strip();
        Matcher ago = AGO.matcher(s.toLowerCase(Locale.ROOT));
        if (ago.matches()) {
            long n = Long.parseLong(ago.group(1));
            Duration back = switch (ago.group(2)) {
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            };
            return clock.instant().minus(back);
        }
        try {
            return OffsetDateTime.parse(s).toInstant();
        } catch (DateTimeParseException notWithOffset) {
            // try the forms without a zone
        }
        try {
            return LocalDateTime.parse(s).atZone(clock.getZone()).toInstant();
        } catch (DateTimeParseException notLocal) {
            // try a date
        }
        try {
            return LocalDate.parse(s).atStartOfDay(clock.getZone()).toInstant();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("'" + text + "' is not a point in time; " + ACCEPTED, e);
        }
    }
}
