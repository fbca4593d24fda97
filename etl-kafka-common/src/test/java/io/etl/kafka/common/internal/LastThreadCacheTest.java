package io.etl.kafka.common.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LastThreadCacheTest {

    private final ThreadLocal<Object> perThread = ThreadLocal.withInitial(Object::new);
    private final AtomicInteger lookups = new AtomicInteger();
    private final LastThreadCache<Object> cache = new LastThreadCache<>(() -> {
        lookups.incrementAndGet();
        return perThread.get();
    });

    @Test
    void aThreadGetsItsOwnObjectAndLooksItUpOnlyAfterAnotherThreadAsked() throws Exception {
        Object mine = cache.get();
        assertThat(cache.get()).isSameAs(mine);
        assertThat(lookups).hasValue(1);

        Object theirs = CompletableFuture.supplyAsync(cache::get).get();
        assertThat(theirs).isNotSameAs(mine);

        // the other thread was the last one: this one still gets its own, not the other's
        assertThat(cache.get()).isSameAs(mine);
        assertThat(lookups).hasValue(3);
    }

    @Test
    void forgettingMakesTheNextCallLookUpAgain() {
        Object first = cache.get();
        perThread.remove();
        assertThat(cache.get()).isSameAs(first);

        cache.forget();
        assertThat(cache.get()).isNotSameAs(first);
    }
}
