package io.etl.bench.impl;

import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Runs one baseline contestant as a program of its own, the way its author would ship it: started by
 * {@code java}, consuming until SIGTERM, then closing its clients. The process race forks it (and the
 * etl example's own runnable jar) and clocks it from the fork.
 *
 * <pre>{@code
 * java -cp etl-bench.jar io.etl.bench.impl.ContestantMain clients 127.0.0.1:9092 race-1-clients-r1
 * }</pre>
 *
 * <p>Exits 0 after a clean stop, 1 when the contestant failed (the failure on stderr).
 */
public final class ContestantMain {

    private ContestantMain() {}

    /** Arguments: contestant ({@code clients}, {@code clients_flush}, {@code streams} or {@code streams_eos}), bootstrap servers, topic prefix. */
    public static void main(String[] args) throws InterruptedException {
        if (args.length != 3) {
            System.err.println("usage: ContestantMain clients|clients-flush|streams|streams-eos BOOTSTRAP PREFIX");
            System.exit(2);
        }
        SplitImplementation implementation = switch (Contestant.parse(args[0])) {
            case CLIENTS -> new ClientsSplit();
            case CLIENTS_FLUSH -> new FlushingClientsSplit();
            case STREAMS -> new StreamsSplit();
            case STREAMS_EOS -> new StreamsSplit(true);
            case ETL, ETL_EOS -> throw new IllegalArgumentException("etl runs from its own runnable jar");
        };
        SplitImplementation.Running running = implementation.start(args[1], Map.of(), RaceTopics.of(args[2]));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            running.close();
                            stopped.countDown();
                        },
                        "contestant-stop"));
        while (stopped.getCount() > 0) {
            var failure = running.failure();
            if (failure.isPresent()) {
                failure.get().printStackTrace();
                Runtime.getRuntime().halt(1);
            }
            stopped.await(100, TimeUnit.MILLISECONDS);
        }
    }
}
