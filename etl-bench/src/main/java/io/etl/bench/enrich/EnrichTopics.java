package io.etl.bench.enrich;

import java.util.List;

/**
 * The topics and group of one contestant's run: {@code <prefix>-orders} in, {@code <prefix>-enriched} out,
 * {@code <prefix>-dlt} for dead letters, group {@code <prefix>-group}.
 *
 * @param prefix the run's unique prefix
 */
record EnrichTopics(String prefix) {

    String input() {
        return prefix + "-orders";
    }

    String output() {
        return prefix + "-enriched";
    }

    String deadLetters() {
        return prefix + "-dlt";
    }

    String group() {
        return prefix + "-group";
    }

    List<String> all() {
        return List.of(input(), output(), deadLetters());
    }
}
