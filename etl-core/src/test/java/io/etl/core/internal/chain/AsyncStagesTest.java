package io.etl.core.internal.chain;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** How calls' outcomes reach the pipeline thread: every one is handled, with one wake-up per drain, not per outcome. */
class AsyncStagesTest {

    private final AtomicInteger wakes = new AtomicInteger();
    private final AsyncStages stages = new AsyncStages("p", null, wakes::incrementAndGet);

    @Test
    void shouldWakeThePipelineThreadOnceForOutcomesThatArriveBeforeItDrains() {
        List<Integer> handled = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            int n = i;
            stages.post(() -> handled.add(n));
        }

        assertThat(wakes).hasValue(1);
        assertThat(stages.drain()).isEqualTo(5);
        assertThat(handled).containsExactly(0, 1, 2, 3, 4);
    }

    @Test
    void shouldWakeAgainForAnOutcomeThatArrivesAfterADrainBegan() {
        stages.post(() -> {});
        stages.drain();
        stages.post(() -> {});

        assertThat(wakes).hasValue(2);
        assertThat(stages.drain()).isEqualTo(1);
    }

    @Test
    void shouldTakeAnOutcomePostedWhileADrainRunsInThatDrain() {
        List<String> handled = new ArrayList<>();
        stages.post(() -> {
            handled.add("first");
            stages.post(() -> handled.add("second"));
        });

        assertThat(stages.drain()).isEqualTo(2);
        assertThat(handled).containsExactly("first", "second");
    }

    @Test
    void shouldWakeItselfWhenADrainLeavesOutcomesForTheNext() {
        int many = 4096 + 10;
        AtomicInteger handled = new AtomicInteger();
        for (int i = 0; i < many; i++) {
            stages.post(handled::incrementAndGet);
        }

        assertThat(stages.drain()).isEqualTo(4096);
        assertThat(wakes).hasValue(2);
        assertThat(stages.drain()).isEqualTo(10);
        assertThat(handled).hasValue(many);
    }

    @Test
    void shouldHandEveryOutcomeOfManyCompletingThreadsToTheDrainingThread() throws InterruptedException {
        int threads = 4;
        int each = 20_000;
        AtomicInteger handled = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            Thread th = new Thread(() -> {
                for (int i = 0; i < each; i++) {
                    stages.post(handled::incrementAndGet);
                }
                done.countDown();
            });
            th.start();
        }
        while (done.getCount() > 0) {
            stages.drain();
        }
        while (stages.drain() > 0) {
            // what the last posts left
        }

        assertThat(handled).hasValue(threads * each);
    }
}
