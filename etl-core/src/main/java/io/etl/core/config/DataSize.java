package io.etl.core.config;

import java.util.Locale;

/**
 * A size in bytes, written in configuration as {@code 1048576}, {@code 512KiB}, {@code 1MiB} (binary) or
 * {@code 1MB} (decimal).
 *
 * @param bytes number of bytes, never negative
 */
public record DataSize(long bytes) {

    public DataSize {
        if (bytes < 0) {
            throw new IllegalArgumentException("a size cannot be negative: " + bytes);
        }
    }

    public static DataSize ofBytes(long bytes) {
        return new DataSize(bytes);
    }

    public static DataSize ofKibibytes(long kib) {
        return new DataSize(Math.multiplyExact(kib, 1024L));
    }

    public static DataSize ofMebibytes(long mib) {
        return new DataSize(Math.multiplyExact(mib, 1024L * 1024L));
    }

    /**
     * Parses {@code 123}, {@code 123B}, {@code 4KB}/{@code 4KiB}, {@code 1MB}/{@code 1MiB},
     * {@code 1GB}/{@code 1GiB}; units are case-insensitive, decimal units are powers of 1000.
     *
     * @throws IllegalArgumentException naming the accepted forms
     */
    public static DataSize parse(String text) {
        String s = text == null ? "" : text.trim();
        int i = 0;
        while (i < s.length() && Character.isDigit(s.charAt(i))) {
            i++;
        }
        if (i == 0) {
            throw new IllegalArgumentException(invalid(text));
        }
        String unit = s.substring(i).trim().toLowerCase(Locale.ROOT);
        long multiplier = switch (unit) {
            case "", "b" -> 1L;
            case "kb" -> 1000L;
            case "kib" -> 1024L;
            case "mb" -> 1000L * 1000L;
            case "mib" -> 1024L * 1024L;
            case "gb" -> 1000L * 1000L * 1000L;
            case "gib" -> 1024L * 1024L * 1024L;
            default -> throw new IllegalArgumentException(invalid(text));
        };
        try {
            return new DataSize(Math.multiplyExact(Long.parseLong(s.substring(0, i)), multiplier));
        } catch (ArithmeticException | NumberFormatException e) {
            throw new IllegalArgumentException("size out of range: '" + text + "'");
        }
    }

    private static String invalid(String text) {
        return "'" + text + "' is not a size; use a whole number with an optional unit: B, KB, KiB, MB, MiB, GB, GiB"
                + " (for example 512KiB or 1MB)";
    }

    @Override
    public String toString() {
        return bytes + "B";
    }
}
