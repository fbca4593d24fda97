package io.etl.bench;

import io.etl.bench.impl.RaceTopics;
import io.etl.bench.orders.BenchOrders;
import io.etl.testkit.KafkaTestCluster;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * End-to-end latency at a fixed input rate: every contestant is forked as in {@link ProcessRace}; a
 * paced producer writes orders at {@code --rate} records/s, each stamped with its send time; the output
 * topics use {@code LogAppendTime}, so an output's timestamp is when the broker appended it. Pacing starts
 * once the contestant's group is stable and owns every input partition. Latency is
 * output append time minus input send time, for the orders sent during the measured window (after the
 * first output appeared and a warm-up), as p50/p99/p99.9/max, with the CPU the contestant and the broker used
 * over that window.
 *
 * <pre>{@code
 * java -jar etl-bench/target/etl-bench.jar --mode latency --rate 20000 --seconds 20 --runs 3
 * }</pre>
 *
 * <p>Options: {@code --rate R} (20,000), {@code --pace-micros P} (how often the paced producer sends the orders then
 * due: 1,000 µs), {@code --warmup-seconds W} (60: in the first half minute at 20,000/s the JIT
 * compilers still use a large share of a contestant's CPU), {@code --seconds S} (20),
 * {@code --runs N} (3), {@code --warmup-runs N} (untimed runs of the first contestant before the first round: 1),
 * {@code --only}, {@code --jvm-flags}, {@code --etl-jar}, {@code --appcds}, {@code --broker-warmup},
 * {@code --kit-broker}, {@code --out} as in {@link ProcessRace}.
 */
public final class LatencyRace {

    static final String USAGE =
            "--mode latency [--rate R] [--pace-micros P] [--warmup-seconds W] [--seconds S] [--runs N] [--warmup-runs N]"
                    + " [--only etl,clients,clients_flush,streams] [--jvm-flags FLAGS] [--etl-jar FILE] [--appcds]"
                    + " [--broker-warmup N] [--kit-broker] [--etl-threads N] [--out FILE]";

    /** What the table shows, with the rate, the window's and the warm-up's seconds. */
    private static final String CAPTION =
            "Paced input at %,d orders/s (the orders then due sent every %d µs); latency = output LogAppendTime minus input"
                    + " send time, orders sent in a %d s window after the first output and a %d s warm-up; every contestant"
                    + " forked; %s before the first round";

    /**
     * The flag that has a forked JVM log its collections and safepoints to {@code file}, with wall-clock times to
     * set beside the time the slowest order was sent.
     */
    static String pauseLog(Path file) {
        return "-Xlog:gc,safepoint:file=" + file + ":time";
    }

    /**
     * How often the paced producer sends the orders then due, by default: every millisecond. Every 0.2 ms, as
     * the race paced before, the producer and its client took two to three times the CPU, on the two cores that the
     * contestant and the broker share with them.
     */
    static final int DEFAULT_PACE_MICROS = 1_000;

    /**
     * Untimed runs of the first contestant at the paced rate before the first round, by default. The broker's warm-up
     * runs at full speed; after it, the broker's collector still resizes its young generation for the paced load, and
     * in the first run after it collected about every 1.3 s instead of every four to six (2026-12-05). Whichever
     * contestant ran first paid for that alone.
     */
    static final int DEFAULT_WARMUP_RUNS = 1;

    /** Seconds at the paced rate before the measured window. */
    static final int DEFAULT_WARMUP_SECONDS = 60;

    private LatencyRace() {}

    /**
     * The figures of one run: latencies in milliseconds; the CPU (user + system) the contestant and the broker used
     * over the measured window, in milliseconds, the broker's -1 when it is not a JVM the race started.
     */
    record Result(
            String label,
            long orders,
            double achievedRate,
            long p50,
            long p99,
            long p999,
            long max,
            double load,
            TailBySecond bySecond,
            long cpuMillis,
            long brokerCpuMillis) {

        /** The CPU seconds of the contestant and the broker over the window, or of the contestant alone. */
        double totalCpuSeconds() {
            return (cpuMillis + Math.max(0, brokerCpuMillis)) / 1000.0;
        }

        /** The progress line's account of the run, with when the slowest order was sent (to match with GC logs). */
        String summary() {
            return String.format(
                            "p50 %d ms, p99 %d ms, p99.9 %d ms, max %d ms over %,d orders at %,.0f/s, load %.1f",
                            figures())
                    + ", slowest sent at "
                    + clock(bySecond.slowestSentAt())
                    + String.format(
                            Locale.ROOT,
                            "; p99 by second: median %d ms, worst %d ms (the second from %s)",
                            bySecond.medianP99(),
                            bySecond.worstP99(),
                            clock(bySecond.worstSecondAt()))
                    + String.format(
                            Locale.ROOT,
                            "; CPU over the window %.1f s (with the broker %.1f s)",
                            cpuMillis / 1000.0,
                            totalCpuSeconds());
        }

        private static String clock(long epochMillis) {
            return DateTimeFormatter.ISO_LOCAL_TIME.format(
                            LocalTime.ofInstant(Instant.ofEpochMilli(epochMillis), ZoneOffset.UTC))
                    + "Z";
        }

        /** The run's cells in the table, after its name. */
        String cells() {
            return String.format(Locale.ROOT, "%d | %d | %d | %d | %,d | %,.0f/s | %.1f", figures())
                    + String.format(Locale.ROOT, " | %d | %d", bySecond.medianP99(), bySecond.worstP99())
                    + String.format(
                            Locale.ROOT,
                            " | %.1f | %s",
                            cpuMillis / 1000.0,
                            brokerCpuMillis < 0 ? "–" : String.format(Locale.ROOT, "%.1f", totalCpuSeconds()));
        }

        /** The figures in the order that both the progress line and the table show them. */
        private Object[] figures() {
            return new Object[] {p50, p99, p999, max, orders, achievedRate, load};
        }
    }

    /** Entry point; see the class documentation. */
    public static void main(String[] args) throws Exception {
        RaceOptions options = RaceOptions.parse(args, USAGE);
        ForkedRaceOptions fork = ForkedRaceOptions.of(options, Path.of("etl-bench/target/latency-race.md"), false);
        int rate = options.number("--rate", 20_000);
        int paceMicros = options.number("--pace-micros", DEFAULT_PACE_MICROS);
        if (paceMicros < 1) {
            throw new IllegalArgumentException("--pace-micros must be at least 1, not " + paceMicros);
        }
        int warmupSeconds = options.number("--warmup-seconds", DEFAULT_WARMUP_SECONDS);
        int seconds = options.number("--seconds", 20);
        int runs = fork.runs();
        int warmupRuns = options.number("--warmup-runs", DEFAULT_WARMUP_RUNS);
        if (warmupRuns < 0) {
            throw new IllegalArgumentException("--warmup-runs must be 0 or more, not " + warmupRuns);
        }
        Path logs = fork.logs("latency-race-logs");
        Files.createDirectories(logs);
        List<Result> results = new ArrayList<>();
        String runId = Long.toString(System.currentTimeMillis(), 36);
        String table;
        try (KafkaTestCluster cluster = fork.cluster(List.of(pauseLog(logs.resolve("broker-gc.log"))))) {
            BrokerWarmUp.run(cluster, fork.brokerWarmUp());
            Map<String, Path> archives = fork.appCds() ? ProcessRace.train(cluster, fork, logs) : Map.of();
            Paced paced = new Paced(cluster, fork, archives, logs, runId, rate, paceMicros, warmupSeconds, seconds);
            ProcessContestant first = fork.contestants().get(0);
            int started = 0;
            for (int w = 1; w <= warmupRuns; w++) {
                Result r = paced.run(first, "warmup" + w, started++);
                System.err.printf("warm-up run %d/%d %s (not counted): %s%n", w, warmupRuns, r.label(), r.summary());
            }
            for (int run = 1; run <= runs; run++) {
                for (ProcessContestant contestant : RoundOrder.of(fork.contestants(), run)) {
                    Result r = paced.run(contestant, "r" + run, started++);
                    System.err.printf("run %d/%d %s: %s%n", run, runs, r.label(), r.summary());
                    results.add(r);
                }
            }
            table = table(results, paced, warmupRuns, fork.jvmFlags())
                    + (fork.appCds() ? ProcessRace.appCdsNote() : "");
        }
        System.out.println(table);
        Files.writeString(fork.out(), table, StandardCharsets.UTF_8);
        System.err.println("written to " + fork.out().toAbsolutePath());
    }

    /** One sitting's fixed parts: a paced run of any contestant on fresh topics, logged under a name of its own. */
    private record Paced(
            KafkaTestCluster cluster,
            ForkedRaceOptions fork,
            Map<String, Path> archives,
            Path logs,
            String runId,
            int rate,
            int paceMicros,
            int warmupSeconds,
            int seconds) {

        /**
         * Runs {@code contestant} once on topics of its own, deleted afterwards; {@code name} tells its logs apart,
         * {@code sequence} (the runs started before it) its topics from those of another variant of the contestant.
         */
        Result run(ProcessContestant contestant, String name, int sequence) throws IOException, InterruptedException {
            String prefix = "lat-" + runId + "-"
                    + contestant.contestant().name().toLowerCase(Locale.ROOT) + "-" + sequence + "-" + name;
            RaceTopics topics = RaceTopics.of(prefix);
            cluster.createTopic(topics.input(), RaceTopics.PARTITIONS);
            for (String topic : topics.outputs()) {
                cluster.createTopic(
                        topic, RaceTopics.PARTITIONS, -1, Map.of("message.timestamp.type", "LogAppendTime"));
            }
            try {
                Path base = logs.resolve(contestant.fileName() + "-" + name);
                List<String> flags = fork.flags(contestant, archives, List.of(pauseLog(Path.of(base + "-gc.log"))));
                return runOne(
                        this,
                        contestant,
                        topics,
                        fork.command(contestant, cluster.bootstrapServers(), topics, flags),
                        Path.of(base + ".log"));
            } finally {
                RaceTopicsSetup.delete(cluster, topics);
            }
        }
    }

    /** One paced run of {@code contestant} with {@code sitting}'s rate, pacing and seconds. */
    private static Result runOne(
            Paced sitting, ProcessContestant contestant, RaceTopics topics, List<String> command, Path log)
            throws IOException, InterruptedException {
        KafkaTestCluster cluster = sitting.cluster();
        int rate = sitting.rate();
        int paceMicros = sitting.paceMicros();
        int capacity = rate * (sitting.warmupSeconds() + sitting.seconds() + 120);
        long[] sentAtMillis = new long[capacity];
        AtomicInteger sent = new AtomicInteger();
        AtomicInteger limit = new AtomicInteger(capacity);
        double load = ProcStat.loadAverage();
        Process process = Forks.withLog(command, log.toFile(), topics.exampleVariables(cluster.bootstrapServers()));
        Thread pacer = new Thread(
                () -> pace(cluster.bootstrapServers(), topics.input(), rate, paceMicros, sentAtMillis, sent, limit),
                "paced-producer");
        try {
            Map<TopicPartition, OffsetSpec> outputSpecs = RaceRunner.latest(topics.outputs());
            try (var admin = cluster.newAdmin()) {
                long giveUp = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
                // pacing starts once the contestant owns every input partition: no start-up backlog in the figures
                while (!assignedEverything(admin, topics.group())) {
                    check(process, contestant, log, giveUp);
                    Thread.sleep(20); // the pacing of a watcher
                }
                pacer.start();
                while (RaceRunner.total(RaceRunner.ends(admin, outputSpecs)) == 0) {
                    check(process, contestant, log, giveUp);
                    Thread.sleep(20); // the pacing of a watcher
                }
                Thread.sleep(TimeUnit.SECONDS.toMillis(sitting.warmupSeconds())); // warm-up at the paced rate
                long brokerPid = ProcessRace.brokerPid(cluster);
                int from = sent.get();
                long windowStart = System.nanoTime();
                long cpuStart = ProcStat.cpuMillis(process.pid());
                long brokerCpuStart = brokerPid > 0 ? ProcStat.cpuMillis(brokerPid) : -1;
                Thread.sleep(TimeUnit.SECONDS.toMillis(sitting.seconds())); // the measured window
                long cpu = ProcStat.cpuMillis(process.pid()) - cpuStart;
                long brokerCpu = brokerPid > 0 ? ProcStat.cpuMillis(brokerPid) - brokerCpuStart : -1;
                int to = sent.get();
                limit.set(to);
                double achieved = (to - from) * 1e9 / (System.nanoTime() - windowStart);
                pacer.join(TimeUnit.SECONDS.toMillis(30));
                int all = sent.get();
                long expected = BenchOrders.expectedOutputs(all);
                giveUp = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
                while (RaceRunner.total(RaceRunner.ends(admin, outputSpecs)) < expected) {
                    check(process, contestant, log, giveUp);
                    Thread.sleep(20); // the pacing of a watcher
                }
                load = Math.max(load, ProcStat.loadAverage());
                Measured measured = latencies(cluster.bootstrapServers(), topics, sentAtMillis, from, to, expected);
                long[] latencies = measured.latencies().clone();
                Arrays.sort(latencies);
                return new Result(
                        contestant.label(),
                        latencies.length,
                        achieved,
                        TailBySecond.percentile(latencies, 50),
                        TailBySecond.percentile(latencies, 99),
                        TailBySecond.percentile(latencies, 99.9),
                        latencies[latencies.length - 1],
                        load,
                        TailBySecond.of(measured.latencies(), measured.sentAtMillis()),
                        cpu,
                        brokerCpu);
            }
        } finally {
            limit.set(0);
            if (pacer.isAlive()) {
                pacer.join(TimeUnit.SECONDS.toMillis(30));
            }
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    /** Whether the group is stable and its members hold all {@value RaceTopics#PARTITIONS} input partitions. */
    private static boolean assignedEverything(Admin admin, String group) throws InterruptedException {
        try {
            var description = admin.describeConsumerGroups(List.of(group))
                    .describedGroups()
                    .get(group)
                    .get();
            int assigned = description.members().stream()
                    .mapToInt(m -> m.assignment().topicPartitions().size())
                    .sum();
            return description.groupState() == GroupState.STABLE && assigned == RaceTopics.PARTITIONS;
        } catch (ExecutionException e) {
            return false; // not there yet
        }
    }

    private static void check(Process process, ProcessContestant contestant, Path log, long giveUp) {
        if (!process.isAlive()) {
            throw new IllegalStateException(
                    contestant.label() + " exited with " + process.exitValue() + "; see " + log);
        }
        if (System.nanoTime() > giveUp) {
            throw new IllegalStateException(contestant.label() + " wrote too little within 2 minutes; see " + log);
        }
    }

    /**
     * Sends order after order at {@code rate}/s, each stamped with (and remembering) its send time: every
     * {@code paceMicros}, the orders then due.
     */
    private static void pace(
            String bootstrap,
            String topic,
            int rate,
            int paceMicros,
            long[] sentAtMillis,
            AtomicInteger sent,
            AtomicInteger limit) {
        Map<String, Object> props = new HashMap<>();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            long start = System.nanoTime();
            int i = 0;
            while (i < limit.get()) {
                long due = (System.nanoTime() - start) * rate / 1_000_000_000L;
                while (i < due && i < limit.get()) {
                    long now = System.currentTimeMillis();
                    sentAtMillis[i] = now;
                    producer.send(new ProducerRecord<>(
                            topic,
                            null,
                            now,
                            BenchOrders.id(i).getBytes(StandardCharsets.UTF_8),
                            BenchOrders.jsonBytes(i)));
                    i++;
                    sent.set(i);
                }
                LockSupport.parkNanos(paceMicros * 1_000L); // the pacing of the producer
            }
            producer.flush();
        }
    }

    /** The latencies of a window's outputs, each order's send time beside it. */
    private record Measured(long[] latencies, long[] sentAtMillis) {}

    /** Append time minus send time of every output whose order was sent in [from, to). */
    private static Measured latencies(
            String bootstrap, RaceTopics topics, long[] sentAtMillis, int from, int to, long expected) {
        Map<String, Object> props = new HashMap<>();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        List<TopicPartition> partitions =
                List.copyOf(RaceRunner.latest(topics.outputs()).keySet());
        long[] result = new long[to - from];
        long[] sentAt = new long[to - from];
        int n = 0;
        long read = 0;
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long giveUp = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (read < expected && System.nanoTime() < giveUp) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    read++;
                    if (r.timestampType() != TimestampType.LOG_APPEND_TIME) {
                        throw new IllegalStateException(r.topic() + " does not use LogAppendTime");
                    }
                    int index = Integer.parseInt(new String(r.key(), StandardCharsets.UTF_8).substring(4));
                    if (index >= from && index < to && n < result.length) {
                        sentAt[n] = sentAtMillis[index];
                        result[n++] = r.timestamp() - sentAtMillis[index];
                    }
                }
            }
        }
        if (n == 0) {
            throw new IllegalStateException("no output of the measured window found");
        }
        return new Measured(Arrays.copyOf(result, n), Arrays.copyOf(sentAt, n));
    }

    /** How the caption names the untimed runs before the first round. */
    private static String warmUpRuns(int runs) {
        return switch (runs) {
            case 0 -> "no untimed run";
            case 1 -> "one untimed run of the first contestant at the paced rate";
            default -> runs + " untimed runs of the first contestant at the paced rate";
        };
    }

    private static String table(List<Result> results, Paced sitting, int warmupRuns, JvmFlags jvmFlags) {
        StringBuilder sb = new StringBuilder(ProcessRace.caption(
                String.format(
                        Locale.ROOT,
                        CAPTION,
                        sitting.rate(),
                        sitting.paceMicros(),
                        sitting.seconds(),
                        sitting.warmupSeconds(),
                        warmUpRuns(warmupRuns)),
                jvmFlags));
        sb.append("| run | p50 (ms) | p99 (ms) | p99.9 (ms) | max (ms) | orders measured | achieved rate | load avg"
                + " | p99 by second, median (ms) | p99 by second, worst (ms) | CPU over the window (s, process)"
                + " | CPU over the window (s, process + broker) |\n");
        sb.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        Map<String, Integer> round = new HashMap<>();
        for (Result r : results) {
            sb.append(String.format(
                    Locale.ROOT, "| %s #%d | %s |%n", r.label(), round.merge(r.label(), 1, Integer::sum), r.cells()));
        }
        sb.append(
                "\n| contestant | median p50 (ms) | median p99 (ms) | median p99.9 (ms) | median p99 by second (ms)"
                        + " | median CPU over the window (s, process + broker) | runs |\n|---|---:|---:|---:|---:|---:|---:|\n");
        ProcessRace.byLabel(results, Result::label)
                .forEach((label, rs) -> sb.append(String.format(
                        Locale.ROOT,
                        "| %s | %.0f | %.0f | %.0f | %.0f | %.1f | %d |%n",
                        label,
                        ProcessRace.median(
                                rs.stream().map(r -> (double) r.p50()).toList()),
                        ProcessRace.median(
                                rs.stream().map(r -> (double) r.p99()).toList()),
                        ProcessRace.median(
                                rs.stream().map(r -> (double) r.p999()).toList()),
                        ProcessRace.median(rs.stream()
                                .map(r -> (double) r.bySecond().medianP99())
                                .toList()),
                        ProcessRace.median(
                                rs.stream().map(Result::totalCpuSeconds).toList()),
                        rs.size())));
        return sb.toString();
    }
}
