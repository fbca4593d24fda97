package io.etl.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.etl.bench.impl.Contestant;
import io.etl.bench.impl.RaceClientSettings;
import io.etl.bench.impl.RaceTopics;
import io.etl.testkit.KafkaTestCluster;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Races implementations of the {@code kafka_to_kafka_split} workload on the same broker, in a warm JVM: the etl
 * example pipeline, Kafka Streams and the reference, the best single-thread kafka-clients loop (sends with
 * callbacks, commits asynchronously once a poll is acknowledged, never flushes). For every run and contestant it
 * creates fresh topics (6 partitions), pre-produces the input, forks a JVM (the same flags for every contestant:
 * the JVM's defaults unless {@code --jvm-flags} names others) that does a discarded warm-up run and then the timed
 * one, and collects the result. Prints a Markdown table and writes it to {@code etl-bench/target/bench-results.md}.
 *
 * <pre>{@code
 * mvn -q -pl etl-bench -am -DskipTests package && java -jar etl-bench/target/etl-bench.jar --records 200000
 * }</pre>
 *
 * <p>{@code --mode process} forks every contestant as a program of its own ({@link ProcessRace});
 * {@code --mode latency} paces the input ({@link LatencyRace}); {@code --mode soak} runs the example for an hour
 * under faults ({@link SoakRun}); without {@code --mode} (or with
 * {@code --mode in-jvm}) the race below runs.
 *
 * <p>Options: {@code --records N} (200000), {@code --runs R} (2), {@code --warmup-records W} (N: a warm-up as long as the
 * timed run, so that the JIT compilers have settled before the clock starts),
 * {@code --only etl,streams,clients}, {@code --jvm-flags "FLAGS"} (one flag set for every forked JVM, e.g.
 * {@code "-XX:+UseSerialGC -Xmx512m"}; {@code {impl}} in a flag becomes the contestant's name),
 * {@code --etl-as-shipped} (etl on the example's YAML as shipped instead of the race's client settings,
 * {@link RaceClientSettings}), {@code --out FILE}. {@code KAFKA_BROKERS} selects an external plaintext broker
 * instead of the embedded one.
 */
public final class SplitRace {

    private static final String USAGE = "SplitRace [--records N] [--runs R] [--warmup-records W]"
            + " [--only etl,streams,clients] [--jvm-flags FLAGS] [--etl-as-shipped] [--out FILE]";

    private SplitRace() {}

    /** Entry point; see the class documentation for the options. */
    public static void main(String[] args) throws Exception {
        if (Arrays.asList(args).contains("--help") || Arrays.asList(args).contains("-h")) {
            System.out.println("usage: java -jar etl-bench.jar [--mode in-jvm|process|latency|soak] [OPTIONS]");
            System.out.println("  in-jvm (default): " + USAGE);
            System.out.println("  process:          " + ProcessRace.USAGE);
            System.out.println("  latency:          " + LatencyRace.USAGE);
            System.out.println("  soak:             " + SoakRun.USAGE);
            System.out.println("docs/benchmarks.md describes each mode, its options and its tables.");
            return;
        }
        boolean modeGiven = args.length >= 2 && args[0].equals("--mode");
        String[] rest = modeGiven ? Arrays.copyOfRange(args, 2, args.length) : args;
        switch (modeGiven ? args[1] : "in-jvm") {
            case "in-jvm" -> inJvm(rest);
            case "process" -> ProcessRace.main(rest);
            case "latency" -> LatencyRace.main(rest);
            case "soak" -> SoakRun.main(rest);
            default ->
                throw new IllegalArgumentException(
                        "unknown mode " + args[1] + "; expected in-jvm, process, latency or soak");
        }
    }

    private static void inJvm(String[] args) throws Exception {
        RaceOptions options = RaceOptions.parse(args, USAGE);
        int records = options.number("--records", 200_000);
        int runs = options.number("--runs", 2);
        int warmup = options.number("--warmup-records", -1);
        List<Contestant> contestants = options.list("--only", Contestant::parse, List.of(Contestant.values()));
        JvmFlags jvmFlags = JvmFlags.of(options);
        boolean asShipped = options.isSet("--etl-as-shipped");
        Path out = options.path(
                "--out",
                Files.isDirectory(Path.of("etl-bench"))
                        ? Path.of("etl-bench/target/bench-results.md")
                        : Path.of("target/bench-results.md"));
        if (warmup < 0) {
            warmup = records;
        }

        List<RunResult> results = new ArrayList<>();
        String runId = Long.toString(System.currentTimeMillis(), 36);
        String brokerKind;
        try (KafkaTestCluster cluster = KafkaTestCluster.fromEnvironment()) {
            brokerKind = cluster.kind().name().toLowerCase(Locale.ROOT) + " " + cluster.bootstrapServers();
            for (int run = 1; run <= runs; run++) {
                for (Contestant contestant : RoundOrder.of(contestants, run)) {
                    String prefix = "race-" + runId + "-" + contestant.name().toLowerCase(Locale.ROOT) + "-r" + run;
                    System.err.printf(
                            "run %d/%d %s: preparing %,d + %,d warm-up orders%n",
                            run, runs, contestant.label(), records, warmup);
                    RaceTopics warm = RaceTopicsSetup.prepare(cluster, prefix + "-warm", warmup);
                    RaceTopics timed = RaceTopicsSetup.prepare(cluster, prefix, records);
                    try {
                        RunResult result = fork(
                                contestant,
                                cluster.bootstrapServers(),
                                warm,
                                warmup,
                                timed,
                                records,
                                jvmFlags,
                                asShipped);
                        System.err.printf(
                                "run %d/%d %s: %,.0f records/s, %.2f s, %.1f µs CPU/record, peak heap %d MiB, load %.1f%n",
                                run,
                                runs,
                                contestant.label(),
                                result.recordsPerSecond(),
                                result.elapsedMillis() / 1000.0,
                                result.cpuMicrosPerRecord(),
                                result.peakHeapBytes() >> 20,
                                result.maxLoadAverage());
                        results.add(new RunResult(
                                result.implementation() + " #" + run,
                                result.records(),
                                result.outputs(),
                                result.elapsedMillis(),
                                result.firstOutputMillis(),
                                result.peakHeapBytes(),
                                result.maxLoadAverage(),
                                result.cpuMillis(),
                                result.perTopic()));
                    } finally {
                        RaceTopicsSetup.delete(cluster, warm);
                        RaceTopicsSetup.delete(cluster, timed);
                    }
                }
            }
        }
        String table = ResultsTable.markdown(results, records, warmup, brokerKind, jvmFlags)
                + (asShipped
                        ? ""
                        : String.format(
                                "%netl ran the shipped YAML with %s; `--etl-as-shipped` races it as shipped.%n",
                                RaceClientSettings.yamlChange()));
        System.out.println(table);
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, table, StandardCharsets.UTF_8);
        System.err.println("written to " + out.toAbsolutePath());
    }

    private static RunResult fork(
            Contestant contestant,
            String bootstrap,
            RaceTopics warm,
            int warmup,
            RaceTopics timed,
            int records,
            JvmFlags jvmFlags,
            boolean asShipped)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(ProcessRace.COMMON_FLAGS);
        command.addAll(jvmFlags.forContestant(contestant.name()));
        command.add("-D" + RaceClientSettings.AS_SHIPPED_PROPERTY + "=" + asShipped);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(RaceWorker.class.getName());
        command.addAll(List.of(
                contestant.name(),
                bootstrap,
                warm.prefix(),
                Integer.toString(warmup),
                timed.prefix(),
                Integer.toString(records)));
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        RunResult result = null;
        try (BufferedReader reader =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.startsWith(RaceWorker.RESULT_PREFIX)) {
                    result = new ObjectMapper()
                            .readValue(line.substring(RaceWorker.RESULT_PREFIX.length()), RunResult.class);
                } else {
                    System.err.println("  [" + contestant.label() + "] " + line);
                }
            }
        }
        int exit = process.waitFor();
        if (exit != 0 || result == null) {
            throw new IllegalStateException(contestant.label() + " worker exited with " + exit + " and no result");
        }
        return result;
    }
}
