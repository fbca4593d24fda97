package io.etl.core.internal.chain;

import io.etl.core.config.AsyncOrdering;
import io.etl.core.error.DeadLetter;
import io.etl.core.error.RecordException;
import io.etl.core.error.RetryableException;
import io.etl.core.internal.dsl.OperatorSpec;
import io.etl.core.record.RecordMeta;
import io.etl.core.source.SourcePartition;
import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * An asynchronous stage of the chain: keeps up to {@code concurrency} calls in flight, holds the records waiting
 * for a slot, behind their key or (partition order) behind a slower record, and pushes each result on, in the
 * stage's order, on the pipeline thread. Each value holds its record's {@code PendingRecord} while it is in the
 * stage, so no offset is committed past it. Calls complete on any thread; their outcome reaches the pipeline
 * thread through {@link AsyncStages}.
 */
final class AsyncNode extends Node {

    private final String name;
    private final String dlqStage;
    private final OperatorSpec.Kind kind;
    private final StageSettings settings;
    private final RecordContext ctx;
    private final Node next;
    private final AsyncStages stages;
    private final StageMeters meters;
    private final Function<Object, Object> function;
    /** {@code mapConcurrent} only: where its blocking calls run. */
    private final ExecutorService executor;

    private final RateLimiter limiter;
    private final long backoffNanos;

    /** Every value in the stage. */
    private final HeldCalls holding = new HeldCalls();
    /** The timeouts of the calls in flight; null when calls have none. */
    private final StageDeadlines deadlines;
    /** Values whose call may start as soon as a slot is free, in arrival order. */
    private final ArrayDeque<AsyncCall> ready = new ArrayDeque<>();
    /** Key order: per key, the value whose call runs (or is ready) and those waiting behind it. */
    private final Map<Object, KeyLane> keys = new HashMap<>();
    /** Partition order: per partition, the values in offset order until they leave. */
    private final Map<SourcePartition, ArrayDeque<AsyncCall>> partitions = new HashMap<>();

    private int inFlight;
    private int keysAtBound;

    @SuppressWarnings("unchecked")
    AsyncNode(
            OperatorSpec spec,
            StageSettings settings,
            RecordContext ctx,
            Node next,
            AsyncStages stages,
            StageMeters meters) {
        this.name = spec.name();
        this.dlqStage = DeadLetter.operatorStage(spec.name());
        this.kind = spec.kind();
        this.settings = settings;
        this.ctx = ctx;
        this.next = next;
        this.stages = stages;
        this.meters = meters;
        this.function = (Function<Object, Object>) spec.function();
        this.executor = kind == OperatorSpec.Kind.MAP_CONCURRENT
                ? ConcurrentExecutors.create(stages.pipeline() + "-" + name, settings.concurrency())
                : null;
        this.limiter =
                settings.rateLimit() > 0 ? rateLimiter(stages.pipeline() + "-" + name, settings.rateLimit()) : null;
        this.backoffNanos = settings.backoff().toNanos();
        this.deadlines = settings.timeout().isZero() ? null : new StageDeadlines(settings.concurrency());
    }

    /** One permit every 1/rate of a second, reserved ahead: a call waits for its permit without blocking. */
    private static RateLimiter rateLimiter(String name, int perSecond) {
        return RateLimiter.of(
                name,
                RateLimiterConfig.custom()
                        .limitForPeriod(1)
                        .limitRefreshPeriod(Duration.ofNanos(Math.max(1, TimeUnit.SECONDS.toNanos(1) / perSecond)))
                        .timeoutDuration(Duration.ofDays(1))
                        .build());
    }

    String name() {
        return name;
    }

    StageSettings settings() {
        return settings;
    }

    /** Whether its calls block a thread of the stage's own ({@code mapConcurrent}) rather than return a stage. */
    boolean blocking() {
        return executor != null;
    }

    // ---- a value enters (pipeline thread, while its record goes through the chain) ------------------------

    @Override
    public void push(Object value) {
        SuspendedRecord record = ctx.suspend();
        RecordMeta meta = record.meta();
        record.owner().retain();
        AsyncCall call =
                new AsyncCall(record, value, orderKey(meta), new SourcePartition(meta.topic(), meta.partition()));
        if (holding.isEmpty()) {
            meters.busySince(System.nanoTime());
        }
        holding.add(call);
        switch (settings.ordering()) {
            case KEY -> enterKeyOrder(call);
            case PARTITION -> {
                partitions
                        .computeIfAbsent(call.partition, p -> new ArrayDeque<>())
                        .addLast(call);
                ready(call);
            }
            case NONE -> ready(call);
        }
        meters.held(holding.size(), inFlight);
    }

    private Object orderKey(RecordMeta meta) {
        if (settings.ordering() != AsyncOrdering.KEY || meta.key() == null) {
            return null;
        }
        return new LaneKey(meta.topic(), meta.key());
    }

    /**
     * The key a record is ordered by: its key bytes within its topic. Looked up several times while its record is
     * in the stage, so its hash is computed once.
     */
    private static final class LaneKey {
        private final String topic;
        private final byte[] key;
        private final int hash;

        LaneKey(String topic, byte[] key) {
            this.topic = topic;
            this.key = key;
            this.hash = 31 * topic.hashCode() + Arrays.hashCode(key);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof LaneKey k && hash == k.hash && Arrays.equals(key, k.key) && topic.equals(k.topic);
        }
    }

    private void enterKeyOrder(AsyncCall call) {
        if (call.key == null) {
            ready(call);
            return;
        }
        KeyLane lane = keys.get(call.key);
        if (lane == null) {
            keys.put(call.key, new KeyLane(call));
            ready(call);
        } else {
            lane.waiting.addLast(call);
            if (lane.waiting.size() == settings.keyQueue()) {
                keysAtBound++;
            }
        }
    }

    /** Starts {@code call} now if a slot is free and nothing waits before it, else queues it. */
    private void ready(AsyncCall call) {
        if (inFlight < settings.concurrency() && ready.isEmpty()) {
            start(call);
        } else {
            ready.addLast(call);
        }
    }

    private void startReady() {
        AsyncCall call;
        while (inFlight < settings.concurrency() && (call = ready.pollFirst()) != null) {
            if (!call.abandoned) {
                start(call);
            }
        }
        meters.held(holding.size(), inFlight);
    }

    private void start(AsyncCall call) {
        inFlight++;
        call.inFlight = true;
        attempt(call);
    }

    /** Makes the next call for {@code call}, once the rate limiter allows it. */
    private void attempt(AsyncCall call) {
        call.attempts++;
        if (limiter != null) {
            long wait = limiter.reservePermission();
            if (wait > 0) {
                meters.rateLimitWait(wait);
                stages.schedule(() -> stages.post(() -> permitted(call)), wait);
                return;
            }
        }
        invoke(call);
    }

    /** A retry's backoff is over. */
    private void retryDue(AsyncCall call) {
        if (call.abandoned) {
            slotFreed(call);
            startReady();
        } else {
            attempt(call);
        }
    }

    /** A rate-limit wait is over. */
    private void permitted(AsyncCall call) {
        if (call.abandoned) {
            slotFreed(call);
            startReady();
        } else {
            invoke(call);
        }
    }

    private void invoke(AsyncCall call) {
        AsyncAttempt attempt = new AsyncAttempt(this, call, settings.timeout());
        if (deadlines != null) {
            deadlines.started(attempt);
        }
        if (executor != null) {
            try {
                attempt.task = executor.submit(() -> runBlocking(attempt, call.value));
            } catch (RuntimeException e) {
                attempt.accept(null, e);
            }
            return;
        }
        try {
            CompletionStage<?> stage = (CompletionStage<?>) function.apply(call.value);
            if (stage == null) {
                attempt.accept(null, new NullPointerException("stage '" + name + "' returned no CompletionStage"));
            } else {
                attempt.stage = stage;
                stage.whenComplete(attempt);
            }
        } catch (PipelineStop stop) {
            throw stop;
        } catch (Throwable t) {
            attempt.accept(null, t);
        }
    }

    private void runBlocking(AsyncAttempt attempt, Object value) {
        Object result;
        try {
            result = function.apply(value);
        } catch (Throwable t) {
            attempt.accept(null, t);
            return;
        }
        attempt.accept(result, null);
    }

    /** Times out the calls whose deadline passed at {@code nowNanos}. Pipeline thread. */
    void expire(long nowNanos) {
        if (deadlines != null) {
            deadlines.expire(nowNanos);
        }
    }

    /** Hands a call's outcome to the pipeline thread. Any thread. */
    void post(AsyncAttempt attempt) {
        stages.post(attempt);
    }

    // ---- a call completed (pipeline thread, between records) ----------------------------------------------

    void completed(AsyncAttempt attempt) {
        AsyncCall call = attempt.call;
        Throwable error = unwrap(attempt.error());
        meters.call(attempt.nanos(), error == null, attempt.timedOut());
        if (call.abandoned) {
            slotFreed(call);
            startReady();
            return;
        }
        if (error != null && retryable(error) && call.attempts < settings.attempts()) {
            meters.retry();
            long wait = backoffNanos << Math.min(call.attempts - 1, 20);
            stages.schedule(() -> stages.post(() -> retryDue(call)), wait);
            return;
        }
        call.result = attempt.result();
        call.error = error;
        if (error == null) {
            meters.succeeded(System.nanoTime());
        }
        slotFreed(call);
        switch (settings.ordering()) {
            case KEY, NONE -> leave(call);
            case PARTITION -> {
                call.done = true;
                ArrayDeque<AsyncCall> lane = partitions.get(call.partition);
                AsyncCall head;
                while (lane != null && (head = lane.peekFirst()) != null && head.done) {
                    lane.pollFirst();
                    if (lane.isEmpty()) {
                        partitions.remove(call.partition);
                    }
                    leave(head);
                }
            }
        }
        startReady();
    }

    private static boolean retryable(Throwable error) {
        return error instanceof RetryableException || error instanceof TimeoutException;
    }

    private static Throwable unwrap(Throwable error) {
        Throwable e = error;
        while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }

    /** The call no longer holds a slot; in key order, the next value of its key may go. */
    private void slotFreed(AsyncCall call) {
        inFlight--;
        call.inFlight = false;
        if (call.key != null) {
            KeyLane lane = keys.get(call.key);
            if (lane != null && lane.active == call) {
                advance(lane);
            }
        }
    }

    private void advance(KeyLane lane) {
        if (lane.waiting.size() == settings.keyQueue()) {
            keysAtBound--;
        }
        AsyncCall next;
        while ((next = lane.waiting.pollFirst()) != null && next.abandoned) {
            // forgotten: its partition left
        }
        if (next == null) {
            keys.remove(lane.active.key);
            lane.active = null;
        } else {
            lane.active = next;
            ready(next);
        }
    }

    /** The value leaves the stage: its result goes on down the chain with its record, and its hold is released. */
    private void leave(AsyncCall call) {
        holding.remove(call);
        meters.held(holding.size(), inFlight);
        SuspendedRecord record = call.record;
        ctx.resume(record);
        try {
            if (call.error != null) {
                ctx.failed(
                        name,
                        dlqStage,
                        settings.policy(),
                        call.value,
                        call.error instanceof TimeoutException ? RecordException.TIMEOUT : RecordException.OPERATOR,
                        call.error,
                        call.attempts);
            } else {
                pushResult(call);
            }
        } finally {
            ctx.paused(record);
        }
        record.owner().release();
    }

    private void pushResult(AsyncCall call) {
        Object result = call.result;
        switch (kind) {
            case FILTER_ASYNC -> {
                if (result == null) {
                    ctx.failed(
                            name,
                            dlqStage,
                            settings.policy(),
                            call.value,
                            RecordException.OPERATOR,
                            new NullPointerException("stage '" + name + "' yielded null instead of a Boolean"),
                            call.attempts);
                } else if ((Boolean) result) {
                    next.push(call.value);
                } else {
                    meters.filtered();
                }
            }
            case FLAT_MAP_ASYNC -> {
                if (result == null) {
                    meters.filtered();
                    return;
                }
                Iterator<?> it;
                try {
                    it = ((Iterable<?>) result).iterator();
                } catch (RuntimeException e) {
                    ctx.operatorFailed(name, dlqStage, settings.policy(), call.value, e, call.attempts);
                    return;
                }
                pushAll(call, it);
            }
            default -> {
                if (result != null) {
                    next.push(result);
                } else {
                    meters.filtered();
                }
            }
        }
    }

    private void pushAll(AsyncCall call, Iterator<?> it) {
        while (true) {
            Object out;
            try {
                if (!it.hasNext()) {
                    return;
                }
                out = it.next();
            } catch (PipelineStop stop) {
                throw stop;
            } catch (RuntimeException e) {
                ctx.operatorFailed(name, dlqStage, settings.policy(), call.value, e, call.attempts);
                return;
            }
            next.push(out);
        }
    }

    // ---- the runner asks ----------------------------------------------------------------------------------

    /** Whether no more records should enter: the stage holds all it may, or a key holds all its queue may. */
    boolean saturated() {
        return holding.size() >= settings.concurrency() + settings.queue() || keysAtBound > 0;
    }

    /** Whether the stage holds any value, or has a call of a forgotten one still running. */
    boolean busy() {
        return !holding.isEmpty() || inFlight > 0;
    }

    /** Whether the stage holds any value. */
    boolean holdsAny() {
        return !holding.isEmpty();
    }

    /** Forgets every value (at the stop, once the drain's time is up). */
    void forgetAll() {
        if (!holding.isEmpty()) {
            Set<SourcePartition> all = new HashSet<>();
            holding.forEach(c -> all.add(c.partition));
            forget(all);
        }
    }

    /** Whether the stage holds a value of one of {@code leaving}. */
    boolean holds(Collection<SourcePartition> leaving) {
        return holding.any(c -> leaving.contains(c.partition));
    }

    /**
     * Forgets the values of partitions that left this instance: they leave no output and release no hold, so their
     * records are never committed here and replay at their next owner. Running calls finish, and are ignored.
     */
    void forget(Collection<SourcePartition> leaving) {
        boolean any = holding.removeIf(c -> {
            if (leaving.contains(c.partition)) {
                c.abandoned = true;
                return true;
            }
            return false;
        });
        if (!any) {
            return;
        }
        ready.removeIf(c -> c.abandoned);
        for (SourcePartition p : leaving) {
            partitions.remove(p);
        }
        keysAtBound = 0;
        for (Iterator<KeyLane> it = keys.values().iterator(); it.hasNext(); ) {
            KeyLane lane = it.next();
            lane.waiting.removeIf(c -> c.abandoned);
            if (lane.active.abandoned && !lane.active.inFlight) {
                // it was only ready: the next value of the key (of a partition still here) takes its turn
                AsyncCall next = lane.waiting.pollFirst();
                if (next == null) {
                    it.remove();
                    continue;
                }
                lane.active = next;
                ready.addLast(next);
            }
            if (lane.waiting.size() >= settings.keyQueue()) {
                keysAtBound++;
            }
        }
        meters.held(holding.size(), inFlight);
        startReady();
    }

    /** Stops the stage's executor, interrupting blocking calls still running. */
    void close() {
        if (executor != null) {
            executor.shutdownNow();
        }
    }

    /** Key order: the value of one key whose call runs or is ready, and the values of that key behind it. */
    private static final class KeyLane {
        AsyncCall active;
        final ArrayDeque<AsyncCall> waiting = new ArrayDeque<>(2);

        KeyLane(AsyncCall active) {
            this.active = active;
        }
    }
}
