package io.etl.core.internal.runtime;

/**
 * Lets a stop requested while the pipeline opens cut the opening short. Opening may wait a long time (a
 * connectivity check waits up to {@code startup_timeout} for brokers that do not answer); a stop interrupts the
 * thread opening the source and cancels the sinks' opening, so that those waits end at once. The opening thread
 * calls {@link #begin} and {@link #end}; {@link #stop()} may come from any thread, before, during or after it.
 */
final class OpeningInterrupt {

    private Thread opener;
    private SinkOpening sinks;
    private boolean stopped;
    private boolean interrupted;

    /** The calling thread opens the source while {@code sinks} open; a stop already requested interrupts at once. */
    synchronized void begin(SinkOpening sinks) {
        this.opener = Thread.currentThread();
        this.sinks = sinks;
        if (stopped) {
            interrupt();
        }
    }

    /** A stop was requested: interrupts an opening in progress, or the next one to begin. */
    synchronized void stop() {
        stopped = true;
        if (opener != null) {
            interrupt();
        }
    }

    /** The opening is over (opening thread): clears the interrupt this class delivered, so what follows runs normally. */
    void end() {
        boolean clear;
        synchronized (this) {
            clear = interrupted;
            opener = null;
            sinks = null;
        }
        if (clear) {
            Thread.interrupted();
        }
    }

    private void interrupt() {
        if (interrupted) {
            return;
        }
        interrupted = true;
        sinks.cancel();
        opener.interrupt();
    }
}
