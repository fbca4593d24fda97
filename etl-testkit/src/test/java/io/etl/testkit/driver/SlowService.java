package io.etl.testkit.driver;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A service the async-stage tests call: answers each request after a random delay on its own thread, and records
 * how many calls ran at once, overall and per key.
 */
final class SlowService implements AutoCloseable {

    private final ScheduledExecutorService timer = Executors.newScheduledThreadPool(2);
    private final int minMillis;
    private final int maxMillis;
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger maxRunning = new AtomicInteger();
    private final Map<String, AtomicInteger> runningPerKey = new ConcurrentHashMap<>();
    private final AtomicInteger maxPerKey = new AtomicInteger();
    private final AtomicInteger calls = new AtomicInteger();

    SlowService(int minMillis, int maxMillis) {
        this.minMillis = minMillis;
        this.maxMillis = maxMillis;
    }

    /** Answers {@code answer.apply(request)} for {@code key} after the delay. */
    <T, R> CompletableFuture<R> call(String key, T request, Function<T, R> answer) {
        calls.incrementAndGet();
        maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
        AtomicInteger perKey = runningPerKey.computeIfAbsent(key, k -> new AtomicInteger());
        maxPerKey.accumulateAndGet(perKey.incrementAndGet(), Math::max);
        CompletableFuture<R> f = new CompletableFuture<>();
        int delay = minMillis + ThreadLocalRandom.current().nextInt(maxMillis - minMillis + 1);
        timer.schedule(
                () -> {
                    perKey.decrementAndGet();
                    running.decrementAndGet();
                    try {
                        f.complete(answer.apply(request));
                    } catch (RuntimeException e) {
                        f.completeExceptionally(e);
                    }
                },
                delay,
                TimeUnit.MILLISECONDS);
        return f;
    }

    int maxRunning() {
        return maxRunning.get();
    }

    int maxRunningPerKey() {
        return maxPerKey.get();
    }

    int calls() {
        return calls.get();
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
