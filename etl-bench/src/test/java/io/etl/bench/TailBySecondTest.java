package io.etl.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TailBySecondTest {

    private static final long T0 = 1_764_892_800_000L; // a whole second

    @Test
    void oneStalledSecondSetsTheWorstButNotTheMedian() {
        List<long[]> orders = new ArrayList<>(); // {sentAt, latency}
        for (int second = 0; second < 5; second++) {
            for (int i = 0; i < 200; i++) {
                long latency = second == 3 ? 150 + i : 5 + i % 10;
                orders.add(new long[] {T0 + second * 1000L + i * 5L, latency});
            }
        }
        Collections.shuffle(orders, new Random(7)); // outputs arrive in any order
        TailBySecond tail = TailBySecond.of(latencies(orders), sentAt(orders));

        assertEquals(5, tail.seconds());
        assertEquals(14, tail.medianP99());
        assertEquals(347, tail.worstP99());
        assertEquals(T0 + 3000, tail.worstSecondAt());
        assertEquals(T0 + 3000 + 199 * 5, tail.slowestSentAt());
    }

    @Test
    void aSecondIsTheSendTimesSecondNotTheOrdersPosition() {
        long[] sentAt = {T0 + 999, T0 + 1000, T0 + 1001, T0 + 2500};
        long[] latencies = {40, 3, 7, 9};

        TailBySecond tail = TailBySecond.of(latencies, sentAt);

        assertEquals(3, tail.seconds());
        assertEquals(9, tail.medianP99()); // the seconds' p99s are 40, 7 and 9
        assertEquals(40, tail.worstP99());
        assertEquals(T0, tail.worstSecondAt());
        assertEquals(T0 + 999, tail.slowestSentAt());
    }

    @Test
    void refusesLatenciesWithoutTheirSendTimes() {
        assertThrows(IllegalArgumentException.class, () -> TailBySecond.of(new long[] {1, 2}, new long[] {T0}));
        assertThrows(IllegalArgumentException.class, () -> TailBySecond.of(new long[0], new long[0]));
    }

    @Test
    void percentileIsTheNearestRank() {
        long[] sorted = new long[100];
        for (int i = 0; i < sorted.length; i++) {
            sorted[i] = i + 1;
        }
        assertEquals(50, TailBySecond.percentile(sorted, 50));
        assertEquals(99, TailBySecond.percentile(sorted, 99));
        assertEquals(100, TailBySecond.percentile(sorted, 99.9));
        assertEquals(7, TailBySecond.percentile(new long[] {7}, 99));
    }

    private static long[] latencies(List<long[]> orders) {
        return orders.stream().mapToLong(o -> o[1]).toArray();
    }

    private static long[] sentAt(List<long[]> orders) {
        return orders.stream().mapToLong(o -> o[0]).toArray();
    }
}
