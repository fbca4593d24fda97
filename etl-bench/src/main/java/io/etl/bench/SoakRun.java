package io.etl.bench;

import io.etl.bench.impl.RaceTopics;
import io.etl.bench.orders.BenchOrders;
import io.etl.examples.split.KafkaToKafkaSplit;
import io.etl.testkit.BrokerOptions;
import io.etl.testkit.ForkedKafkaCluster;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import java.io.IOException;
import java.io.PrintWriter;
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
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * A soak of the shipped example: it runs for {@code --seconds} at a fixed input rate (by default half of what it
 * moves at full speed on this machine, measured first), is killed with SIGKILL every {@code --kill-every} seconds and
 * started again at once as a supervisor would, and its sink's broker goes down once for {@code --outage-seconds}.
 * Source and sink are forked brokers of their own (Kafka's start-script flags), so the outage touches the sink only.
 * Every {@code --sample-every} seconds it records the etl process's heap (its {@code /metrics}), resident set,
 * threads and open file descriptors, the group's lag and the latency percentiles of the outputs appended since the
 * sample before; at the end it drains, stops etl with SIGTERM and audits every output against every order sent.
 *
 * <pre>{@code
 * java -jar etl-bench/target/etl-bench.jar --mode soak                       # one hour
 * java -jar etl-bench/target/etl-bench.jar --mode soak --seconds 180 --kill-every 45 --outage-at 100 \
 *     --outage-seconds 15 --sample-every 5 --calibration-records 300000     # the harness in three minutes
 * }</pre>
 *
 * <p>Writes {@code soak.csv} (every sample), {@code soak.png} (the plot), {@code soak.md} (the audit and a table of
 * twelve stretches) and the logs to {@code --out} ({@code etl-bench/target/soak}); exits 1 when an order is missing.
 */
public final class SoakRun {

    static final String USAGE = "--mode soak [--seconds S] [--rate R] [--kill-every S] [--outage-at S]"
            + " [--outage-seconds S] [--sample-every S] [--calibration-records N] [--retention-seconds S]"
            + " [--jvm-flags FLAGS] [--etl-jar FILE] [--out DIR]";

    /**
     * How etl's JVM is sized: as the container image and the Kubernetes recipe size it (a 768 MiB limit, the heap at
     * most 75 % of it), exiting on an OutOfMemoryError so that the supervisor restarts it.
     */
    static final List<String> DEPLOYED_HEAP_FLAGS = List.of("-Xmx576m", "-XX:+ExitOnOutOfMemoryError");

    private static final int SLICES = 12;

    private SoakRun() {}

    /** What the command line asks for. */
    record Options(
            int seconds,
            int rate,
            int killEvery,
            int outageAt,
            int outageSeconds,
            int sampleEvery,
            int calibrationRecords,
            int retentionSeconds,
            JvmFlags jvmFlags,
            Path etlJar,
            Path out) {

        static Options parse(String[] args) {
            RaceOptions o = RaceOptions.parse(args, USAGE);
            Options options = new Options(
                    o.number("--seconds", 3_600),
                    o.number("--rate", 0),
                    o.number("--kill-every", 600),
                    o.number("--outage-at", 1_500),
                    o.number("--outage-seconds", 60),
                    o.number("--sample-every", 10),
                    o.number("--calibration-records", 1_000_000),
                    o.number("--retention-seconds", 600),
                    JvmFlags.of(o),
                    o.path("--etl-jar", Path.of(ForkedRaceOptions.DEFAULT_ETL_JAR)),
                    o.path("--out", Path.of("etl-bench/target/soak")));
            if (options.seconds < 10 || options.sampleEvery < 1 || options.killEvery < 1) {
                throw new IllegalArgumentException(
                        "--seconds must be at least 10, --sample-every and --kill-every at least 1; usage: " + USAGE);
            }
            if (options.outageSeconds > 0 && options.outageAt + options.outageSeconds >= options.seconds) {
                throw new IllegalArgumentException("the outage (--outage-at " + options.outageAt + ", --outage-seconds "
                        + options.outageSeconds + ") must end before --seconds " + options.seconds);
            }
            return options;
        }
    }

    /** Entry point; see the class documentation. */
    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args);
        if (!Files.isRegularFile(options.etlJar())) {
            throw new IllegalArgumentException(
                    options.etlJar() + " not found: build it with mvn -pl etl-examples -am -DskipTests package");
        }
        Path out = options.out().toAbsolutePath();
        Files.createDirectories(out);
        String id = Long.toString(System.currentTimeMillis(), 36);
        BrokerOptions brokers = BrokerOptions.builder()
                .jvmOptions(ForkedRaceOptions.BROKER_JVM_FLAGS)
                .brokerProperty("log.retention.check.interval.ms", "30000")
                // a restart in the middle of an hour on a busy machine may take longer than a test's start
                .startupTimeout(Duration.ofMinutes(3))
                .build();
        boolean passed;
        try (ForkedKafkaCluster source = KafkaTestCluster.forkedSingle(brokers);
                ForkedKafkaCluster sink = KafkaTestCluster.forkedSingle(brokers)) {
            Path yaml = out.resolve("soak.yaml");
            Files.writeString(yaml, sinksOn(KafkaToKafkaSplit.defaultYaml(), "SINK_BROKERS"), StandardCharsets.UTF_8);
            List<String> command = etlCommand(options, yaml);
            int rate = options.rate();
            String rateNote = "as asked";
            if (rate <= 0) {
                int full = calibrate(source, sink, command, options, out, id);
                rate = Math.max(1, full / 2);
                rateNote = String.format(Locale.ROOT, "half of the %,d orders/s it moved at full speed", full);
            }
            System.err.printf("soak: %d s at %,d orders/s (%s)%n", options.seconds(), rate, rateNote);
            passed = soak(source, sink, command, options, out, id, rate, rateNote);
        }
        if (!passed) {
            System.exit(1);
        }
    }

    /** The shipped YAML with every sink's brokers read from {@code variable} instead of {@code KAFKA_BROKERS}. */
    static String sinksOn(String yaml, String variable) {
        int sinks = yaml.indexOf("\nsinks:");
        int after = yaml.indexOf("\ncheckpoint:", sinks);
        if (sinks < 0 || after < 0) {
            throw new IllegalStateException("the shipped YAML has no sinks section followed by checkpoint");
        }
        String section = yaml.substring(sinks, after);
        String moved = section.replace("${KAFKA_BROKERS:-localhost:9092}", "${" + variable + "}");
        if (moved.equals(section)) {
            throw new IllegalStateException("the shipped YAML's sinks do not read KAFKA_BROKERS");
        }
        return yaml.substring(0, sinks) + moved + yaml.substring(after);
    }

    /**
     * The example's jar as the README starts it, sized as the container recipe sizes it, with {@code --jvm-flags}
     * after that.
     */
    static List<String> etlCommand(Options options, Path yaml) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(DEPLOYED_HEAP_FLAGS);
        command.addAll(ProcessRace.COMMON_FLAGS);
        command.addAll(options.jvmFlags().forContestant("etl"));
        command.addAll(
                List.of("-jar", options.etlJar().toString(), "kafka_to_kafka_split", "--config", yaml.toString()));
        return command;
    }

    /** Where the example reads its brokers, topics and group from. */
    private static Map<String, String> environment(RaceTopics topics, KafkaTestCluster source, KafkaTestCluster sink) {
        Map<String, String> env = new HashMap<>(topics.exampleVariables(source.bootstrapServers()));
        env.put("SINK_BROKERS", sink.bootstrapServers());
        return env;
    }

    private static void createTopics(
            RaceTopics topics,
            KafkaTestCluster source,
            KafkaTestCluster sink,
            Map<String, String> inputConfig,
            Map<String, String> outputConfig) {
        source.createTopic(topics.input(), RaceTopics.PARTITIONS, 1, inputConfig);
        for (String output : topics.outputs()) {
            sink.createTopic(output, RaceTopics.PARTITIONS, 1, outputConfig);
        }
    }

    /**
     * etl's rate at full speed here: {@code --calibration-records} orders written first, then etl started; orders per
     * second from its first output until every output is written and the input committed.
     */
    static int calibrate(
            KafkaTestCluster source, KafkaTestCluster sink, List<String> command, Options options, Path out, String id)
            throws IOException, InterruptedException {
        int records = options.calibrationRecords();
        RaceTopics topics = RaceTopics.of("soak-calibration-" + id);
        createTopics(topics, source, sink, Map.of(), Map.of());
        source.produce(
                topics.input(),
                records,
                i -> TestRecord.of(BenchOrders.id(i).getBytes(StandardCharsets.UTF_8), BenchOrders.jsonBytes(i)));
        long expected = BenchOrders.expectedOutputs(records);
        EtlService etl = new EtlService(command, environment(topics, source, sink), out.resolve("calibration.log"));
        try (Admin sourceAdmin = source.newAdmin();
                Admin sinkAdmin = sink.newAdmin()) {
            Map<TopicPartition, OffsetSpec> outputs = RaceRunner.latest(topics.outputs());
            Map<TopicPartition, Long> inputEnds =
                    RaceRunner.ends(sourceAdmin, RaceRunner.latest(List.of(topics.input())));
            etl.start();
            long first = -1;
            long giveUp = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
            while (true) {
                if (!etl.isAlive() || System.nanoTime() > giveUp) {
                    throw new IllegalStateException("the calibration run did not finish; see " + etl.log());
                }
                long written = RaceRunner.total(RaceRunner.ends(sinkAdmin, outputs));
                if (written > 0 && first < 0) {
                    first = System.nanoTime();
                }
                if (written >= expected && RaceRunner.committed(sourceAdmin, topics.group(), inputEnds)) {
                    break;
                }
                Thread.sleep(RaceRunner.WATCH_INTERVAL_MS); // the pacing of a watcher
            }
            double seconds = (System.nanoTime() - first) / 1e9;
            int rate = (int) Math.round(records / seconds);
            System.err.printf(
                    "calibration: %,d orders in %.1f s after the first output: %,d orders/s%n", records, seconds, rate);
            return rate;
        } finally {
            etl.stop(60);
            deleteTopics(topics, source, sink);
        }
    }

    private static void deleteTopics(RaceTopics topics, KafkaTestCluster source, KafkaTestCluster sink) {
        try (Admin s = source.newAdmin();
                Admin k = sink.newAdmin()) {
            s.deleteTopics(List.of(topics.input())).all().get(30, TimeUnit.SECONDS);
            k.deleteTopics(topics.outputs()).all().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            System.err.println("could not delete the topics of " + topics.prefix() + ": " + e);
        }
    }

    /** The soak itself; returns whether the audit passed and etl drained cleanly. */
    private static boolean soak(
            ForkedKafkaCluster source,
            ForkedKafkaCluster sink,
            List<String> command,
            Options options,
            Path out,
            String id,
            int rate,
            String rateNote)
            throws Exception {
        RaceTopics topics = RaceTopics.of("soak-" + id);
        Map<String, String> retention = Map.of(
                "retention.ms", Long.toString(TimeUnit.SECONDS.toMillis(options.retentionSeconds())),
                "segment.bytes", Integer.toString(64 << 20));
        Map<String, String> outputConfig = new HashMap<>(retention);
        outputConfig.put("message.timestamp.type", "LogAppendTime");
        createTopics(topics, source, sink, retention, outputConfig);
        EtlService etl = new EtlService(command, environment(topics, source, sink), out.resolve("etl.log"));
        List<SoakSample> samples = new ArrayList<>();
        List<String> events = new CopyOnWriteArrayList<>();
        List<Long> kills = new CopyOnWriteArrayList<>();
        long[] outage = {-1, -1};
        ScheduledExecutorService faults = Executors.newScheduledThreadPool(2, r -> {
            Thread t = new Thread(r, "soak-faults");
            t.setDaemon(true);
            return t;
        });
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        OutputAudit.Verdict verdict;
        int exit;
        List<String> failures = new ArrayList<>();
        try (Admin sourceAdmin = source.newAdmin();
                Admin sinkAdmin = sink.newAdmin();
                OutputAudit audit = OutputAudit.start(sink.bootstrapServers(), topics);
                PrintWriter csv = new PrintWriter(Files.newBufferedWriter(out.resolve("soak.csv")))) {
            csv.println(SoakSample.CSV_HEADER);
            etl.start();
            awaitAssigned(sourceAdmin, topics.group(), etl);
            long start = System.nanoTime();
            Clock clock = () -> (System.nanoTime() - start) / 1_000_000_000L;
            PacedInput input = PacedInput.start(source.bootstrapServers(), topics.input(), rate);
            List<ScheduledFuture<Void>> scheduled = new ArrayList<>();
            for (long at = options.killEvery(); at < options.seconds(); at += options.killEvery()) {
                scheduled.add(faults.schedule(
                        () -> {
                            etl.kill9();
                            kills.add(clock.second());
                            events.add("kill");
                            etl.start();
                            return null;
                        },
                        at,
                        TimeUnit.SECONDS));
            }
            if (options.outageSeconds() > 0) {
                scheduled.add(faults.schedule(
                        () -> {
                            sink.kill9(ForkedKafkaCluster.SINGLE_NODE_ID);
                            outage[0] = clock.second();
                            events.add("outage-start");
                            return null;
                        },
                        options.outageAt(),
                        TimeUnit.SECONDS));
                scheduled.add(faults.schedule(
                        () -> {
                            sink.restart(ForkedKafkaCluster.SINGLE_NODE_ID);
                            outage[1] = clock.second();
                            events.add("outage-end");
                            return null;
                        },
                        options.outageAt() + options.outageSeconds(),
                        TimeUnit.SECONDS));
            }
            Sampler sampler = new Sampler(etl, input, audit, sourceAdmin, topics, http, events, clock);
            long next = options.sampleEvery();
            while (clock.second() < options.seconds()) {
                Thread.sleep(Math.max(0, next * 1000 - (System.nanoTime() - start) / 1_000_000)); // sampling pace
                next += options.sampleEvery();
                SoakSample s = sampler.take();
                samples.add(s);
                csv.println(s.csv());
                csv.flush();
                progress(s);
            }
            input.close();
            faults.shutdown();
            if (!faults.awaitTermination(5, TimeUnit.MINUTES)) {
                throw new IllegalStateException("the faults did not finish within 5 minutes");
            }
            for (ScheduledFuture<Void> fault : scheduled) {
                try {
                    fault.get();
                } catch (ExecutionException e) {
                    // a fault that could not be made (a broker that did not come back) fails the soak
                    failures.add("a fault failed: " + e.getCause());
                }
            }
            if (input.failure() != null) {
                failures.add("writing the input failed: " + input.failure());
            }
            events.add("drain");
            Map<TopicPartition, Long> inputEnds =
                    RaceRunner.ends(sourceAdmin, RaceRunner.latest(List.of(topics.input())));
            Map<TopicPartition, OffsetSpec> outputSpecs = RaceRunner.latest(topics.outputs());
            long giveUp = System.nanoTime() + TimeUnit.MINUTES.toNanos(failures.isEmpty() ? 5 : 0);
            while (!(RaceRunner.committed(sourceAdmin, topics.group(), inputEnds)
                    && audit.reached(RaceRunner.ends(sinkAdmin, outputSpecs)))) {
                if (System.nanoTime() > giveUp) {
                    failures.add("not drained within 5 minutes after the input stopped");
                    break;
                }
                Thread.sleep(Math.min(1_000, options.sampleEvery() * 1000L)); // sampling pace
                SoakSample s = sampler.take();
                samples.add(s);
                csv.println(s.csv());
                csv.flush();
                progress(s);
            }
            exit = etl.stop(60);
            verdict = audit.verdict(input.sent());
        } finally {
            faults.shutdownNow();
            if (etl.isAlive()) {
                etl.kill9();
            }
        }
        String title = String.format(
                Locale.ROOT,
                "soak: %,d orders/s (%s), SIGKILL every %d s, sink broker down at %d s for %d s; %d cores, Java %s",
                rate,
                rateNote,
                options.killEvery(),
                options.outageAt(),
                options.outageSeconds(),
                Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"));
        SoakPlot.write(
                samples,
                List.of(
                        String.format(
                                Locale.ROOT,
                                "soak of kafka_to_kafka_split: %,d orders/s, a SIGKILL every %d s, the sink's broker"
                                        + " down at %d s for %d s (time in min:s)",
                                rate,
                                options.killEvery(),
                                options.outageAt(),
                                options.outageSeconds()),
                        String.format(
                                Locale.ROOT,
                                "%s; %d cores, Java %s; audit: %,d missing, %,d duplicates",
                                rateNote,
                                Runtime.getRuntime().availableProcessors(),
                                System.getProperty("java.version"),
                                verdict.missing(),
                                verdict.duplicates())),
                kills,
                outage[0],
                outage[1],
                out.resolve("soak.png"));
        String report = "*" + title + "; etl = `java " + String.join(" ", command.subList(1, command.size()))
                + "`*\n\n" + SoakReport.table(samples, SLICES) + "\n" + SoakReport.drift(samples, SLICES) + ".\n\n"
                + "Audit: " + verdict + "; " + kills.size() + " SIGKILLs; sink broker down from " + outage[0]
                + " s to " + outage[1] + " s; etl exited " + exit + " after SIGTERM.\n"
                + (failures.isEmpty() ? "" : "\nThe soak failed: " + String.join("; ", failures) + ".\n");
        Files.writeString(out.resolve("soak.md"), report, StandardCharsets.UTF_8);
        System.out.println(report);
        System.err.println("written to " + out);
        return verdict.passed() && exit == 0 && failures.isEmpty();
    }

    private static void progress(SoakSample s) {
        System.err.printf(
                Locale.ROOT,
                "soak %5d s: heap %d MiB (old %d), RSS %d MiB, %d threads, %d fds, in %,d/s, out %,d/s, lag %,d,"
                        + " p50 %d ms, p99 %d ms, max %d ms %s%n",
                s.second(),
                s.heapMiB(),
                s.oldGenMiB(),
                s.rssMiB(),
                s.threads(),
                s.fds(),
                s.inRate(),
                s.outRate(),
                s.lag(),
                s.p50(),
                s.p99(),
                s.max(),
                s.events());
    }

    /** Seconds since the paced input started. */
    @FunctionalInterface
    private interface Clock {
        long second();
    }

    /** Waits until the group is stable and owns every input partition (bounded), so the input meets a ready etl. */
    private static void awaitAssigned(Admin admin, String group, EtlService etl) throws InterruptedException {
        long giveUp = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (true) {
            if (!etl.isAlive() || System.nanoTime() > giveUp) {
                throw new IllegalStateException("etl did not join its group within 2 minutes; see " + etl.log());
            }
            try {
                var d = admin.describeConsumerGroups(List.of(group))
                        .describedGroups()
                        .get(group)
                        .get(10, TimeUnit.SECONDS);
                int assigned = d.members().stream()
                        .mapToInt(m -> m.assignment().topicPartitions().size())
                        .sum();
                if (assigned == RaceTopics.PARTITIONS) {
                    return;
                }
            } catch (ExecutionException | TimeoutException e) {
                // not there yet
            }
            Thread.sleep(RaceRunner.WATCH_INTERVAL_MS); // the pacing of a watcher
        }
    }

    /** Takes one sample: the process from /proc and /metrics, the lag from the brokers, the latencies from the audit. */
    private static final class Sampler {
        private final EtlService etl;
        private final PacedInput input;
        private final OutputAudit audit;
        private final Admin sourceAdmin;
        private final RaceTopics topics;
        private final HttpClient http;
        private final List<String> events;
        private final Clock clock;
        private long lastNanos = System.nanoTime();
        private long lastSent;
        private long lastRead;
        private int eventsTaken;

        Sampler(
                EtlService etl,
                PacedInput input,
                OutputAudit audit,
                Admin sourceAdmin,
                RaceTopics topics,
                HttpClient http,
                List<String> events,
                Clock clock) {
            this.etl = etl;
            this.input = input;
            this.audit = audit;
            this.sourceAdmin = sourceAdmin;
            this.topics = topics;
            this.http = http;
            this.events = events;
            this.clock = clock;
        }

        SoakSample take() throws InterruptedException {
            long now = System.nanoTime();
            double dt = Math.max(1e-3, (now - lastNanos) / 1e9);
            lastNanos = now;
            long sent = input.sent();
            long read = audit.read();
            long inRate = Math.round((sent - lastSent) / dt);
            long outRate = Math.round((read - lastRead) / dt);
            lastSent = sent;
            lastRead = read;
            long pid = etl.pid();
            SoakSample.Heap heap = heap(etl.httpPort());
            long[] latencies = audit.takeLatencies();
            List<String> happened = events.subList(eventsTaken, events.size());
            String what = String.join(" ", happened);
            eventsTaken += happened.size();
            return new SoakSample(
                    clock.second(),
                    pid,
                    heap.usedMiB(),
                    heap.oldGenMiB(),
                    ProcStat.rssMiB(pid),
                    ProcStat.threads(pid),
                    ProcStat.openFileDescriptors(pid),
                    inRate,
                    outRate,
                    lag(),
                    percentile(latencies, 50),
                    percentile(latencies, 99),
                    percentile(latencies, 99.9),
                    latencies.length == 0 ? -1 : latencies[latencies.length - 1],
                    what);
        }

        private SoakSample.Heap heap(int port) throws InterruptedException {
            try {
                HttpResponse<String> response = http.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                                .timeout(Duration.ofSeconds(3))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                return response.statusCode() == 200 ? SoakSample.Heap.of(response.body()) : SoakSample.Heap.UNKNOWN;
            } catch (IOException e) {
                return SoakSample.Heap.UNKNOWN; // a process just started has no endpoint yet
            }
        }

        private long lag() throws InterruptedException {
            try {
                Map<TopicPartition, Long> ends =
                        RaceRunner.ends(sourceAdmin, RaceRunner.latest(List.of(topics.input())));
                Map<TopicPartition, OffsetAndMetadata> committed = sourceAdmin
                        .listConsumerGroupOffsets(topics.group())
                        .partitionsToOffsetAndMetadata()
                        .get(10, TimeUnit.SECONDS);
                long lag = 0;
                for (Map.Entry<TopicPartition, Long> e : ends.entrySet()) {
                    OffsetAndMetadata c = committed.get(e.getKey());
                    lag += e.getValue() - (c == null ? 0 : c.offset());
                }
                return lag;
            } catch (ExecutionException | TimeoutException | RuntimeException e) {
                return -1;
            }
        }

        private static long percentile(long[] sorted, double p) {
            return sorted.length == 0 ? -1 : TailBySecond.percentile(sorted, p);
        }
    }
}
