package io.etl.bench.enrich;

import io.etl.core.RunningPipeline;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

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
        CountDownLatch stopped = new CountDownLatch(1);
        if (contestant.startsWith("etl-")) {
            RunningPipeline running = EtlEnrich.start(contestant, brokers, topics, service, concurrency);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                running.stopAndWait(Duration.ofSeconds(30));
                stopped.countDown();
            }));
            while (stopped.getCount() > 0) {
                if (running.state().isTerminal() && stopped.getCount() > 0) {
                    System.err.println("pipeline ended: " + running.result().join());
                    Runtime.getRuntime().halt(1);
                }
                stopped.await(100, TimeUnit.MILLISECONDS);
            }
        } else if (contestant.equals("parallel-consumer")) {
            ParallelConsumerEnrich pc = new ParallelConsumerEnrich(brokers, topics, service, concurrency);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                pc.close();
                stopped.countDown();
            }));
            while (stopped.getCount() > 0) {
                if (pc.failed() && stopped.getCount() > 0) {
                    System.err.println("parallel-consumer stopped by itself: " + pc.failure());
                    Runtime.getRuntime().halt(1);
                }
                stopped.await(100, TimeUnit.MILLISECONDS);
            }
        } else if (contestant.equals("kafka-clients-async")) {
            ClientsAsyncEnrich loop = new ClientsAsyncEnrich(brokers, topics, service, concurrency);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                loop.close();
                stopped.countDown();
            }));
            while (stopped.getCount() > 0) {
                if (loop.failure() != null && stopped.getCount() > 0) {
                    System.err.println("the loop stopped: " + loop.failure());
                    Runtime.getRuntime().halt(1);
                }
                stopped.await(100, TimeUnit.MILLISECONDS);
            }
        } else if (contestant.equals("kafka-streams")) {
            StreamsEnrich streams = new StreamsEnrich(brokers, topics, service);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                streams.close();
                stopped.countDown();
            }));
            while (stopped.getCount() > 0) {
                if (streams.failed() && stopped.getCount() > 0) {
                    System.err.println("Kafka Streams is in state ERROR");
                    Runtime.getRuntime().halt(1);
                }
                stopped.await(100, TimeUnit.MILLISECONDS);
            }
        } else {
            System.err.println("unknown contestant '" + contestant + "': " + String.join(", ", EnrichRace.CONTESTANTS));
            System.exit(2);
        }
    }
}
