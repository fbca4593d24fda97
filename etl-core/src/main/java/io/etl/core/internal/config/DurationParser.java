package io.etl.core.internal.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses {@code 250ms}, {@code 30s}, {@code 5m}, {@code 1h}, {@code 2d} and ISO-8601 ({@code PT30S}). */
final class DurationParser {

    /** What to write instead, for problem messages. */
    static final String ACCEPTED = "use 250ms, 30s, 5m, 1h or ISO-8601";

    static final String NOT_A_DURATION = "is not a duration; " + ACCEPTED;
    static final String NO_UNIT = "is ambiguous without a unit; " + ACCEPTED;
    static final String NEGATIVE = "is negative; a duration must be zero or more";

    private static final Pattern SIMPLE = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)");
    private static final Pattern NUMBER = Pattern.compile("[-+]?\\d+(\\.\\d*)?");

    private DurationParser() {}

    /** The duration, or the reason it is not one (one of the constants above). */
    static Result parse(String text) {
        String s = text.strip();
        if (NUMBER.matcher(s).matches()) {
            return Result.failure(NO_UNIT);
        }
        Matcher simple = SIMPLE.matcher(s);
        try {
            if (simple.matches()) {
                long amount = Long.parseLong(simple.group(1));
                return Result.success(
                        switch (simple.group(2)) {
                            case "ms" -> Duration.ofMillis(amount);
                            case "s" -> Duration.ofSeconds(amount);
                            case "m" -> Duration.ofMinutes(amount);
                            case "h" -> Duration.ofHours(amount);
                            default -> Duration.ofDays(amount);
                        });
            }
            if (s.toUpperCase(Locale.ROOT).startsWith("P")) {
                Duration iso = Duration.parse(s);
                return iso.isNegative() ? Result.failure(NEGATIVE) : Result.success(iso);
            }
        } catch (ArithmeticException | NumberFormatException | DateTimeParseException e) {
            return Result.failure(NOT_A_DURATION);
        }
        return Result.failure(NOT_A_DURATION);
    }

    /** Either a duration or a problem text (without the value). */
    record Result(Duration duration, String problem) {

        static Result success(Duration duration) {
            return new Result(duration, null);
        }

        static Result failure(String problem) {
            return new Result(null, problem);
        }
    }
}
