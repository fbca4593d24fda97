package io.etl.bench.avro;

import io.etl.bench.impl.RaceTopics;
import io.etl.core.RunningPipeline;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One contestant of the Avro race as a program of its own, consuming until SIGTERM:
 * {@code AvroContestantMain etl|clients BOOTSTRAP PREFIX REGISTRY_URL}. Exits 1 when it failed.
 */
public final class AvroContestantMain {

    private AvroContestantMain() {}

    public static void main(String[] args) throws InterruptedException {
        if (args.length != 4) {
            System.err.println("usage: AvroContestantMain etl|clients BOOTSTRAP PREFIX REGISTRY_URL");
            System.exit(2);
        }
        RaceTopics topics = RaceTopics.of(args[2]);
        CountDownLatch stopped = new CountDownLatch(1);
        if (args[0].equals("etl")) {
            Map<String, String> vars = new HashMap<>(topics.exampleVariables(args[1]));
            vars.put("SCHEMA_REGISTRY_URL", args[3]);
            RunningPipeline running = AvroEtlSplit.start(vars);
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
        } else if (args[0].equals("clients")) {
            AvroClientsLoop loop = new AvroClientsLoop(args[1], topics, args[3]);
            Thread thread = new Thread(loop, "avro-clients");
            thread.start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                loop.stop();
                try {
                    thread.join(30_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                stopped.countDown();
            }));
            while (stopped.getCount() > 0) {
                if (loop.failure.get() != null) {
                    loop.failure.get().printStackTrace();
                    Runtime.getRuntime().halt(1);
                }
                stopped.await(100, TimeUnit.MILLISECONDS);
            }
        } else {
            System.err.println("unknown contestant '" + args[0] + "': etl or clients");
            System.exit(2);
        }
    }
}
