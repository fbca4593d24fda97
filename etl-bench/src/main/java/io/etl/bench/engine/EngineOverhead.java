package io.etl.bench.engine;

import io.etl.core.Pipeline;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.config.SinkPoolConfig;
import io.etl.core.record.RecordMeta;
import io.etl.core.sink.Encoder;
import io.etl.core.sink.SealedBatch;
import io.etl.core.sink.Sink;
import io.etl.core.sink.SinkContext;
import io.etl.core.sink.SinkWriter;
import io.etl.core.source.CommitCallback;
import io.etl.core.source.PartitionListener;
import io.etl.core.source.Source;
import io.etl.core.source.SourceContext;
import io.etl.core.source.SourceOutput;
import io.etl.core.source.SourcePartition;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * What the engine itself costs per record, with no Kafka, no codec and next to no user work: an in-memory source
 * emits records in runs of one partition (as a consumer's poll returns them) through the split example's shape
 * (filter, map, split by key into four sinks) to sinks whose writers acknowledge each batch a few milliseconds
 * later on another thread, as a producer would. Each round prints the pipeline thread's CPU per record, and
 * then the same operators in a plain loop (the floor: a record's metadata made, the functions called, the output
 * kept in a list). Rounds after the first are the warm figures.
 *
 * <pre>{@code
 * java -cp etl-bench/target/etl-bench.jar io.etl.bench.engine.EngineOverhead --records 5000000 --rounds 5
 * }</pre>
 */
public final class EngineOverhead {

    private static final int PARTITIONS = 6;
    /** Records of one partition in a row, as a poll returns them. */
    private static final int RUN = 500;

    private static final int POLL = 2000;
    private static final int DISTINCT = 4096;
    private static final long ACK_DELAY_MS = 5;

    private EngineOverhead() {}

    public static void main(String[] args) throws Exception {
        long records = 5_000_000;
        int rounds = 5;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--records" -> records = Long.parseLong(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                default -> {
                    System.err.println("usage: EngineOverhead [--records N] [--rounds R]");
                    System.exit(2);
                }
            }
        }
        Long[] values = new Long[DISTINCT];
        byte[][] keys = new byte[DISTINCT][];
        for (int i = 0; i < DISTINCT; i++) {
            values[i] = i * 7919L;
            keys[i] = ("key-" + i).getBytes(StandardCharsets.UTF_8);
        }
        ScheduledExecutorService acks = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "acks");
            t.setDaemon(true);
            return t;
        });
        try {
            for (int r = 1; r <= rounds; r++) {
                double engine = engineRound(r, records, values, keys, acks);
                double loop = plainLoop(records, values, keys);
                System.out.printf(
                        Locale.ROOT,
                        "round %d: engine %.1f ns/record (pipeline thread CPU), plain loop %.1f ns/record%n",
                        r,
                        engine,
                        loop);
            }
        } finally {
            acks.shutdownNow();
        }
    }

    private static boolean keep(Long v) {
        return v % 20 != 0;
    }

    private static Long reshape(Long v) {
        return v + 1;
    }

    private static int branch(Long v) {
        return (int) (v & 3);
    }

    private static double engineRound(
            int round, long records, Long[] values, byte[][] keys, ScheduledExecutorService acks) throws Exception {
        long expected = 0;
        for (long i = 0; i < records; i++) {
            if (keep(values[(int) (i % DISTINCT)])) {
                expected++;
            }
        }
        AtomicLong written = new AtomicLong();
        String name = "engine-overhead-" + round;
        PipelineConfig config = PipelineConfig.parse("pipeline: {name: " + name + "}\n", v -> null);
        RunningPipeline running = Pipeline.named(name)
                .from(new MemorySource(records, values, keys))
                .filter("keep", v -> keep((Long) v))
                .map("reshape", v -> (Object) reshape((Long) v))
                .split(
                        "by-branch",
                        v -> branch((Long) v),
                        split -> split.branch("a", 0, new MemorySink("a", written, acks))
                                .branch("b", 1, new MemorySink("b", written, acks))
                                .branch("c", 2, new MemorySink("c", written, acks))
                                .otherwise(new MemorySink("d", written, acks)))
                .build()
                .start(config, new SimpleMeterRegistry());
        while (written.get() < expected) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        long cpu = threadCpuNanos("etl-" + name);
        running.stop();
        running.result().get(30, TimeUnit.SECONDS);
        return cpu / (double) records;
    }

    private static double plainLoop(long records, Long[] values, byte[][] keys) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long start = threads.getCurrentThreadCpuTime();
        List<List<Object>> outputs =
                List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        long[] offsets = new long[PARTITIONS];
        long kept = 0;
        for (long i = 0; i < records; i++) {
            int partition = (int) ((i / RUN) % PARTITIONS);
            int k = (int) (i % DISTINCT);
            RecordMeta meta = new RecordMeta("in", partition, offsets[partition]++, 0L, keys[k], List.of(), null);
            Long value = values[k];
            if (!keep(value)) {
                continue;
            }
            Long out = reshape(value);
            List<Object> to = outputs.get(branch(out));
            to.add(out);
            to.add(meta);
            if (to.size() >= 2 * POLL) {
                kept += to.size();
                to.clear();
            }
        }
        long cpu = threads.getCurrentThreadCpuTime() - start;
        if (kept < 0) {
            throw new AssertionError(); // keeps the loop's work observable
        }
        return cpu / (double) records;
    }

    private static long threadCpuNanos(String name) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long total = 0;
        for (ThreadInfo info : threads.dumpAllThreads(false, false)) {
            if (info.getThreadName().startsWith(name)) {
                total += threads.getThreadCpuTime(info.getThreadId());
            }
        }
        return total;
    }

    /** Emits {@code records} values from memory, up to a poll's worth per call, in runs of one partition. */
    private static final class MemorySource implements Source<Object> {
        private final long records;
        private final Long[] values;
        private final byte[][] keys;
        private final long[] offsets = new long[PARTITIONS];
        private long next;

        MemorySource(long records, Long[] values, byte[][] keys) {
            this.records = records;
            this.values = values;
            this.keys = keys;
        }

        @Override
        public String name() {
            return "memory";
        }

        @Override
        public void open(SourceContext context) {
            PartitionListener listener = context.listener();
            List<SourcePartition> partitions = new ArrayList<>();
            for (int p = 0; p < PARTITIONS; p++) {
                partitions.add(new SourcePartition("in", p));
            }
            listener.onAssigned(partitions);
        }

        @Override
        public void poll(Duration timeout, SourceOutput<Object> output) {
            if (next >= records) {
                LockSupport.parkNanos(Math.min(timeout.toNanos(), TimeUnit.MILLISECONDS.toNanos(1)));
                return;
            }
            int n = (int) Math.min(POLL, records - next);
            for (int i = 0; i < n; i++, next++) {
                int partition = (int) ((next / RUN) % PARTITIONS);
                int k = (int) (next % DISTINCT);
                output.emit(
                        values[k], new RecordMeta("in", partition, offsets[partition]++, 0L, keys[k], List.of(), null));
            }
        }

        @Override
        public void commit(Map<SourcePartition, Long> offsets, boolean sync, CommitCallback done) {
            done.completed(offsets, null);
        }

        @Override
        public void pause() {}

        @Override
        public void resume() {}

        @Override
        public void close(Duration timeout) {}
    }

    /** Keeps nothing; its writer acknowledges each batch {@value #ACK_DELAY_MS} ms later on the acks thread. */
    private static final class MemorySink implements Sink<Object, Object> {
        private static final SinkPoolConfig POOL = SinkPoolConfig.defaults();
        private final String name;
        private final AtomicLong written;
        private final ScheduledExecutorService acks;

        MemorySink(String name, AtomicLong written, ScheduledExecutorService acks) {
            this.name = name;
            this.written = written;
            this.acks = acks;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public SinkPoolConfig pool() {
            return POOL;
        }

        @Override
        public Encoder<Object, Object> encoder() {
            return new Encoder<>() {
                @Override
                public Object encode(Object value, RecordMeta meta, int outputIndex) {
                    return value;
                }

                @Override
                public long sizeOf(Object message) {
                    return 100;
                }
            };
        }

        @Override
        public SinkWriter<Object> openWriter(SinkContext context) {
            return new SinkWriter<>() {
                @Override
                public CompletableFuture<Void> writeBatch(SealedBatch<Object> batch) {
                    CompletableFuture<Void> acknowledged = new CompletableFuture<>();
                    int size = batch.size();
                    acks.schedule(
                            () -> {
                                written.addAndGet(size);
                                acknowledged.complete(null);
                            },
                            ACK_DELAY_MS,
                            TimeUnit.MILLISECONDS);
                    return acknowledged;
                }

                @Override
                public boolean sendsWithoutBlocking() {
                    return true;
                }
            };
        }
    }
}
