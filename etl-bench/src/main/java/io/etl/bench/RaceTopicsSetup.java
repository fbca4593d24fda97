package io.etl.bench;

import io.etl.bench.impl.RaceTopics;
import io.etl.bench.orders.BenchOrders;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;

/**
 * Prepares and removes the topics of one run on a {@link KafkaTestCluster}: every topic with
 * {@value RaceTopics#PARTITIONS} partitions, the input filled with the first {@code records}
 * {@link BenchOrders} keyed by id.
 *
 * <pre>{@code
 * RaceTopics topics = RaceTopicsSetup.prepare(cluster, "race-1-etl-r1", 200_000);
 * ... run ...
 * RaceTopicsSetup.delete(cluster, topics);
 * }</pre>
 */
public final class RaceTopicsSetup {

    private RaceTopicsSetup() {}

    /** Creates the topics for {@code prefix} and produces the input; returns when it is all acknowledged. */
    public static RaceTopics prepare(KafkaTestCluster cluster, String prefix, int records) {
        RaceTopics topics = RaceTopics.of(prefix);
        for (String topic : topics.all()) {
            cluster.createTopic(topic, RaceTopics.PARTITIONS);
        }
        cluster.produce(
                topics.input(),
                records,
                i -> TestRecord.of(BenchOrders.id(i).getBytes(StandardCharsets.UTF_8), BenchOrders.jsonBytes(i)));
        return topics;
    }

    /** Deletes the run's topics, so the broker's disk and page cache do not grow run after run. */
    public static void delete(KafkaTestCluster cluster, RaceTopics topics) {
        try (Admin admin = cluster.newAdmin()) {
            admin.deleteTopics(topics.all()).all().get(30, TimeUnit.SECONDS);
            admin.deleteConsumerGroups(List.of(topics.group())).all().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            System.err.println("could not clean up " + topics.prefix() + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
