package io.etl.kafka.source.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.util.BufferRecycler;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class LastThreadRecyclerPoolTest {

    private final LastThreadRecyclerPool pool = new LastThreadRecyclerPool();

    @Test
    void aThreadGetsItsOwnRecyclerEveryTimeAndNeverAnotherThreads() throws Exception {
        BufferRecycler mine = pool.acquireAndLinkPooled();
        assertThat(pool.acquireAndLinkPooled()).isSameAs(mine);

        BufferRecycler theirs =
                CompletableFuture.supplyAsync(pool::acquireAndLinkPooled).get();
        assertThat(theirs).isNotSameAs(mine);

        // the other thread was the last one: this one still gets its own, not the other's
        assertThat(pool.acquireAndLinkPooled()).isSameAs(mine);
        pool.releasePooled(mine);
        assertThat(pool.acquireAndLinkPooled()).isSameAs(mine);
    }
}
