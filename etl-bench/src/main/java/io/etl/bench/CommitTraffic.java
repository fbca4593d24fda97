package io.etl.bench;

import io.etl.bench.impl.RaceTopics;
import io.etl.bench.orders.BenchOrders;
import io.etl.examples.split.KafkaToKafkaSplit;
import io.etl.testkit.KafkaTestCluster;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * What {@code checkpoint.interval} costs and buys: for each interval and number of instances, the example pipeline
 * (its runnable jar, forked, the shipped YAML with only the interval changed) reads orders arriving at a steady
 * rate; over a measured window the harness reads how many commits the instances sent (their
 * {@code etl_checkpoint_commits_total}), how many offset records the group coordinator appended to
 * {@code __consumer_offsets}, and the CPU the broker (coordinator and partition leader alike) and the instances
 * used. Then it kills one instance with SIGKILL {@code --kills} times (each replaced by a fresh copy at once), lets
 * the survivors finish, and counts the duplicates in the output by key: what each kill replayed.
 *
 * <pre>
 * java -cp etl-bench/target/etl-bench.jar io.etl.bench.CommitTraffic --intervals 10ms,100ms,1s --instances 1,3
 * </pre>
 */
public final class CommitTraffic {

    static final String USAGE = "CommitTraffic [--intervals 10ms,50ms,100ms,250ms,1s] [--instances 1,3] [--rate R]"
            + " [--warmup-seconds W] [--seconds S] [--kills K] [--etl-jar FILE] [--kit-broker] [--out FILE]";

    private static final Pattern COMMITS = Pattern.compile("(?m)^etl_checkpoint_commits_total\\{[^}]*} ([0-9.eE+]+)");
    private static final Pattern INTERVAL = Pattern.compile("(?m)^  interval: \\S+");
    private static final String OFFSETS_TOPIC = "__consumer_offsets";
    /** The example's session timeout is 10 s: a killed member's partitions wait that long for a new owner. */
    private static final long FAILOVER_MILLIS = 13_000;

    private CommitTraffic() {}

    /** One measured configuration. */
    record Result(
            String interval,
            int instances,
            double commitsPerSecond,
            double offsetRecordsPerSecond,
            double brokerCpuPercent,
            double instancesCpuPercent,
            long outputs,
            long duplicates,
            int kills,
            double load) {}

    /** Entry point; see the class documentation. */
    public static void main(String[] args) throws Exception {
        RaceOptions options = RaceOptions.parse(args, USAGE);
        ForkedRaceOptions fork = ForkedRaceOptions.of(options, Path.of("etl-bench/target/commit-traffic.md"), false);
        List<String> intervals = options.list("--intervals", s -> s, List.of("10ms", "50ms", "100ms", "250ms", "1s"));
        List<Integer> instanceCounts = options.list("--instances", Integer::parseInt, List.of(1, 3));
        int rate = options.number("--rate", 15_000);
        int warmupSeconds = options.number("--warmup-seconds", 10);
        int seconds = options.number("--seconds", 20);
        int kills = options.number("--kills", 3);
        Path etlJar = fork.etlJar();
        if (!Files.isRegularFile(etlJar)) {
            throw new IllegalArgumentException(
                    etlJar + " not found: build it with mvn -pl etl-examples -am -DskipTests package");
        }
        Path logs = fork.logs("commit-traffic-logs");
        Files.createDirectories(logs);
        List<Result> results = new ArrayList<>();
        String runId = Long.toString(System.currentTimeMillis(), 36);
        try (KafkaTestCluster cluster = fork.cluster(List.of())) {
            long brokerPid = ProcessRace.brokerPid(cluster);
            for (int instances : instanceCounts) {
                for (String interval : intervals) {
                    String prefix = "commits-" + runId + "-" + instances + "-" + results.size();
                    RaceTopics topics = RaceTopics.of(prefix);
                    for (String topic : topics.all()) {
                        cluster.createTopic(topic, RaceTopics.PARTITIONS);
                    }
                    Path yaml = logs.resolve(prefix + ".yaml");
                    Files.writeString(yaml, yaml(interval), StandardCharsets.UTF_8);
                    Result r = runOne(
                            cluster,
                            brokerPid,
                            topics,
                            yaml,
                            etlJar,
                            logs,
                            interval,
                            instances,
                            rate,
                            warmupSeconds,
                            seconds,
                            kills);
                    System.err.printf(
                            "%s x%d: %.1f commits/s, %.1f offset records/s, broker %.1f%% CPU, instances %.1f%% CPU,"
                                    + " %d duplicates in %d outputs after %d kills, load %.1f%n",
                            interval,
                            instances,
                            r.commitsPerSecond(),
                            r.offsetRecordsPerSecond(),
                            r.brokerCpuPercent(),
                            r.instancesCpuPercent(),
                            r.duplicates(),
                            r.outputs(),
                            r.kills(),
                            r.load());
                    results.add(r);
                    RaceTopicsSetup.delete(cluster, topics);
                }
            }
        }
        String table = table(results, rate, seconds, kills);
        System.out.println(table);
        Path out = fork.out();
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, table, StandardCharsets.UTF_8);
        System.err.println("written to " + out.toAbsolutePath());
    }

    /** The example's shipped YAML with {@code checkpoint.interval} set to {@code interval}. */
    static String yaml(String interval) {
        String shipped = KafkaToKafkaSplit.defaultYaml();
        Matcher m = INTERVAL.matcher(shipped);
        if (!m.find()) {
            throw new IllegalStateException("the example YAML has no checkpoint interval to change");
        }
        return m.replaceFirst("  interval: " + interval);
    }

    private static Result runOne(
            KafkaTestCluster cluster,
            long brokerPid,
            RaceTopics topics,
            Path yaml,
            Path etlJar,
            Path logs,
            String interval,
            int instances,
            int rate,
            int warmupSeconds,
            int seconds,
            int kills)
            throws Exception {
        long total = (long) rate * (warmupSeconds + seconds + kills * FAILOVER_MILLIS / 1000 + 5);
        AtomicInteger sent = new AtomicInteger();
        AtomicBoolean stop = new AtomicBoolean();
        Thread producer = new Thread(
                () -> pace(cluster.bootstrapServers(), topics.input(), rate, (int) total, sent, stop), "paced-orders");
        List<Instance> running = new ArrayList<>();
        double load = ProcStat.loadAverage();
        producer.start();
        try (Admin admin = cluster.newAdmin()) {
            for (int i = 0; i < instances; i++) {
                running.add(Instance.start(cluster, topics, yaml, etlJar, logs, running.size()));
            }
            long started = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (cluster.committedTotal(topics.group()) == 0) {
                if (System.nanoTime() > started) {
                    throw new IllegalStateException("the instances committed nothing within 2 minutes; see " + logs);
                }
                Thread.sleep(100); // the pacing of a watcher
            }
            sleepSeconds(warmupSeconds);
            long brokerCpu0 = ProcStat.cpuMillis(brokerPid);
            long cpu0 = cpu(running);
            long commits0 = commits(running);
            long offsets0 = offsetRecords(admin);
            long t0 = System.nanoTime();
            sleepSeconds(seconds);
            double elapsed = (System.nanoTime() - t0) / 1e9;
            double commitsPerSecond = (commits(running) - commits0) / elapsed;
            double offsetRecordsPerSecond = (offsetRecords(admin) - offsets0) / elapsed;
            double brokerCpu = (ProcStat.cpuMillis(brokerPid) - brokerCpu0) / elapsed / 10.0;
            double instancesCpu = (cpu(running) - cpu0) / elapsed / 10.0;
            load = Math.max(load, ProcStat.loadAverage());
            Random random = new Random();
            for (int k = 0; k < kills; k++) {
                Instance victim = running.remove(random.nextInt(running.size()));
                victim.kill();
                running.add(Instance.start(cluster, topics, yaml, etlJar, logs, instances + k));
                Thread.sleep(FAILOVER_MILLIS); // the pacing of the kills: each takes a session timeout to fail over
            }
            producer.join();
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
            Map<TopicPartition, Long> inputEnds = RaceRunner.ends(admin, RaceRunner.latest(List.of(topics.input())));
            while (!RaceRunner.committed(admin, topics.group(), inputEnds)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the instances did not commit the input's end within 5 minutes");
                }
                Thread.sleep(100); // the pacing of a watcher
            }
            for (Instance i : running) {
                i.stop();
            }
            running.clear();
            long[] counted = countOutputs(cluster.bootstrapServers(), topics);
            return new Result(
                    interval,
                    instances,
                    commitsPerSecond,
                    offsetRecordsPerSecond,
                    brokerCpu,
                    instancesCpu,
                    counted[0],
                    counted[0] - counted[1],
                    kills,
                    load);
        } finally {
            stop.set(true);
            producer.join();
            for (Instance i : running) {
                i.kill();
            }
        }
    }

    private static void sleepSeconds(int seconds) throws InterruptedException {
        Thread.sleep(TimeUnit.SECONDS.toMillis(seconds)); // a measured window, not a wait for a condition
    }

    private static long cpu(List<Instance> instances) {
        long sum = 0;
        for (Instance i : instances) {
            sum += ProcStat.cpuMillis(i.process.pid());
        }
        return sum;
    }

    private static long commits(List<Instance> instances) throws IOException, InterruptedException {
        long sum = 0;
        for (Instance i : instances) {
            sum += i.commits();
        }
        return sum;
    }

    /** Records appended to the coordinator's log so far: one per partition of each offset commit. */
    private static long offsetRecords(Admin admin) throws Exception {
        Map<TopicPartition, OffsetSpec> specs = new HashMap<>();
        admin.describeTopics(List.of(OFFSETS_TOPIC))
                .allTopicNames()
                .get()
                .get(OFFSETS_TOPIC)
                .partitions()
                .forEach(p -> specs.put(new TopicPartition(OFFSETS_TOPIC, p.partition()), OffsetSpec.latest()));
        return RaceRunner.total(RaceRunner.ends(admin, specs));
    }

    /** Every output record and the distinct keys among them (each order's key is its id). */
    private static long[] countOutputs(String bootstrap, RaceTopics topics) {
        Map<String, Object> props = new HashMap<>();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        Set<String> keys = new HashSet<>();
        long records = 0;
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : topics.outputs()) {
                for (int p = 0; p < RaceTopics.PARTITIONS; p++) {
                    partitions.add(new TopicPartition(topic, p));
                }
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            long expected = ends.values().stream().mapToLong(Long::longValue).sum();
            while (records < expected) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    records++;
                    keys.add(new String(r.key(), StandardCharsets.UTF_8));
                }
            }
        }
        return new long[] {records, keys.size()};
    }

    /** Sends orders with unique keys at {@code rate} per second until {@code total} or {@code stop}. */
    private static void pace(
            String bootstrap, String topic, int rate, int total, AtomicInteger sent, AtomicBoolean stop) {
        Map<String, Object> props = new HashMap<>();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            long start = System.nanoTime();
            int i = 0;
            while (i < total && !stop.get()) {
                long due = Math.min(total, (System.nanoTime() - start) * rate / 1_000_000_000L);
                while (i < due) {
                    producer.send(new ProducerRecord<>(
                            topic, BenchOrders.id(i).getBytes(StandardCharsets.UTF_8), BenchOrders.jsonBytes(i)));
                    i++;
                }
                sent.set(i);
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // the pacing of the producer
            }
            producer.flush();
        }
    }

    static String table(List<Result> results, int rate, int seconds, int kills) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(
                Locale.ROOT,
                "### Commit traffic: the example at %,d orders/s, measured over %d s, then %d SIGKILLs, %d cores,"
                        + " Java %s, one forked broker%n%n",
                rate,
                seconds,
                kills,
                Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version")));
        sb.append("| checkpoint.interval | instances | commits/s (all instances) | offset records/s at the coordinator"
                + " | broker CPU (% of a core) | instances' CPU (% of a core) | duplicates per SIGKILL"
                + " | duplicates per SIGKILL (ms of input) | load avg |\n");
        sb.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Result r : results) {
            double perKill = (double) r.duplicates() / r.kills();
            sb.append(String.format(
                    Locale.ROOT,
                    "| %s | %d | %.1f | %.1f | %.1f | %.1f | %.0f | %.0f | %.1f |%n",
                    r.interval(),
                    r.instances(),
                    r.commitsPerSecond(),
                    r.offsetRecordsPerSecond(),
                    r.brokerCpuPercent(),
                    r.instancesCpuPercent(),
                    perKill,
                    perKill * 1000.0 / rate,
                    r.load()));
        }
        return sb.toString();
    }

    /** One forked copy of the example, with an HTTP port of its own for its meters. */
    private static final class Instance {
        private static final HttpClient HTTP = HttpClient.newHttpClient();
        private final Process process;
        private final int port;

        private Instance(Process process, int port) {
            this.process = process;
            this.port = port;
        }

        static Instance start(KafkaTestCluster cluster, RaceTopics topics, Path yaml, Path etlJar, Path logs, int n)
                throws IOException {
            int port;
            try (ServerSocket s = new ServerSocket(0)) {
                port = s.getLocalPort();
            }
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(List.of(
                    "-jar",
                    etlJar.toString(),
                    "kafka_to_kafka_split",
                    "--config",
                    yaml.toString(),
                    "--http-port",
                    Integer.toString(port)));
            Process process = Forks.withLog(
                    command,
                    logs.resolve(topics.prefix() + "-" + n + ".log").toFile(),
                    topics.exampleVariables(cluster.bootstrapServers()));
            return new Instance(process, port);
        }

        /** The commits this copy sent so far (0 before its endpoint answers). */
        long commits() throws IOException, InterruptedException {
            HttpResponse<String> response;
            try {
                response = HTTP.send(
                        HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/metrics"))
                                .timeout(Duration.ofSeconds(5))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
            } catch (IOException e) {
                return 0;
            }
            Matcher m = COMMITS.matcher(response.body());
            long sum = 0;
            while (m.find()) {
                sum += (long) Double.parseDouble(m.group(1));
            }
            return sum;
        }

        void kill() throws InterruptedException {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }

        void stop() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                kill();
            }
        }
    }
}
