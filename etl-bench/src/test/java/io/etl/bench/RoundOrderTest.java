package io.etl.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RoundOrderTest {

    @Test
    void theFirstRoundKeepsTheListedOrderAndEachLaterOneStartsOnePlaceFurther() {
        List<String> listed = List.of("etl", "clients", "streams");

        assertEquals(List.of("etl", "clients", "streams"), RoundOrder.of(listed, 1));
        assertEquals(List.of("clients", "streams", "etl"), RoundOrder.of(listed, 2));
        assertEquals(List.of("streams", "etl", "clients"), RoundOrder.of(listed, 3));
        assertEquals(List.of("etl", "clients", "streams"), RoundOrder.of(listed, 4));
    }

    @Test
    void overAsManyRoundsAsContestantsEachRunsInEveryPlaceOnce() {
        List<String> listed = List.of("a", "b", "c", "d");
        Map<String, Set<Integer>> places = new HashMap<>();

        for (int round = 1; round <= listed.size(); round++) {
            List<String> order = RoundOrder.of(listed, round);
            assertEquals(Set.copyOf(listed), Set.copyOf(order));
            for (int place = 0; place < order.size(); place++) {
                boolean first = places.computeIfAbsent(order.get(place), k -> new HashSet<>())
                        .add(place);
                assertTrue(first, order.get(place) + " ran at place " + place + " twice");
            }
        }

        places.forEach((contestant, seen) -> assertEquals(Set.of(0, 1, 2, 3), seen, contestant));
    }

    @Test
    void aSingleContestantAlwaysRunsAlone() {
        assertEquals(List.of("etl"), RoundOrder.of(List.of("etl"), 7));
    }

    @Test
    void roundsCountFromOne() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> RoundOrder.of(List.of("etl", "clients"), 0));
        assertTrue(e.getMessage().contains("not 0"), e.getMessage());
    }
}
