package io.etl.bench.enrich;

import io.etl.core.RunningPipeline;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * One contestant of the enrich race as a program of its own, consuming until SIGTERM:
 * {@code EnrichContestantMain CONTESTANT BOOTSTRAP PREFIX SERVICE_URL CONCURRENCY}, the contestant one of
 * {@link EnrichRace#CONTESTANTS}. Exits 1 when it failed.
 */
public final class EnrichContestantMain {

    private EnrichContestantMain() {}

    public static void main(String[] args) throws InterruptedException {
        if (args.length != 5) {
            System.err.println("usage: EnrichContestantMain " + String.join("|", EnrichRace.CONTESTANTS)
                    + " BOOTSTRAP PREFIX SERVICE_URL CONCURRENCY");
            System.exit(2);
        }
        String contestant = args[0];
        String brokers = args[1];
        EnrichTopics topics = new EnrichTopics(args[2]);
        URI service = URI.create(args[3]);
        int concurrency = Integer.parseInt(args[4]);
        if (contestant.startsWith("etl-")) {
            RunningPipeline running = EtlEnrich.start(contestant, brokers, topics, service, concurrency);
            runUntilStopped(
                    () -> running.stopAndWait(Duration.ofSeconds(30)),
                    () -> running.state().isTerminal()
                            ? "pipeline ended: " + running.result().join()
                            : null);
        } else if (contestant.equals("parallel-consumer")) {
            ParallelConsumerEnrich pc = new ParallelConsumerEnrich(brokers, topics, service, concurrency);
            runUntilStopped(
                    pc::close, () -> pc.failed() ? "parallel-consumer stopped by itself: " + pc.failure() : null);
        } else if (contestant.equals("kafka-clients-async")) {
            ClientsAsyncEnrich loop = new ClientsAsyncEnrich(brokers, topics, service, concurrency);
            runUntilStopped(loop::close, () -> loop.failure() != null ? "the loop stopped: " + loop.failure() : null);
        } else if (contestant.equals("kafka-streams")) {
            StreamsEnrich streams = new StreamsEnrich(brokers, topics, service);
            runUntilStopped(streams::close, () -> streams.failed() ? "Kafka Streams is in state ERROR" : null);
        } else {
            System.err.println("unknown contestant '" + contestant + "': " + String.join(", ", EnrichRace.CONTESTANTS));
            System.exit(2);
        }
    }

    /**
     * Runs until SIGTERM, which {@code stop} answers; halts with exit code 1 once {@code failure} names why the
     * contestant ended by itself before that (null while it runs).
     */
    private static void runUntilStopped(Runnable stop, Supplier<String> failure) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        AtomicBoolean stopping = new AtomicBoolean();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stopping.set(true);
            stop.run();
            stopped.countDown();
        }));
        while (stopped.getCount() > 0) {
            String why = stopping.get() ? null : failure.get();
            if (why != null) {
                System.err.println(why);
                Runtime.getRuntime().halt(1);
            }
            stopped.await(100, TimeUnit.MILLISECONDS);
        }
    }
}
