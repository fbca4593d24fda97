package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.testkit.KafkaTestCluster;
import java.util.List;
import java.util.Map;

/**
 * The audit every fault test ends with: no input order missing from the output and none that was never input,
 * committed offsets never went backwards, and every duplicate comes from an input offset inside the window of a
 * fault. Prints the duplicates, so that each run reports how many a fault cost.
 */
final class FaultAudit {

    private FaultAudit() {}

    /**
     * Reads {@code output} on {@code cluster} and checks orders {@code 0} to {@code orders - 1} against it.
     *
     * @return the number of duplicates
     */
    static long assertPasses(
            String label,
            KafkaTestCluster cluster,
            String output,
            int orders,
            ReplayWindow window,
            CommitWatch commits) {
        Map<String, Integer> out = Delivery.idCounts(cluster, output);
        List<String> missing = Delivery.missing(out, orders);
        List<String> unexplained = window.unexplainedDuplicates(out);
        long duplicates = Delivery.duplicates(out);
        System.out.printf(
                "audit (%s): %d orders, %d duplicates (%.3f%% of the output), windows %s, %d commit samples%n",
                label,
                orders,
                duplicates,
                100.0 * duplicates / Math.max(1, orders + duplicates),
                window,
                commits.samples());
        assertThat(missing).as("orders missing from the output").isEmpty();
        assertThat(out).as("no output that was never input").hasSize(orders);
        assertThat(commits.samples()).as("committed offsets were sampled").isPositive();
        assertThat(commits.violations()).as("committed offsets going backwards").isEmpty();
        assertThat(unexplained)
                .as("duplicates outside every fault's window %s", window)
                .isEmpty();
        return duplicates;
    }
}
