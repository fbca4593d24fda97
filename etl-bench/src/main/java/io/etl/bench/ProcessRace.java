package io.etl.bench;

import io.etl.bench.impl.Contestant;
import io.etl.bench.impl.RaceTopics;
import io.etl.bench.orders.BenchOrders;
import io.etl.testkit.ForkedKafkaCluster;
import io.etl.testkit.KafkaTestCluster;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;

/**
 * The race as a user runs it: every contestant is a program of its own, forked and clocked from the
 * fork (JVM start, configuration, connectivity checks, group join and the whole run, until every output
 * is written and the input's end offsets are committed). etl is the example's runnable jar in service
 * mode; the baselines are {@link io.etl.bench.impl.ContestantMain} programs. The broker is a forked JVM
 * of its own with Kafka's start-script flags ({@link ForkedRaceOptions#BROKER_JVM_FLAGS}; or {@code
 * KAFKA_BROKERS}), so its CPU is measured too. Contestants run interleaved.
 *
 * <pre>{@code
 * java -jar etl-bench/target/etl-bench.jar --mode process --records 1000000 --runs 3
 * }</pre>
 *
 * <p>Options: {@code --records N} (1,000,000), {@code --runs R} (3), {@code --only etl,clients,clients_flush,streams},
 * {@code --jvm-flags "FLAGS"} (one flag set for every contestant; none by default, so every contestant runs on the
 * JVM's defaults; see {@link JvmFlags}), {@code --etl-jar FILE} ({@code etl-examples/target/etl-examples.jar}),
 * {@code --outage-seconds S} (a sink outage of S seconds a quarter into each run: the output topics refuse writes,
 * and the contestant's live heap is sampled with {@code jcmd}), {@code --appcds} (every contestant gets a class
 * archive of its own from a training run, see {@link #train}),
 * {@code --broker-warmup N} (orders run through the broker before the first round,
 * {@value ForkedRaceOptions#DEFAULT_BROKER_WARM_UP}; see {@link BrokerWarmUp}), {@code --kit-broker} (the broker on
 * the test kit's flags), {@code --out FILE}.
 */
public final class ProcessRace {

    /** Orders of each contestant's training run under {@code --appcds}: as many as the example's build trains on. */
    static final int TRAINING_ORDERS = 200_000;

    /**
     * Settings every forked contestant gets besides the sitting's JVM flags: the baselines' logging at WARN (etl
     * logs INFO lines at start and stop only). Each run also writes a GC log, for the peak heap.
     */
    public static final List<String> COMMON_FLAGS = List.of(
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
            "-Dorg.slf4j.simpleLogger.log.org.apache.kafka.streams.StreamsConfig=error");

    private static final long WATCH_INTERVAL_MS = 20;

    /** One heap or generation in {@code GC.heap_info}: {@code garbage-first heap   total 397312K, used 17946K}. */
    private static final Pattern HEAP_USED = Pattern.compile("total \\d+K, used (\\d+)K");

    static final String USAGE = "--mode process [--records N] [--runs R] [--only etl,clients,clients_flush,streams]"
            + " [--jvm-flags FLAGS] [--etl-jar FILE] [--outage-seconds S] [--appcds] [--broker-warmup N] [--kit-broker]"
            + " [--etl-threads N] [--etl-as-shipped] [--out FILE]";

    /** What the table shows, with the orders, rounds, cores, Java version, broker and etl jar. */
    private static final String CAPTION = "%,d orders per run, every contestant forked and clocked from the fork,"
            + " %d rounds interleaved, %d cores, Java %s, %s; etl = `java [FLAGS] -jar %s kafka_to_kafka_split`";

    private ProcessRace() {}

    /** One timed run of one contestant. */
    record Result(
            String label,
            long records,
            long elapsedMillis,
            long firstOutputMillis,
            long cpuMillis,
            long brokerCpuMillis,
            long peakHeapMiB,
            long peakRssMiB,
            double load,
            List<Long> outageHeapMiB)
            implements TimedRun {

        @Override
        public double recordsPerSecond() {
            return records * 1000.0 / Math.max(1, elapsedMillis);
        }

        @Override
        public double steadyRecordsPerSecond() {
            return records * 1000.0 / Math.max(1, elapsedMillis - firstOutputMillis);
        }

        @Override
        public double cpuMicrosPerRecord() {
            return cpuMillis * 1000.0 / records;
        }

        double totalCpuMicrosPerRecord() {
            return (cpuMillis + Math.max(0, brokerCpuMillis)) * 1000.0 / records;
        }
    }

    /** Entry point; see the class documentation for the options. */
    public static void main(String[] args) throws Exception {
        RaceOptions options = RaceOptions.parse(args, USAGE);
        ForkedRaceOptions fork = ForkedRaceOptions.of(options, Path.of("etl-bench/target/process-race.md"), true);
        int records = options.number("--records", 1_000_000);
        int outageSeconds = options.number("--outage-seconds", 0);
        int runs = fork.runs();
        Path etlJar = fork.etlJar();
        Path out = fork.out();
        if (!Files.isRegularFile(etlJar)) {
            throw new IllegalArgumentException(
                    etlJar + " not found: build it with mvn -pl etl-examples -am -DskipTests package");
        }
        Path logs = fork.logs("process-race-logs");
        Files.createDirectories(logs);
        List<Result> results = new ArrayList<>();
        String runId = Long.toString(System.currentTimeMillis(), 36);
        String brokerKind;
        try (KafkaTestCluster cluster = fork.cluster(List.of())) {
            BrokerWarmUp.run(cluster, fork.brokerWarmUp());
            long brokerPid = brokerPid(cluster);
            brokerKind = brokerPid > 0
                    ? (fork.kitBroker()
                            ? "forked broker JVM (the test kit's flags)"
                            : "forked broker JVM (Kafka's flags)")
                    : "external " + cluster.bootstrapServers();
            Map<String, Path> archives = fork.appCds() ? train(cluster, fork, logs) : Map.of();
            for (int run = 1; run <= runs; run++) {
                for (ProcessContestant contestant : RoundOrder.of(fork.contestants(), run)) {
                    String prefix = "proc-" + runId + "-"
                            + contestant.contestant().name().toLowerCase(Locale.ROOT) + "-" + results.size() + "-r"
                            + run;
                    System.err.printf("run %d/%d %s: preparing %,d orders%n", run, runs, contestant.label(), records);
                    RaceTopics topics = RaceTopicsSetup.prepare(cluster, prefix, records);
                    try {
                        Path base = logs.resolve(contestant.fileName() + "-r" + run);
                        List<String> flags =
                                fork.flags(contestant, archives, List.of("-Xlog:gc:file=" + base + "-gc.log"));
                        Result r = runOne(
                                cluster,
                                brokerPid,
                                contestant,
                                topics,
                                records,
                                fork.command(contestant, cluster.bootstrapServers(), topics, flags),
                                base,
                                outageSeconds);
                        System.err.printf(
                                "run %d/%d %s: %,.0f records/s from process start, first output %.2f s,"
                                        + " %.1f µs CPU/record (+broker %.1f), peak heap %d MiB, load %.1f%s%n",
                                run,
                                runs,
                                r.label(),
                                r.recordsPerSecond(),
                                r.firstOutputMillis() / 1000.0,
                                r.cpuMicrosPerRecord(),
                                r.totalCpuMicrosPerRecord() - r.cpuMicrosPerRecord(),
                                r.peakHeapMiB(),
                                r.load(),
                                r.outageHeapMiB().isEmpty()
                                        ? ""
                                        : ", live heap during outage " + r.outageHeapMiB() + " MiB");
                        results.add(r);
                    } finally {
                        RaceTopicsSetup.delete(cluster, topics);
                    }
                }
            }
        }
        String table = table(results, records, runs, brokerKind, fork.jvmFlags(), etlJar.getFileName(), outageSeconds)
                + (fork.appCds() ? appCdsNote() : "")
                + fork.etlNote();
        System.out.println(table);
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, table, StandardCharsets.UTF_8);
        System.err.println("written to " + out.toAbsolutePath());
    }

    /** The process id of the race's forked broker, or -1 for a broker the race did not start. */
    static long brokerPid(KafkaTestCluster cluster) {
        return cluster instanceof ForkedKafkaCluster f ? f.pid(ForkedKafkaCluster.SINGLE_NODE_ID) : -1;
    }

    /** The line under a table whose contestants each mapped a class archive of their own ({@code --appcds}). */
    static String appCdsNote() {
        return String.format(
                Locale.ROOT,
                "%nEvery contestant ran with its own %s (`-XX:SharedArchiveFile`), recorded by a training run on %,d"
                        + " orders with `%s`.%n",
                ClassArchiveFlags.kind(),
                TRAINING_ORDERS,
                ClassArchiveFlags.recordAtExit(Path.of("FILE")));
    }

    /** How the etl contestant is started: the example's runnable jar in service mode, no HTTP endpoint. */
    static List<String> etlCommand(Path etlJar) {
        return List.of("-jar", etlJar.toString(), "kafka_to_kafka_split", "--http-port", "0");
    }

    /**
     * The archive recipe of the example's build for every contestant: a training run on {@value #TRAINING_ORDERS}
     * orders with {@link ClassArchiveFlags#recordAtExit(Path)} (the JVM writes a dynamic CDS archive, or from JDK 25
     * an AOT cache with method profiles, when it exits after SIGTERM); the timed runs map it with
     * {@code -XX:SharedArchiveFile}. Returns the archive of each contestant's label.
     */
    static Map<String, Path> train(KafkaTestCluster cluster, ForkedRaceOptions fork, Path logs)
            throws IOException, InterruptedException {
        Map<String, Path> archives = new HashMap<>();
        for (ProcessContestant contestant : fork.contestants()) {
            if (archives.containsKey(contestant.label())) {
                continue;
            }
            Path archive = logs.resolve(contestant.fileName() + ".jsa").toAbsolutePath();
            Files.deleteIfExists(archive);
            String prefix = "train-" + Long.toString(System.nanoTime(), 36) + "-"
                    + contestant.contestant().name().toLowerCase(Locale.ROOT);
            RaceTopics topics = RaceTopicsSetup.prepare(cluster, prefix, TRAINING_ORDERS);
            try {
                List<String> flags = fork.flags(contestant, Map.of(), List.of(ClassArchiveFlags.recordAtExit(archive)));
                runOne(
                        cluster,
                        -1,
                        contestant,
                        topics,
                        TRAINING_ORDERS,
                        fork.command(contestant, cluster.bootstrapServers(), topics, flags),
                        logs.resolve(contestant.fileName() + "-training"),
                        0);
            } finally {
                RaceTopicsSetup.delete(cluster, topics);
            }
            if (!Files.isRegularFile(archive)) {
                throw new IllegalStateException(
                        "the training run of " + contestant.label() + " wrote no archive " + archive);
            }
            System.err.printf(
                    "%s: %s %s (%d MiB)%n",
                    contestant.label(), ClassArchiveFlags.kind(), archive, Files.size(archive) >> 20);
            archives.put(contestant.label(), archive);
        }
        return archives;
    }

    static Result runOne(
            KafkaTestCluster cluster,
            long brokerPid,
            ProcessContestant contestant,
            RaceTopics topics,
            int records,
            List<String> command,
            Path base,
            int outageSeconds)
            throws IOException, InterruptedException {
        long expected = BenchOrders.expectedOutputs(records);
        try (Admin admin = cluster.newAdmin()) {
            Map<TopicPartition, OffsetSpec> outputSpecs = RaceRunner.latest(topics.outputs());
            Map<TopicPartition, OffsetSpec> inputSpecs = RaceRunner.latest(List.of(topics.input()));
            Map<TopicPartition, Long> inputEnds = RaceRunner.ends(admin, inputSpecs);
            double load = ProcStat.loadAverage();
            long brokerCpuStart = brokerPid > 0 ? ProcStat.cpuMillis(brokerPid) : -1;
            long start = System.nanoTime();
            Process process = Forks.withLog(
                    command,
                    base.resolveSibling(base.getFileName() + ".log").toFile(),
                    topics.exampleVariables(cluster.bootstrapServers()));
            long firstOutput = -1;
            long deadline = start + TimeUnit.MINUTES.toNanos(10) + TimeUnit.SECONDS.toNanos(outageSeconds);
            List<Long> outageHeap = List.of();
            try {
                while (true) {
                    if (!process.isAlive()) {
                        throw new IllegalStateException(contestant.label() + " exited with " + process.exitValue()
                                + " before it was done; see " + base + ".log");
                    }
                    long seen = RaceRunner.total(RaceRunner.ends(admin, outputSpecs));
                    if (seen > 0 && firstOutput < 0) {
                        firstOutput = System.nanoTime();
                    }
                    if (outageSeconds > 0 && outageHeap.isEmpty() && seen >= expected / 4) {
                        outageHeap = outage(admin, topics, process.pid(), outageSeconds);
                    }
                    if (seen >= expected && RaceRunner.committed(admin, topics.group(), inputEnds)) {
                        if (seen > expected) {
                            System.err.println(contestant.label() + " wrote " + (seen - expected)
                                    + " records more than expected (written twice)");
                        }
                        break;
                    }
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException(contestant.label() + " not done after 10 minutes: " + seen
                                + " of " + expected + " outputs");
                    }
                    Thread.sleep(WATCH_INTERVAL_MS); // the pacing of a watcher, not a wait for a condition
                }
                long end = System.nanoTime();
                long cpu = ProcStat.cpuMillis(process.pid());
                long brokerCpu = brokerPid > 0 ? ProcStat.cpuMillis(brokerPid) - brokerCpuStart : -1;
                long rss = ProcStat.peakRssMiB(process.pid());
                load = Math.max(load, ProcStat.loadAverage());
                stop(process);
                return new Result(
                        contestant.label(),
                        records,
                        TimeUnit.NANOSECONDS.toMillis(end - start),
                        TimeUnit.NANOSECONDS.toMillis(firstOutput - start),
                        cpu,
                        brokerCpu,
                        GcLog.peakHeapMiB(Path.of(base + "-gc.log")),
                        rss,
                        load,
                        outageHeap);
            } finally {
                if (process.isAlive()) {
                    process.destroyForcibly();
                }
            }
        }
    }

    /** SIGTERM, a bounded wait for the drain, then SIGKILL. */
    private static void stop(Process process) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /**
     * Makes every output topic refuse writes for {@code seconds} (it asks for two in-sync replicas of a
     * single-replica topic, so acks=all produce requests fail with NOT_ENOUGH_REPLICAS, a retryable error),
     * samples the contestant's live heap (after a full GC, with {@code jcmd}) every 10 s, then lifts it.
     */
    private static List<Long> outage(Admin admin, RaceTopics topics, long pid, int seconds)
            throws InterruptedException {
        System.err.printf("sink outage of %d s begins%n", seconds);
        alterMinIsr(admin, topics, "2");
        List<Long> heap = new ArrayList<>();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        try {
            while (true) {
                heap.add(liveHeapMiB(pid));
                long left = end - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                Thread.sleep(Math.min(TimeUnit.NANOSECONDS.toMillis(left), 10_000)); // sampling pace
            }
        } finally {
            alterMinIsr(admin, topics, null);
            System.err.println("sink outage over; live heap samples " + heap + " MiB");
        }
        return heap;
    }

    private static void alterMinIsr(Admin admin, RaceTopics topics, String value) {
        Map<ConfigResource, Collection<AlterConfigOp>> ops = new HashMap<>();
        for (String topic : topics.outputs()) {
            ConfigEntry entry = new ConfigEntry("min.insync.replicas", value == null ? "" : value);
            ops.put(
                    new ConfigResource(ConfigResource.Type.TOPIC, topic),
                    List.of(new AlterConfigOp(
                            entry, value == null ? AlterConfigOp.OpType.DELETE : AlterConfigOp.OpType.SET)));
        }
        try {
            admin.incrementalAlterConfigs(ops).all().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot set min.insync.replicas on " + topics.outputs() + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Heap in use right after a full collection ({@code jcmd PID GC.run}, then {@code GC.heap_info}), MiB. */
    static long liveHeapMiB(long pid) {
        String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        try {
            run(List.of(jcmd, Long.toString(pid), "GC.run"));
            long used = usedHeapKiB(run(List.of(jcmd, Long.toString(pid), "GC.heap_info")));
            return used < 0 ? -1 : used / 1024;
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /**
     * The heap in use as {@code GC.heap_info} prints it, in KiB, or -1 when it names no heap: the sum over the
     * collector's heaps or generations (G1's one heap; Serial's and Parallel's young and old generation), without
     * the metaspace, which it lists after them.
     */
    static long usedHeapKiB(String heapInfo) {
        Matcher m = HEAP_USED.matcher(heapInfo);
        long used = 0;
        boolean found = false;
        while (m.find()) {
            used += Long.parseLong(m.group(1));
            found = true;
        }
        return found ? used : -1;
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(30, TimeUnit.SECONDS);
        return text;
    }

    static String table(
            List<Result> results,
            int records,
            int runs,
            String brokerKind,
            JvmFlags jvmFlags,
            Path etlJar,
            int outageSeconds) {
        StringBuilder sb = new StringBuilder(caption(
                String.format(
                        Locale.ROOT,
                        CAPTION,
                        records,
                        runs,
                        Runtime.getRuntime().availableProcessors(),
                        System.getProperty("java.version"),
                        brokerKind,
                        etlJar),
                jvmFlags));
        sb.append(
                "| run | records/s from process start | elapsed (s) | first output (s) | records/s after first output"
                        + " | CPU µs/record (process) | CPU µs/record (process + broker) | peak heap (MiB) | peak RSS (MiB) | load avg |");
        if (outageSeconds > 0) {
            sb.append(" live heap during the outage (MiB) |");
        }
        sb.append('\n')
                .append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
                .append(outageSeconds > 0 ? "---|" : "")
                .append('\n');
        Map<String, Integer> round = new HashMap<>();
        for (Result r : results) {
            int n = round.merge(r.label(), 1, Integer::sum);
            sb.append(String.format(
                    Locale.ROOT,
                    "| %s #%d | %s | %s | %d | %d | %.1f |",
                    r.label(),
                    n,
                    r.timingCells(),
                    r.brokerCpuMillis() < 0 ? "–" : String.format(Locale.ROOT, "%.1f", r.totalCpuMicrosPerRecord()),
                    r.peakHeapMiB(),
                    r.peakRssMiB(),
                    r.load()));
            if (outageSeconds > 0) {
                sb.append(' ').append(r.outageHeapMiB()).append(" |");
            }
            sb.append('\n');
        }
        double clients = medianRate(results, Contestant.CLIENTS.label());
        double flushingClients = medianRate(results, Contestant.CLIENTS_FLUSH.label());
        double streams = medianRate(results, Contestant.STREAMS.label());
        boolean withFlushing = !Double.isNaN(flushingClients);
        sb.append('\n')
                .append("| contestant | median records/s from process start | vs kafka-clients")
                .append(withFlushing ? " | vs kafka-clients-flush" : "")
                .append(" | vs kafka-streams"
                        + " | median first output (s) | median records/s after first output | median CPU µs/record (process + broker)"
                        + " | max peak heap (MiB) | runs |\n|---|---:|---:|")
                .append(withFlushing ? "---:|" : "")
                .append("---:|---:|---:|---:|---:|---:|\n");
        byLabel(results, Result::label).forEach((label, rs) -> {
            double rate = median(rs.stream().map(Result::recordsPerSecond).toList());
            sb.append(String.format(
                    Locale.ROOT,
                    "| %s | %,.0f | %s |%s %s | %.2f | %,.0f | %.1f | %d | %d |%n",
                    label,
                    rate,
                    ratio(rate, clients),
                    withFlushing ? " " + ratio(rate, flushingClients) + " |" : "",
                    ratio(rate, streams),
                    median(rs.stream().map(r -> r.firstOutputMillis() / 1000.0).toList()),
                    median(rs.stream().map(Result::steadyRecordsPerSecond).toList()),
                    median(rs.stream().map(Result::totalCpuMicrosPerRecord).toList()),
                    rs.stream().mapToLong(Result::peakHeapMiB).max().orElse(0),
                    rs.size()));
        });
        String rounds = RoundByRound.table(results, Contestant.CLIENTS.label());
        if (!rounds.isEmpty()) {
            sb.append('\n').append(rounds);
        }
        return sb.toString();
    }

    /** The line above a race's table: what it shows, then the one JVM flag set every contestant got. */
    static String caption(String what, JvmFlags jvmFlags) {
        return String.format("*%s; JVM flags, the same for every contestant: %s*%n%n", what, jvmFlags.describe());
    }

    /** The median records/s from process start of the runs of the contestant labelled {@code label}. */
    private static double medianRate(List<Result> results, String label) {
        return median(results.stream()
                .filter(r -> r.label().equals(label))
                .map(Result::recordsPerSecond)
                .toList());
    }

    private static String ratio(double a, double b) {
        return Double.isNaN(b) || b == 0 ? "–" : String.format(Locale.ROOT, "%.2f×", a / b);
    }

    /** {@code runs} grouped by contestant, in the order each contestant first ran; each group in run order. */
    static <R> Map<String, List<R>> byLabel(List<R> runs, Function<R, String> label) {
        return runs.stream().collect(Collectors.groupingBy(label, LinkedHashMap::new, Collectors.toList()));
    }

    static double median(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /** {@code a} followed by {@code b}, in a new list. */
    static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
