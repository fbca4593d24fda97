package io.etl.core.error;

/**
 * Error text for places that hold one line: a log line, a header value, a line of a command's output. A message
 * with line breaks (a configuration error's list of problems, a broker's multi-line reason) is folded, so that
 * whoever reads one line per event never splits it.
 */
public final class ErrorText {

    private ErrorText() {}

    /** {@code text} with every line break, and the blanks around it, replaced by one space; null stays null. */
    public static String oneLine(String text) {
        return oneLine(text, " ");
    }

    /**
     * {@code text} with every line break, and the blanks around it, replaced by {@code separator}, leading and
     * trailing blanks removed; null stays null.
     */
    public static String oneLine(String text, String separator) {
        return text == null ? null : text.strip().replaceAll("\\s*\\R\\s*", separator);
    }
}
