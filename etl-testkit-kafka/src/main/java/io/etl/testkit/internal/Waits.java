package io.etl.testkit.internal;

import io.etl.testkit.KafkaTestClusterException;
import java.time.Duration;

/** A bounded polling loop for readiness checks; the only place the kit waits by polling. */
final class Waits {

    /** A check that may throw; an exception counts as "not yet" and is kept for the timeout message. */
    @FunctionalInterface
    interface Check {
        boolean done() throws Exception;
    }

    private static final long PAUSE_MILLIS = 50;

    private Waits() {}

    static void until(String what, Duration timeout, Check check) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Exception last = null;
        while (true) {
            try {
                if (check.done()) {
                    return;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new KafkaTestClusterException("interrupted while waiting for " + what, e);
            } catch (Exception e) {
                last = e;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new KafkaTestClusterException(
                        "timed out after " + timeout.toMillis() + " ms waiting for " + what
                                + (last == null ? "" : "; last error: " + last),
                        last);
            }
            try {
                Thread.sleep(PAUSE_MILLIS); // bounded poll interval between readiness checks
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new KafkaTestClusterException("interrupted while waiting for " + what, e);
            }
        }
    }
}
