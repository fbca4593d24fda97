package io.etl.testkit.driver;

import io.etl.core.error.ErrorPolicy;
import io.etl.core.record.Header;
import io.etl.core.record.RecordMeta;
import io.etl.core.source.CommitCallback;
import io.etl.core.source.PartitionListener;
import io.etl.core.source.Source;
import io.etl.core.source.SourceContext;
import io.etl.core.source.SourceOutput;
import io.etl.core.source.SourcePartition;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * An in-memory partitioned source for {@link PipelineTestDriver}: records are piped in by the test and
 * polled by the pipeline in partition order; commits are recorded so a test can assert them. An
 * asynchronous commit takes effect, and is confirmed, at the start of the next poll or at the next
 * {@link #completeCommits()}, as with a broker.
 * Thread-safe for the test thread piping and the pipeline thread polling.
 *
 * @param <T> value type
 */
public final class TestSource<T> implements Source<T> {

    private final String name;
    private final int partitions;
    private final ValueFormat<T> format;
    private final Clock clock;
    private volatile ErrorPolicy policy;
    private volatile int maxPollRecords;
    private final List<List<Entry<T>>> logs = new ArrayList<>();
    private final long[] positions;
    private final Map<SourcePartition, Long> committed = new ConcurrentHashMap<>();
    private final AtomicInteger pauses = new AtomicInteger();
    private final AtomicInteger commitsToFail = new AtomicInteger();
    private final AtomicInteger commitRequests = new AtomicInteger();
    private final AtomicReference<RuntimeException> openFailure = new AtomicReference<>();
    private final ConcurrentLinkedQueue<Runnable> onPollThread = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Runnable> commitOutcomes = new ConcurrentLinkedQueue<>();
    private final Set<Integer> assigned = ConcurrentHashMap.newKeySet();
    private volatile boolean paused;
    private volatile Thread pollThread;
    private PartitionListener listener;

    TestSource(String name, int partitions, ErrorPolicy policy, int maxPollRecords) {
        this(name, partitions, policy, maxPollRecords, null, Clock.systemUTC());
    }

    /**
     * @param format how values turn into bytes and back ({@link #sendBytes}, the payload dead letters carry); null
     *               when the source takes values only
     * @param clock  the timestamps of the records piped in
     */
    TestSource(
            String name, int partitions, ErrorPolicy policy, int maxPollRecords, ValueFormat<T> format, Clock clock) {
        this.name = name;
        this.partitions = partitions;
        this.policy = policy;
        this.format = format;
        this.clock = clock;
        this.maxPollRecords = maxPollRecords;
        this.positions = new long[partitions];
        for (int p = 0; p < partitions; p++) {
            logs.add(new ArrayList<>());
        }
    }

    /** Pipes {@code value} with no key into partition 0. */
    public long send(T value) {
        return send(0, null, value);
    }

    /** Pipes {@code value} keyed by {@code key} into the partition the key hashes to. */
    public long send(String key, T value) {
        return send(partitionOf(key), key, value);
    }

    /** Pipes {@code value} into {@code partition}; returns its offset. */
    public long send(int partition, String key, T value) {
        return enqueue(partition, key, value, encode(value), List.of(), null);
    }

    /**
     * Pipes {@code value} with {@code headers}, keyed by {@code key} into the partition the key hashes to; returns
     * its offset.
     */
    public long send(String key, T value, Header... headers) {
        return enqueue(partitionOf(key), key, value, encode(value), List.of(headers), null);
    }

    /**
     * Pipes {@code value} as the bytes a topic holds: decoded as the Kafka source decodes this input's type (see
     * {@link PipelineTestDriver#input(String, Class)}), or, when they do not decode, a record that failed to decode,
     * under the source's error policy. Returns its offset.
     *
     * @throws IllegalStateException for a source made without a type ({@link PipelineTestDriver#source})
     */
    public long sendBytes(String key, byte[] value, Header... headers) {
        ValueFormat<T> f = requireFormat("sendBytes");
        T decoded;
        try {
            decoded = f.decode(value);
        } catch (Exception e) {
            return enqueue(partitionOf(key), key, null, value, List.of(headers), e);
        }
        return enqueue(partitionOf(key), key, decoded, value, List.of(headers), null);
    }

    /** {@link #sendBytes} of {@code text} in UTF-8, e.g. a JSON document. */
    public long sendText(String key, String text, Header... headers) {
        return sendBytes(key, text == null ? null : text.getBytes(StandardCharsets.UTF_8), headers);
    }

    /**
     * Pipes a record whose bytes cannot be decoded: the source's error policy ({@link #onError}) decides what
     * happens to it, and a dead letter of it carries {@code value} as its original bytes. With a typed input the
     * failure is the decoder's own; returns the record's offset.
     *
     * @throws IllegalArgumentException when a typed input can decode {@code value} after all
     */
    public long sendUndecodable(String key, byte[] value) {
        Throwable failure = format == null
                ? new IllegalArgumentException(
                        "cannot decode " + (value == null ? "a null value" : value.length + " bytes"))
                : decodeFailure(value);
        if (failure == null) {
            throw new IllegalArgumentException("these bytes decode as " + format.typeName() + " at source '" + name
                    + "'; pipe them with sendBytes");
        }
        return enqueue(partitionOf(key), key, null, value, List.of(), failure);
    }

    private Throwable decodeFailure(byte[] value) {
        try {
            format.decode(value);
            return null;
        } catch (Exception e) {
            return e;
        }
    }

    /** Pipes a record that fails to decode (the source's error policy applies); returns its offset. */
    public long sendUndecodable(int partition, String key, String reason) {
        return enqueue(partition, key, null, null, List.of(), new IllegalArgumentException(reason));
    }

    /**
     * What happens to a record that fails to decode: {@link ErrorPolicy#FAIL} (the default, as for a Kafka source),
     * {@link ErrorPolicy#SKIP} or {@link ErrorPolicy#DEAD_LETTER}. Set it before the pipeline starts.
     */
    public TestSource<T> onError(ErrorPolicy value) {
        this.policy = Objects.requireNonNull(value, "policy");
        return this;
    }

    private int partitionOf(String key) {
        return key == null ? 0 : Math.floorMod(key.hashCode(), partitions);
    }

    private byte[] encode(T value) {
        return format == null ? null : format.encode(value);
    }

    private ValueFormat<T> requireFormat(String method) {
        if (format == null) {
            throw new IllegalStateException("source '" + name + "' takes values only; for " + method
                    + " create it with driver.input(name, type), which knows how its bytes decode");
        }
        return format;
    }

    private synchronized long enqueue(
            int partition, String key, T value, byte[] payload, List<Header> headers, Throwable decodeError) {
        if (partition < 0 || partition >= partitions) {
            throw new IllegalArgumentException(
                    "source '" + name + "' has partitions 0.." + (partitions - 1) + ", not " + partition);
        }
        List<Entry<T>> log = logs.get(partition);
        long offset = log.size();
        byte[] k = key == null ? null : key.getBytes(StandardCharsets.UTF_8);
        RecordMeta meta = new RecordMeta(name, partition, offset, clock.millis(), k, headers, payload);
        log.add(new Entry<>(value, meta, decodeError));
        Thread t = pollThread;
        if (t != null) {
            LockSupport.unpark(t);
        }
        return offset;
    }

    /** The next offset each partition will get: what a fully caught-up pipeline has committed. */
    public synchronized Map<SourcePartition, Long> endOffsets() {
        Map<SourcePartition, Long> out = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            out.put(new SourcePartition(name, p), (long) logs.get(p).size());
        }
        return out;
    }

    /** Offsets committed so far, per partition. */
    public Map<SourcePartition, Long> committed() {
        return Map.copyOf(committed);
    }

    /** The committed offset of {@code partition}, or -1. */
    public long committed(int partition) {
        return committed.getOrDefault(new SourcePartition(name, partition), -1L);
    }

    /**
     * Makes the next {@code n} commits fail, as a broker would during a rebalance: nothing is stored and
     * the pipeline is told through the commit's callback (a synchronous commit also fails this way).
     */
    public TestSource<T> failCommits(int n) {
        commitsToFail.set(n);
        return this;
    }

    /**
     * Makes the next opening throw {@code failure}, as a connector's start-up check does for a missing topic
     * (a {@code ConfigException}) or unreachable brokers.
     */
    public TestSource<T> failOpening(RuntimeException failure) {
        openFailure.set(Objects.requireNonNull(failure, "failure"));
        return this;
    }

    /** Makes every later poll return at most {@code records} records (500 unless set). */
    public TestSource<T> pollsAtMost(int records) {
        if (records < 1) {
            throw new IllegalArgumentException("records must be at least 1, not " + records);
        }
        maxPollRecords = records;
        return this;
    }

    /** How many commits the pipeline asked for, successful or not. */
    public int commitRequests() {
        return commitRequests.get();
    }

    /** How many times the pipeline paused this source. */
    public int pauseCount() {
        return pauses.get();
    }

    /** Whether the source is paused right now. */
    public boolean isPaused() {
        return paused;
    }

    /**
     * Takes {@code partition} away as a rebalance would, on the pipeline thread during its next poll: the
     * pipeline waits up to {@code waitUpTo} for in-flight output, and the returned offsets are committed.
     * The returned future completes with the offsets committed for it. Reading resumes after {@link #reassign}, from the committed offset, as after a real rebalance.
     */
    public CompletableFuture<Map<SourcePartition, Long>> revoke(int partition, Duration waitUpTo) {
        var done = new CompletableFuture<Map<SourcePartition, Long>>();
        onPollThread.add(() -> {
            SourcePartition sp = new SourcePartition(name, partition);
            assigned.remove(partition);
            Map<SourcePartition, Long> offsets = listener.onRevoked(List.of(sp), waitUpTo);
            committed.putAll(offsets);
            done.complete(offsets);
        });
        return done;
    }

    /** Gives {@code partition} back, restarting from its committed offset (records after it replay). */
    public void reassign(int partition) {
        onPollThread.add(() -> {
            SourcePartition sp = new SourcePartition(name, partition);
            listener.onAssigned(List.of(sp));
            positions[partition] = Math.max(0, committed(partition));
            assigned.add(partition);
        });
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public ErrorPolicy errorPolicy() {
        return policy;
    }

    @Override
    public Duration pollTimeout() {
        return Duration.ofMillis(20);
    }

    @Override
    public void open(SourceContext context) {
        RuntimeException failure = openFailure.getAndSet(null);
        if (failure != null) {
            throw failure;
        }
        this.listener = context.listener();
        List<SourcePartition> all = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            all.add(new SourcePartition(name, p));
            assigned.add(p);
        }
        listener.onAssigned(all);
    }

    @Override
    public void poll(Duration timeout, SourceOutput<T> output) {
        pollThread = Thread.currentThread();
        completeCommits();
        Runnable task;
        while ((task = onPollThread.poll()) != null) {
            task.run();
        }
        int emitted = paused ? 0 : drain(output);
        if (emitted == 0 && !timeout.isZero()) {
            LockSupport.parkNanos(this, Math.min(timeout.toNanos(), TimeUnit.MILLISECONDS.toNanos(20)));
            if (!paused) {
                drain(output);
            }
        }
    }

    private synchronized int drain(SourceOutput<T> output) {
        int max = maxPollRecords;
        int n = 0;
        for (int p = 0; p < partitions && n < max; p++) {
            if (!assigned.contains(p)) {
                continue;
            }
            List<Entry<T>> log = logs.get(p);
            while (n < max && positions[p] < log.size()) {
                Entry<T> e = log.get((int) positions[p]++);
                if (e.decodeError != null) {
                    output.decodeFailed(e.meta, e.decodeError);
                } else {
                    output.emit(e.value, e.meta);
                }
                n++;
            }
        }
        return n;
    }

    @Override
    public void commit(Map<SourcePartition, Long> offsets, boolean sync, CommitCallback done) {
        commitRequests.incrementAndGet();
        Map<SourcePartition, Long> sent = new HashMap<>();
        for (Map.Entry<SourcePartition, Long> e : offsets.entrySet()) {
            if (assigned.contains(e.getKey().partition())) {
                sent.put(e.getKey(), e.getValue());
            }
        }
        boolean fail = commitsToFail.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
        Runnable complete = () -> {
            if (fail) {
                done.completed(sent, new IllegalStateException("commit of " + sent + " refused by the test"));
                return;
            }
            // the pipeline learns of the commit before a test can see it, so a test that waited for the
            // offsets finds the pipeline's own view (last commit time, gauges) up to date too
            done.completed(sent, null);
            sent.forEach((p, offset) -> committed.merge(p, offset, Math::max));
        };
        if (sync) {
            complete.run();
        } else {
            commitOutcomes.add(complete);
        }
    }

    @Override
    public void completeCommits() {
        Runnable outcome;
        while ((outcome = commitOutcomes.poll()) != null) {
            outcome.run();
        }
    }

    @Override
    public void pause() {
        paused = true;
        pauses.incrementAndGet();
    }

    @Override
    public void resume() {
        paused = false;
    }

    @Override
    public void close(Duration timeout) {
        pollThread = null;
    }

    /** Partitions currently assigned. */
    public Collection<Integer> assignedPartitions() {
        return Set.copyOf(assigned);
    }

    private record Entry<T>(T value, RecordMeta meta, Throwable decodeError) {}
}
