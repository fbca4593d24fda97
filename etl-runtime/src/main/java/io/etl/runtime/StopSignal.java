package io.etl.runtime;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/**
 * The runtime's only signal handling: turns SIGTERM and SIGINT (Ctrl-C) into a stop request the program
 * acts on (drain, commit, exit with its own code) instead of the JVM's default 143/130. A second signal
 * while stopping ends the process at once with {@link ExitCodes#SECOND_SIGNAL}.
 *
 * <pre>{@code
 * StopSignal stop = StopSignal.install();
 * stop.requested().thenRun(running::stop);
 * }</pre>
 *
 * <p>Uses {@code sun.misc.Signal} (module {@code jdk.unsupported}, present in every JDK 17+); where it is
 * not available, a shutdown hook requests the stop and waits for the program to call {@link #finished()}.
 */
public final class StopSignal {

    private static final Logger LOG = LoggerFactory.getLogger(StopSignal.class);

    private final CompletableFuture<String> requested = new CompletableFuture<>();
    private final CompletableFuture<Void> finished = new CompletableFuture<>();
    private final AtomicInteger signals = new AtomicInteger();

    private StopSignal() {}

    /** A stop request nobody signals (for tests and embedding); complete it with {@link #request(String)}. */
    public static StopSignal manual() {
        return new StopSignal();
    }

    /** Installs handlers for SIGTERM and SIGINT that request a stop. Call it once per process. */
    public static StopSignal install() {
        StopSignal stop = new StopSignal();
        boolean handled = true;
        for (String name : new String[] {"TERM", "INT"}) {
            try {
                Signal.handle(new Signal(name), signal -> stop.onSignal("SIG" + signal.getName()));
            } catch (Throwable e) { // IllegalArgumentException, or no sun.misc at all
                handled = false;
            }
        }
        if (!handled) {
            Runtime.getRuntime()
                    .addShutdownHook(new Thread(
                            () -> {
                                stop.request("shutdown");
                                stop.finished.join();
                            },
                            "etl-stop"));
        }
        return stop;
    }

    private void onSignal(String name) {
        if (signals.incrementAndGet() > 1) {
            System.err.println();
            System.err.println(
                    name + " again: exiting without waiting for the drain (exit " + ExitCodes.SECOND_SIGNAL + ")");
            System.err.flush();
            Runtime.getRuntime().halt(ExitCodes.SECOND_SIGNAL);
        }
        LOG.info("{} received: stopping and draining (send it again to exit at once)", name);
        request(name);
    }

    /** Requests a stop; {@code reason} names what asked for it. */
    public void request(String reason) {
        requested.complete(reason);
    }

    /** Completes with the reason once a stop was requested. */
    public CompletableFuture<String> requested() {
        return requested;
    }

    /** Whether a stop was requested. */
    public boolean isRequested() {
        return requested.isDone();
    }

    /** Tells a waiting shutdown hook (where signals could not be handled) that the program is done. */
    public void finished() {
        finished.complete(null);
    }
}
