package io.etl.examples;

import java.io.PrintStream;

/**
 * One status line on a terminal: on a TTY it is rewritten in place ({@code \r}), elsewhere (a log file, a
 * CI console) a new line is printed at most every {@code quietMillis}, so logs stay readable.
 *
 * <pre>{@code
 * ProgressLine line = new ProgressLine(System.err, ProgressLine.isInteractive(), 3000);
 * line.update("12,000 records  48,000 rec/s  lag 88,000");
 * line.finish();
 * }</pre>
 */
public final class ProgressLine {

    private final PrintStream out;
    private final boolean interactive;
    private final long quietNanos;
    private int lastLength;
    private long lastPrinted;
    private boolean printedAny;
    private String pending;

    /**
     * @param out         where the line goes (normally {@code System.err})
     * @param interactive rewrite in place; false prints whole lines
     * @param quietMillis when not interactive, the least time between two printed lines
     */
    public ProgressLine(PrintStream out, boolean interactive, long quietMillis) {
        this.out = out;
        this.interactive = interactive;
        this.quietNanos = quietMillis * 1_000_000L;
    }

    /** Whether this process talks to a terminal (and {@code TERM} is not {@code dumb}). */
    public static boolean isInteractive() {
        return System.console() != null && !"dumb".equals(System.getenv("TERM"));
    }

    /** Shows {@code text} now (interactive) or when the quiet period is over. */
    public synchronized void update(String text) {
        long now = System.nanoTime();
        if (interactive) {
            StringBuilder sb = new StringBuilder(Math.max(text.length(), lastLength) + 1)
                    .append('\r')
                    .append(text);
            for (int i = text.length(); i < lastLength; i++) {
                sb.append(' ');
            }
            out.print(sb);
            out.flush();
            lastLength = text.length();
            printedAny = true;
            return;
        }
        if (!printedAny || now - lastPrinted >= quietNanos) {
            out.println(text);
            out.flush();
            lastPrinted = now;
            printedAny = true;
            pending = null;
        } else {
            pending = text;
        }
    }

    /** Ends the line: a newline after an in-place line; the last state when a line was held back. */
    public synchronized void finish() {
        if (interactive && printedAny) {
            out.println();
        } else if (!interactive && pending != null) {
            out.println(pending);
        }
        out.flush();
        printedAny = false;
        lastLength = 0;
        pending = null;
    }
}
