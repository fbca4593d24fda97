package io.etl.testkit.driver;

import io.etl.core.config.SinkPoolConfig;
import io.etl.core.error.FatalException;
import io.etl.core.error.RecordException;
import io.etl.core.error.RetryableException;
import io.etl.core.record.RecordMeta;
import io.etl.core.sink.Encoder;
import io.etl.core.sink.OpenWrite;
import io.etl.core.sink.SealedBatch;
import io.etl.core.sink.Sink;
import io.etl.core.sink.SinkContext;
import io.etl.core.sink.SinkWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

/**
 * An in-memory sink for {@link PipelineTestDriver} that records what became durable and can inject
 * faults: fail the next writes retryably or fatally, hold acknowledgements until released, or delay them.
 * Its message is the value together with its source metadata.
 *
 * @param <T> value type
 */
public final class TestSink<T> implements Sink<T, TestSink.Received<T>> {

    /**
     * A message of this sink: a value and the metadata of the source record it came from.
     *
     * @param value the value, as the chain produced it
     * @param meta  where it came from
     * @param <T>   value type
     */
    public record Received<T>(T value, RecordMeta meta) {

        public Received {
            Objects.requireNonNull(meta, "meta");
        }
    }

    /** The system property that makes test sinks' writers block-capable by default, with a worker per shard. */
    public static final String BLOCKING_SINKS_PROPERTY = "etl.testkit.blockingSinks";

    private static final ScheduledExecutorService DELAYS = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "etl-test-sink-delays");
        t.setDaemon(true);
        return t;
    });

    private final String name;
    private final SinkPoolConfig pool;
    private final CopyOnWriteArrayList<Received<T>> durable = new CopyOnWriteArrayList<>();
    private final AtomicInteger writes = new AtomicInteger();
    private final AtomicInteger retryableFailures = new AtomicInteger();
    private final AtomicInteger fatalFailures = new AtomicInteger();
    private final AtomicReference<CompletableFuture<Void>> gate = new AtomicReference<>();
    private final List<CompletableFuture<Void>> held = new CopyOnWriteArrayList<>();
    private final AtomicReference<Error> crash = new AtomicReference<>();
    private final AtomicReference<RuntimeException> openFailure = new AtomicReference<>();
    private volatile boolean sendsWithoutBlocking = !Boolean.getBoolean(BLOCKING_SINKS_PROPERTY);
    private volatile boolean takesMessagesAsTheyCome = true;
    private final AtomicInteger handedOverEarly = new AtomicInteger();
    private volatile Duration ackDelay = Duration.ZERO;
    private volatile Predicate<? super T> rejected = v -> false;
    private volatile String rejectReason = RecordException.OVERSIZED;
    private volatile Predicate<? super T> refused = v -> false;

    TestSink(String name, SinkPoolConfig pool) {
        this.name = Objects.requireNonNull(name, "name");
        this.pool = pool;
    }

    // ---- how it is written --------------------------------------------------------------------------------

    /**
     * Whether the writer declares that it sends without blocking ({@code SinkWriter.sendsWithoutBlocking()}): the
     * pipeline thread then writes and settles the batches itself, as it does for the Kafka sink; otherwise every
     * shard gets a worker thread. The default is {@code true} unless the system property
     * {@value #BLOCKING_SINKS_PROPERTY} is {@code true}, which lets a whole test suite run both ways.
     */
    public TestSink<T> sendsWithoutBlocking(boolean value) {
        sendsWithoutBlocking = value;
        return this;
    }

    /**
     * Whether a writer that sends without blocking takes a batch's messages as they are added, before the batch is
     * sealed ({@code SinkWriter.openWrite}), as the Kafka sink's does; default {@code true}. The sealed batch is then
     * written as any other, after a check that it starts with the messages handed over, in their order.
     */
    public TestSink<T> takesMessagesAsTheyCome(boolean value) {
        takesMessagesAsTheyCome = value;
        return this;
    }

    /** Messages handed over before their batch was sealed ({@link #takesMessagesAsTheyCome(boolean)}). */
    public int handedOverEarly() {
        return handedOverEarly.get();
    }

    /** Whether the writer opened from now on sends without blocking ({@link #sendsWithoutBlocking(boolean)}). */
    public boolean sendsWithoutBlocking() {
        return sendsWithoutBlocking;
    }

    // ---- fault injection ----------------------------------------------------------------------------------

    /**
     * Makes the next opening of the writer throw {@code failure}, as a connector's start-up check does for a
     * missing topic (a {@code ConfigException}) or unreachable brokers.
     */
    public TestSink<T> failOpening(RuntimeException failure) {
        openFailure.set(Objects.requireNonNull(failure, "failure"));
        return this;
    }

    /** The next {@code n} batch writes fail with a {@link RetryableException}. */
    public TestSink<T> failRetryably(int n) {
        retryableFailures.set(n);
        return this;
    }

    /** The next {@code n} batch writes fail with a {@link FatalException}. */
    public TestSink<T> failFatally(int n) {
        fatalFailures.set(n);
        return this;
    }

    /**
     * The next batch write throws {@code error} instead of returning (on the shard's worker thread, or on the
     * pipeline thread when the writer sends without blocking), as a broken writer or a JVM error
     * ({@link OutOfMemoryError}, {@link LinkageError}) would.
     */
    public TestSink<T> crashWorkerWith(Error error) {
        crash.set(Objects.requireNonNull(error, "error"));
        return this;
    }

    /** Writes from now on stay unacknowledged until {@link #releaseAcks()}. */
    public TestSink<T> holdAcks() {
        gate.compareAndSet(null, new CompletableFuture<>());
        return this;
    }

    /** Acknowledges every held write and stops holding. */
    public TestSink<T> releaseAcks() {
        CompletableFuture<Void> g = gate.getAndSet(null);
        if (g != null) {
            g.complete(null);
        }
        return this;
    }

    /** Each write is acknowledged (or fails, when a failure is injected) only after {@code delay}. */
    public TestSink<T> slowAcks(Duration delay) {
        ackDelay = delay;
        return this;
    }

    /** The encoder rejects values matching {@code predicate} as record errors with {@code reason}. */
    public TestSink<T> rejectWhen(Predicate<? super T> predicate, String reason) {
        rejected = predicate;
        rejectReason = reason;
        return this;
    }

    /**
     * The destination refuses messages whose value matches {@code predicate} on their own account (as a broker
     * refuses a record too large for its topic), every time they are written; the rest of each batch is durable.
     */
    public TestSink<T> refuseWhen(Predicate<? super T> predicate) {
        refused = predicate;
        return this;
    }

    // ---- observation --------------------------------------------------------------------------------------

    /** Every message acknowledged as durable, in acknowledgement order (duplicates included). */
    public List<Received<T>> received() {
        return List.copyOf(durable);
    }

    /** The values of {@link #received()}. */
    public List<T> values() {
        List<T> out = new ArrayList<>(durable.size());
        for (Received<T> r : durable) {
            out.add(r.value());
        }
        return out;
    }

    /** Batch write attempts so far, retries included. */
    public int writeAttempts() {
        return writes.get();
    }

    /** Writes currently held by {@link #holdAcks()}. */
    public int heldWrites() {
        return (int) held.stream().filter(f -> !f.isDone()).count();
    }

    // ---- Sink ---------------------------------------------------------------------------------------------

    @Override
    public String name() {
        return name;
    }

    @Override
    public SinkPoolConfig pool() {
        return pool;
    }

    @Override
    public Encoder<T, Received<T>> encoder() {
        return new Encoder<>() {
            @Override
            public Received<T> encode(T value, RecordMeta meta, int outputIndex) {
                if (rejected.test(value)) {
                    throw RecordException.of(rejectReason, "test sink '" + name + "' rejects " + value, null);
                }
                return new Received<>(value, meta);
            }

            @Override
            public long sizeOf(Received<T> message) {
                return 64;
            }
        };
    }

    @Override
    public SinkWriter<Received<T>> openWriter(SinkContext context) {
        RuntimeException failure = openFailure.getAndSet(null);
        if (failure != null) {
            throw failure;
        }
        boolean inline = sendsWithoutBlocking;
        boolean early = inline && takesMessagesAsTheyCome;
        return new SinkWriter<>() {
            @Override
            public CompletableFuture<Void> writeBatch(SealedBatch<Received<T>> batch) {
                return write(batch);
            }

            @Override
            public OpenWrite<Received<T>> openWrite(int shard) {
                return early ? new EarlyWrite() : null;
            }

            @Override
            public boolean sendsWithoutBlocking() {
                return inline;
            }
        };
    }

    /** A batch's first attempt that takes its messages as they come; the sealed batch must start with them. */
    private final class EarlyWrite implements OpenWrite<Received<T>> {
        private final List<Received<T>> added = new ArrayList<>();

        @Override
        public boolean add(Received<T> message) {
            added.add(message);
            handedOverEarly.incrementAndGet();
            return true;
        }

        @Override
        public CompletableFuture<Void> close(SealedBatch<Received<T>> batch) {
            List<Received<T>> messages = batch.messages();
            if (messages.size() < added.size()
                    || !messages.subList(0, added.size()).equals(added)) {
                return CompletableFuture.failedFuture(new FatalException("sink '" + name + "': " + batch
                        + " does not start with the " + added.size() + " message(s) handed over before it was sealed"));
            }
            return write(batch);
        }
    }

    private CompletableFuture<Void> write(SealedBatch<Received<T>> batch) {
        writes.incrementAndGet();
        Error error = crash.getAndSet(null);
        if (error != null) {
            throw error;
        }
        Duration delay = ackDelay;
        if (fatalFailures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            return later(
                    CompletableFuture.failedFuture(new FatalException("injected fatal failure of " + name)), delay);
        }
        if (retryableFailures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            return later(
                    CompletableFuture.failedFuture(new RetryableException("injected retryable failure of " + name)),
                    delay);
        }
        List<Received<T>> messages = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            Received<T> m = batch.messages().get(i);
            if (batch.rejected(i)) {
                continue;
            }
            if (refused.test(m.value())) {
                batch.reject(i, RecordException.of(RecordException.PRODUCE, "injected refusal by " + name, null));
            } else {
                messages.add(m);
            }
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        Runnable ack = () -> {
            durable.addAll(messages);
            done.complete(null);
        };
        CompletableFuture<Void> g = gate.get();
        if (g != null) {
            held.add(done);
            g.thenRun(ack);
        } else if (!delay.isZero()) {
            DELAYS.schedule(ack, delay.toNanos(), TimeUnit.NANOSECONDS);
        } else {
            ack.run();
        }
        return done;
    }

    /** An injected failure arrives after the configured acknowledgement delay, like a real one would. */
    private static CompletableFuture<Void> later(CompletableFuture<Void> outcome, Duration delay) {
        if (delay.isZero()) {
            return outcome;
        }
        CompletableFuture<Void> delayed = new CompletableFuture<>();
        DELAYS.schedule(
                () -> outcome.whenComplete((ok, err) -> delayed.completeExceptionally(err)),
                delay.toNanos(),
                TimeUnit.NANOSECONDS);
        return delayed;
    }
}
