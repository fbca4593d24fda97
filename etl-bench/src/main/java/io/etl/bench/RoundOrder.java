package io.etl.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The order the contestants run in within one round: the {@code --only} order rotated by one place per round, so
 * that over as many rounds as there are contestants each runs first, second, ... once. A fixed order gives one
 * contestant the first place of every round, and whatever a round's first run meets (the broker's work left over
 * from the round before, a drift in load across the round) falls on that contestant alone. Round one keeps the
 * listed order: the run that opens a sitting is the warm-ups' business ({@link BrokerWarmUp}, and the latency
 * race's untimed run).
 */
final class RoundOrder {

    private RoundOrder() {}

    /**
     * {@code contestants} rotated left by {@code round - 1} places: round 1 runs them as listed, round 2 starts with
     * the second, and so on.
     *
     * @param round 1 for the first round
     * @throws IllegalArgumentException when {@code round} is below 1
     */
    static <T> List<T> of(List<T> contestants, int round) {
        if (round < 1) {
            throw new IllegalArgumentException("round must be 1 or more, not " + round);
        }
        List<T> order = new ArrayList<>(contestants);
        Collections.rotate(order, -(round - 1));
        return order;
    }
}
