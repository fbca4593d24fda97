package io.etl.bench;

import com.sun.management.OperatingSystemMXBean;
import io.etl.bench.impl.RaceTopics;
import io.etl.bench.impl.SplitImplementation;
import io.etl.bench.orders.BenchOrders;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Times one contestant on one set of prepared topics: starts it, watches the broker until the sum of the
 * outputs' end offsets equals the expected count and the group has committed the input's end offsets,
 * then stops it. The watcher asks the broker every {@value #WATCH_INTERVAL_MS} ms; the JVM's heap use is
 * sampled every 100 ms. Works in any JVM: the race forks one per contestant, the IT runs it in-process.
 *
 * <pre>{@code
 * RunResult r = new RaceRunner(bootstrap, Map.of()).run(Contestant.CLIENTS.implementation(),
 *         RaceTopics.of(prefix), 200_000, Duration.ofMinutes(5));
 * }</pre>
 */
public final class RaceRunner {

    /** How often the broker is asked whether the run is done. */
    public static final long WATCH_INTERVAL_MS = 20;

    private final String bootstrapServers;
    private final Map<String, String> clientProperties;

    /**
     * @param bootstrapServers the broker
     * @param clientProperties extra properties for every client (security); may be empty
     */
    public RaceRunner(String bootstrapServers, Map<String, String> clientProperties) {
        this.bootstrapServers = bootstrapServers;
        this.clientProperties = Map.copyOf(clientProperties);
    }

    /**
     * Runs {@code implementation} over topics whose input already holds {@code records} orders
     * ({@link BenchOrders}) and whose outputs are empty.
     *
     * @throws TimeoutException when the run is not done within {@code timeout}
     * @throws IllegalStateException when the contestant fails, or writes more than expected
     */
    public RunResult run(SplitImplementation implementation, RaceTopics topics, int records, Duration timeout)
            throws TimeoutException, InterruptedException {
        long expected = BenchOrders.expectedOutputs(records);
        Map<String, Object> adminProps = new HashMap<>(clientProperties);
        adminProps.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        try (Admin admin = Admin.create(adminProps)) {
            Map<TopicPartition, OffsetSpec> outputSpecs = latest(topics.outputs());
            Map<TopicPartition, OffsetSpec> inputSpecs = latest(List.of(topics.input()));
            Map<TopicPartition, Long> inputEnds = ends(admin, inputSpecs);
            long inputTotal = total(inputEnds);
            if (inputTotal != records) {
                throw new IllegalStateException(
                        "input " + topics.input() + " holds " + inputTotal + " records, expected " + records);
            }

            HeapSampler heap = new HeapSampler();
            long cpuStart = processCpuNanos();
            long start = System.nanoTime();
            long deadline = start + timeout.toNanos();
            long firstOutput = -1;
            Map<TopicPartition, Long> outputEnds;
            try (SplitImplementation.Running running =
                    implementation.start(bootstrapServers, clientProperties, topics)) {
                while (true) {
                    running.failure().ifPresent(f -> {
                        throw new IllegalStateException(implementation.name() + " failed: " + f, f);
                    });
                    outputEnds = ends(admin, outputSpecs);
                    long seen = total(outputEnds);
                    if (seen > 0 && firstOutput < 0) {
                        firstOutput = System.nanoTime();
                    }
                    if (implementation.transactional()) {
                        // end offsets count transaction markers: done once the offsets are committed, which in a
                        // transaction happens together with the outputs
                        if (committed(admin, topics.group(), inputEnds)) {
                            break;
                        }
                    } else if (seen > expected) {
                        throw new IllegalStateException(implementation.name() + " wrote " + seen
                                + " output records, expected " + expected + " (duplicates in a clean run)");
                    }
                    if (seen == expected && committed(admin, topics.group(), inputEnds)) {
                        break;
                    }
                    if (System.nanoTime() > deadline) {
                        throw new TimeoutException(implementation.name() + " not done after " + timeout + ": " + seen
                                + " of " + expected + " outputs");
                    }
                    Thread.sleep(WATCH_INTERVAL_MS); // the pacing of a watcher, not a wait for a condition
                }
                long end = System.nanoTime();
                long cpu = processCpuNanos() - cpuStart;
                heap.stop();
                System.err.println("CPU ms by thread during the timed part of " + topics.prefix() + ": "
                        + heap.cpuByThreadGroup());
                long peak = heap.stop();
                Map<String, Long> perTopic = new LinkedHashMap<>();
                List<String> outputs = topics.outputs();
                Map<TopicPartition, Long> counted =
                        implementation.transactional() ? readCommittedCounts(admin, outputSpecs) : outputEnds;
                for (int b = 0; b < outputs.size(); b++) {
                    String topic = outputs.get(b);
                    perTopic.put(
                            BenchOrders.BRANCHES[b],
                            counted.entrySet().stream()
                                    .filter(e -> e.getKey().topic().equals(topic))
                                    .mapToLong(Map.Entry::getValue)
                                    .sum());
                }
                long total =
                        perTopic.values().stream().mapToLong(Long::longValue).sum();
                if (implementation.transactional() && total != expected) {
                    throw new IllegalStateException(
                            implementation.name() + " committed " + total + " output records, expected " + expected);
                }
                return new RunResult(
                        implementation.name(),
                        records,
                        expected,
                        TimeUnit.NANOSECONDS.toMillis(end - start),
                        firstOutput < 0 ? 0 : TimeUnit.NANOSECONDS.toMillis(firstOutput - start),
                        peak,
                        heap.maxLoad(),
                        TimeUnit.NANOSECONDS.toMillis(cpu),
                        perTopic);
            } finally {
                heap.stop();
            }
        }
    }

    /**
     * Records per partition that a read-committed consumer sees (transaction markers and aborted data left out),
     * once no transaction is open on them: the brokers write commit markers after the commit returns, so the
     * last transaction's outputs may become readable a moment after its offsets.
     */
    private Map<TopicPartition, Long> readCommittedCounts(Admin admin, Map<TopicPartition, OffsetSpec> specs)
            throws InterruptedException {
        Collection<TopicPartition> partitions = specs.keySet();
        Map<String, Object> props = new HashMap<>(clientProperties);
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        Map<TopicPartition, Long> counts = new HashMap<>();
        try (var consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> all = List.copyOf(partitions);
            consumer.assign(all);
            consumer.seekToBeginning(all);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            Map<TopicPartition, Long> ends = consumer.endOffsets(all);
            while (!ends.equals(ends(admin, specs))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("a transaction is still open on the outputs after 60 s");
                }
                Thread.sleep(WATCH_INTERVAL_MS); // the pacing of a watcher, not a wait for a condition
                ends = consumer.endOffsets(all);
            }
            Map<TopicPartition, Long> stable = ends;
            while (all.stream().anyMatch(tp -> consumer.position(tp) < stable.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("cannot read the outputs to their end within 60 s");
                }
                for (var r : consumer.poll(Duration.ofMillis(200))) {
                    counts.merge(new TopicPartition(r.topic(), r.partition()), 1L, Long::sum);
                }
            }
        }
        return counts;
    }

    private static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os
                ? os.getProcessCpuTime()
                : 0;
    }

    /** Every partition of {@code topics} ({@value RaceTopics#PARTITIONS} each), asking for its end offset. */
    static Map<TopicPartition, OffsetSpec> latest(List<String> topics) {
        Map<TopicPartition, OffsetSpec> specs = new HashMap<>();
        for (String topic : topics) {
            for (int p = 0; p < RaceTopics.PARTITIONS; p++) {
                specs.put(new TopicPartition(topic, p), OffsetSpec.latest());
            }
        }
        return specs;
    }

    /** The sum of the offsets: records in the partitions, transaction markers included. */
    static long total(Map<TopicPartition, Long> offsets) {
        return offsets.values().stream().mapToLong(Long::longValue).sum();
    }

    static Map<TopicPartition, Long> ends(Admin admin, Map<TopicPartition, OffsetSpec> specs)
            throws InterruptedException {
        try {
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> infos =
                    admin.listOffsets(specs).all().get();
            Map<TopicPartition, Long> ends = new HashMap<>();
            infos.forEach((tp, info) -> ends.put(tp, info.offset()));
            return ends;
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot list offsets: " + e.getCause(), e.getCause());
        }
    }

    static boolean committed(Admin admin, String group, Map<TopicPartition, Long> inputEnds)
            throws InterruptedException {
        try {
            Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata()
                    .get();
            for (Map.Entry<TopicPartition, Long> end : inputEnds.entrySet()) {
                OffsetAndMetadata committed = offsets.get(end.getKey());
                long want = end.getValue();
                if (want > 0 && (committed == null || committed.offset() < want)) {
                    return false;
                }
            }
            return true;
        } catch (ExecutionException e) {
            return false; // the group may not exist yet
        }
    }

    /** Samples {@link MemoryMXBean} heap use (and the system load average) every 100 ms and keeps the peaks. */
    private static final class HeapSampler {
        private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        private final AtomicLong peak = new AtomicLong();
        private final AtomicLong maxLoadMillis = new AtomicLong();
        private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        private final Map<Long, String> threadNames = new ConcurrentHashMap<>();
        private final Map<Long, Long> baselineCpu = new ConcurrentHashMap<>();
        private final Map<Long, Long> lastCpu = new ConcurrentHashMap<>();
        private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "heap-sampler");
            t.setDaemon(true);
            return t;
        });

        HeapSampler() {
            for (long id : threads.getAllThreadIds()) {
                long cpu = threads.getThreadCpuTime(id);
                if (cpu >= 0) {
                    baselineCpu.put(id, cpu);
                }
            }
            timer.scheduleAtFixedRate(this::sample, 0, 100, TimeUnit.MILLISECONDS);
        }

        private void sample() {
            long used = memory.getHeapMemoryUsage().getUsed();
            peak.accumulateAndGet(used, Math::max);
            for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
                if (info == null) {
                    continue;
                }
                long cpu = threads.getThreadCpuTime(info.getThreadId());
                if (cpu >= 0) {
                    threadNames.put(info.getThreadId(), info.getThreadName());
                    lastCpu.put(info.getThreadId(), cpu);
                }
            }
            long load = (long) (ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage() * 1000);
            maxLoadMillis.accumulateAndGet(load, Math::max);
        }

        /**
         * CPU milliseconds per thread group during the run (thread names with run-specific parts and
         * digits folded); threads that ended lose at most their last 100 ms.
         */
        Map<String, Long> cpuByThreadGroup() {
            Map<String, Long> groups = new TreeMap<>();
            lastCpu.forEach((id, cpu) -> {
                long used = cpu - baselineCpu.getOrDefault(id, 0L);
                String name = threadNames
                        .getOrDefault(id, "?")
                        .replaceAll("race-[a-z0-9]+-[a-z]+-r\\d+(-warm)?", "<run>")
                        .replaceAll("-(eu|us|apac|unrouted)\\b", "-<sink>")
                        .replaceAll("\\d+", "N");
                groups.merge(name, TimeUnit.NANOSECONDS.toMillis(used), Long::sum);
            });
            return groups;
        }

        double maxLoad() {
            return maxLoadMillis.get() / 1000.0;
        }

        long stop() {
            if (!timer.isShutdown()) {
                timer.shutdownNow();
                sample();
            }
            return peak.get();
        }
    }
}
