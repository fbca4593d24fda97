package io.etl.core.internal.chain;

import io.etl.core.config.PipelineSection;
import io.etl.core.source.SourcePartition;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The asynchronous stages of one pipeline's chain, and the way their calls' outcomes reach the pipeline thread:
 * a lock-free queue that completing threads fill and the pipeline thread drains between records
 * ({@link #drain()}), waking it once per drain rather than once per outcome: outcomes that arrive while a wake-up is
 * on its way ride along with it. Also the stages' timer (retry backoff, rate-limit waits); each stage watches its calls'
 * timeouts itself ({@link StageDeadlines}), found overdue here. Everything but {@link #post} and {@link #schedule}
 * runs on the pipeline thread.
 */
public final class AsyncStages {

    private static final Logger LOG = LoggerFactory.getLogger(AsyncStages.class);

    /** Outcomes handled per {@link #drain()}, so that polls and commits still come round under a flood of them. */
    private static final int MAX_DRAIN = 4096;
    /** How long the pipeline thread waits at most for the source while calls are in flight. */
    private static final long BUSY_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final String pipeline;
    private final PipelineSection section;
    private final Runnable wake;
    private final ConcurrentLinkedQueue<AsyncEvent> events = new ConcurrentLinkedQueue<>();
    /** Whether the pipeline thread was woken since its last drain began: later outcomes need not wake it again. */
    private final AtomicBoolean woken = new AtomicBoolean();

    private final List<AsyncNode> nodes = new ArrayList<>();
    private volatile ScheduledThreadPoolExecutor timer;

    /**
     * @param pipeline the pipeline's name (threads and rate limiters are named after it)
     * @param section  the {@code pipeline} section: {@code stages}, and the operators' retry settings
     * @param wake     wakes the pipeline thread when an outcome arrives
     */
    public AsyncStages(String pipeline, PipelineSection section, Runnable wake) {
        this.pipeline = pipeline;
        this.section = section;
        this.wake = wake;
    }

    String pipeline() {
        return pipeline;
    }

    PipelineSection section() {
        return section;
    }

    void add(AsyncNode node) {
        if (!node.blocking()
                && ForkJoinPool.getCommonPoolParallelism() < 2
                && nodes.stream().allMatch(AsyncNode::blocking)) {
            // CompletableFuture then runs each task it runs asynchronously on a new thread
            LOG.info(
                    "pipeline '{}': stage '{}' is asynchronous and the JVM's common pool has one thread:"
                            + " a client that completes on CompletableFuture's default executor (the JDK's"
                            + " HttpClient.sendAsync does) starts a thread per call; -D{}=2 avoids it",
                    pipeline,
                    node.name(),
                    "java.util.concurrent.ForkJoinPool.common.parallelism");
        }
        nodes.add(node);
        if (timer == null) {
            ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(1, r -> {
                Thread th = new Thread(r, "etl-" + pipeline + "-async-timer");
                th.setDaemon(true);
                return th;
            });
            t.setRemoveOnCancelPolicy(true);
            timer = t;
        }
    }

    /** The names of the stages, in chain order. */
    public List<String> names() {
        return nodes.stream().map(AsyncNode::name).toList();
    }

    /**
     * Hands {@code event} to the pipeline thread and wakes it, unless it was woken already since its last drain
     * began: that drain, or the next, takes this event too. Any thread.
     */
    void post(AsyncEvent event) {
        events.offer(event);
        if (!woken.getAndSet(true)) {
            wake.run();
        }
    }

    /** Runs {@code task} on the stages' timer after {@code nanos}. Any thread. */
    ScheduledFuture<?> schedule(Runnable task, long nanos) {
        return timer.schedule(task, nanos, TimeUnit.NANOSECONDS);
    }

    /**
     * Carries on with the calls that completed since the last time: their results go on down the chain, in each
     * stage's order, and waiting records take the slots they freed. Call between records only.
     *
     * @return how many outcomes were handled
     * @throws PipelineStop when a record whose call failed has policy {@code fail}
     */
    public int drain() {
        if (nodes.isEmpty() && events.isEmpty()) {
            return 0; // a chain without asynchronous stages: nothing to take, nothing to time out
        }
        // cleared first: an event offered from now on either is taken below or wakes the thread again
        if (woken.get()) {
            woken.set(false);
        }
        expireOverdue();
        int n = 0;
        AsyncEvent e;
        while (n < MAX_DRAIN && (e = events.poll()) != null) {
            e.handle();
            n++;
        }
        if (n == MAX_DRAIN && !events.isEmpty()) {
            // left for the next drain: the thread must not park as if nothing were waiting
            woken.set(true);
            wake.run();
        }
        return n;
    }

    /**
     * Times out the calls whose deadline passed; their outcome is handled by the next {@link #drain()}. Every drain
     * does this first; call it also while nothing is drained (the sinks are full), so that an overdue call is
     * cancelled in time.
     */
    public void expireOverdue() {
        if (nodes.isEmpty()) {
            return;
        }
        long now = System.nanoTime();
        for (int i = 0; i < nodes.size(); i++) {
            nodes.get(i).expire(now);
        }
    }

    /** Whether a stage holds all the records it may: no more should enter the chain until it has room. */
    public boolean saturated() {
        for (int i = 0; i < nodes.size(); i++) {
            if (nodes.get(i).saturated()) {
                return true;
            }
        }
        return false;
    }

    /** Whether a stage holds records or runs calls. */
    public boolean busy() {
        for (int i = 0; i < nodes.size(); i++) {
            if (nodes.get(i).busy()) {
                return true;
            }
        }
        return false;
    }

    /** {@code waitNanos}, or less while calls are in flight: their outcomes are handled between two polls. */
    public long capWait(long waitNanos) {
        return busy() ? Math.min(waitNanos, BUSY_WAIT_NANOS) : waitNanos;
    }

    /**
     * Forgets every record of {@code leaving} that a stage holds (their partitions left this instance and their
     * records were not all done in time): they release nothing, so no offset passes them, and they replay at the
     * next owner.
     */
    public void forget(Collection<SourcePartition> leaving) {
        for (AsyncNode n : nodes) {
            n.forget(leaving);
        }
    }

    /** Whether a stage holds a record of {@code partitions}. */
    public boolean holds(Collection<SourcePartition> partitions) {
        for (AsyncNode n : nodes) {
            if (n.holds(partitions)) {
                return true;
            }
        }
        return false;
    }

    /**
     * At the stop: carries on with completing calls until no stage holds a record or {@code deadline} passes, calling
     * {@code progress} after each round that moved something (to seal the sinks' batches); then forgets what is
     * left, uncommitted. A record whose call failed with policy {@code fail} ends the wait.
     *
     * @return whether every stage emptied in time
     */
    public boolean finish(long deadline, Runnable progress) {
        try {
            while (hasRecords() && System.nanoTime() < deadline) {
                if (drain() > 0) {
                    progress.run();
                } else {
                    LockSupport.parkNanos(this, BUSY_WAIT_NANOS);
                }
            }
        } catch (PipelineStop stop) {
            // the run failed already; what is still in the stages stays uncommitted
        }
        boolean empty = !hasRecords();
        for (AsyncNode n : nodes) {
            n.forgetAll();
        }
        return empty;
    }

    private boolean hasRecords() {
        for (AsyncNode n : nodes) {
            if (n.holdsAny()) {
                return true;
            }
        }
        return false;
    }

    /** Stops the timer and the executors of blocking stages. */
    public void close() {
        ScheduledThreadPoolExecutor t = timer;
        if (t != null) {
            t.shutdownNow();
        }
        for (AsyncNode n : nodes) {
            n.close();
        }
    }
}
