package io.etl.bench.avro;

import io.etl.bench.Forks;
import io.etl.bench.ProcStat;
import io.etl.bench.ProcessCpu;
import io.etl.bench.impl.RaceTopics;
import io.etl.bench.orders.BenchOrders;
import io.etl.core.record.RecordMeta;
import io.etl.kafka.common.FormatContext;
import io.etl.kafka.common.SchemaRegistryConfig;
import io.etl.schema.Avro;
import io.etl.schema.SchemaEncoder;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import io.etl.testkit.schema.SchemaRegistryServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.avro.generic.GenericRecord;

/**
 * The Avro race: the split workload with the orders as Avro in the schema registry's wire format. etl (the
 * split example's pipeline and YAML with Avro decoder and encoders) against the kafka-clients loop doing the
 * same Avro decoding and encoding by hand, each a JVM of its own with identical flags, clocked from the fork
 * until every output is written and the input's end offsets are committed. Reports CPU per record (from
 * {@code /proc}), the part of it the JIT compiler threads used, the highest load average seen during the run and
 * the registry requests each made (one per distinct schema it used is the floor).
 *
 * <pre>{@code
 * java -cp etl-bench/target/etl-bench.jar io.etl.bench.avro.AvroRace --records 200000 --runs 3
 * }</pre>
 *
 * <p>Options: {@code --records N} (200,000), {@code --runs R} (1), {@code --jvm-flags "FLAGS"} (one flag set for
 * both contestants, as in the other races; none by default, so both run on the JVM's defaults), {@code
 * --warmup-records W} (0): W more orders go first, and a second figure, the warm one, covers only what follows
 * them (the outputs counted once W orders' worth were written, over the time and CPU from then to the end). The
 * broker is {@code KAFKA_BROKERS} when set, else one embedded in this JVM; the registry is a
 * {@link SchemaRegistryServer} in this JVM. Both contestants use the race's client settings
 * ({@link io.etl.bench.impl.RaceClientSettings}); {@code --jvm-flags "-Detl.bench.etl-as-shipped=true"} races etl
 * on the example's YAML as shipped.
 */
public final class AvroRace {

    private AvroRace() {}

    /** One contestant's run. */
    record Result(
            String contestant,
            int run,
            long records,
            double seconds,
            ProcessCpu cpu,
            double load,
            int registryRequests,
            Warm warm) {}

    /**
     * The part of a run after its warm-up.
     *
     * @param records input orders processed in it (its outputs over the outputs per order)
     * @param seconds its length
     * @param cpu     the CPU the contestant used in it
     */
    record Warm(double records, double seconds, ProcessCpu cpu) {

        static final Warm NONE = new Warm(0, 0, new ProcessCpu(0, 0));

        String columns() {
            if (records == 0) {
                return "| - | - | - |";
            }
            return String.format(
                    Locale.ROOT,
                    "| %.0f | %.2f | %.2f |",
                    records / seconds,
                    cpu.microsPerRecord(Math.round(records)),
                    cpu.withoutCompilersMicrosPerRecord(Math.round(records)));
        }
    }

    public static void main(String[] args) throws Exception {
        int records = 200_000;
        int runs = 1;
        int warmup = 0;
        List<String> jvmArgs = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--records" -> records = Integer.parseInt(args[++i]);
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--jvm-flags" -> jvmArgs.addAll(List.of(args[++i].trim().split("\\s+")));
                case "--warmup-records" -> warmup = Integer.parseInt(args[++i]);
                default -> {
                    System.err.println(
                            "usage: AvroRace [--records N] [--runs R] [--jvm-flags FLAGS] [--warmup-records W]");
                    System.exit(2);
                }
            }
        }
        List<Result> results = new ArrayList<>();
        try (KafkaTestCluster kafka = KafkaTestCluster.fromEnvironment();
                SchemaRegistryServer registry = SchemaRegistryServer.start()) {
            for (int run = 1; run <= runs; run++) {
                List<String> order = run % 2 == 1 ? List.of("etl", "clients") : List.of("clients", "etl");
                for (String contestant : order) {
                    Result r = runOne(kafka, registry, contestant, run, warmup, records, jvmArgs);
                    results.add(r);
                    System.out.println(row(r));
                }
            }
        }
        System.out.println();
        System.out.println("| contestant | run | records | seconds | records/s | CPU µs/record | of which JIT compilers"
                + " | CPU µs/record without JIT | load | registry requests | warm records/s | warm CPU µs/record"
                + " | warm without JIT |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        results.forEach(r -> System.out.println(row(r)));
    }

    private static String row(Result r) {
        return String.format(
                Locale.ROOT,
                "| %s | %d | %d | %.2f | %.0f | %.2f | %.2f | %.2f | %.1f | %d %s",
                r.contestant(),
                r.run(),
                r.records(),
                r.seconds(),
                r.records() / r.seconds(),
                r.cpu().microsPerRecord(r.records()),
                r.cpu().compilerMicrosPerRecord(r.records()),
                r.cpu().withoutCompilersMicrosPerRecord(r.records()),
                r.load(),
                r.registryRequests(),
                r.warm().columns());
    }

    static Result runOne(
            KafkaTestCluster kafka,
            SchemaRegistryServer registry,
            String contestant,
            int run,
            int warmup,
            int timed,
            List<String> jvmArgs)
            throws IOException, InterruptedException {
        int records = warmup + timed;
        RaceTopics topics = RaceTopics.of("avro-race-" + run + "-" + contestant + "-"
                + UUID.randomUUID().toString().substring(0, 6));
        for (String topic : topics.all()) {
            kafka.createTopic(topic, RaceTopics.PARTITIONS);
        }
        registry.register(topics.input() + "-value", "AVRO", AvroOrders.ORDER.toString());
        for (String output : topics.outputs()) {
            registry.register(output + "-value", "AVRO", AvroOrders.ROUTED.toString());
        }
        SchemaEncoder<GenericRecord> encoder = Avro.encoder(AvroOrders.ORDER);
        encoder.open(new FormatContext(
                "race producer",
                "sinks.race.kafka",
                List.of(topics.input()),
                SchemaRegistryConfig.custom().url(registry.url()).build(),
                new SimpleMeterRegistry(),
                null));
        RecordMeta none = new RecordMeta(topics.input(), 0, 0L, 0L, null, List.of());
        kafka.produce(
                topics.input(),
                records,
                i -> TestRecord.of(
                        BenchOrders.id(i).getBytes(StandardCharsets.UTF_8),
                        encoder.encode(AvroOrders.order(i), none).value()));
        long expected = BenchOrders.expectedOutputs(records);
        long warmOutputs = warmup == 0 ? 0 : BenchOrders.expectedOutputs(warmup);
        int requestsBefore = registry.requests("/");

        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmArgs);
        command.addAll(List.of(
                "-cp",
                System.getProperty("java.class.path"),
                AvroContestantMain.class.getName(),
                contestant,
                kafka.bootstrapServers(),
                topics.prefix(),
                registry.url()));
        File log = File.createTempFile("avro-race-" + contestant, ".log");
        double load = ProcStat.loadAverage();
        long start = System.nanoTime();
        Process process = Forks.withLog(command, log, Map.of());
        long warmStart = 0;
        long warmFrom = 0;
        ProcessCpu warmCpu = null;
        Map<String, Long> warmThreads = null;
        try {
            while (true) {
                long written = outputs(kafka, topics);
                if (warmCpu == null && warmup > 0 && written >= warmOutputs) {
                    warmCpu = ProcessCpu.of(process.pid());
                    warmThreads = ProcStat.cpuMillisByThreadGroup(process.pid());
                    warmStart = System.nanoTime();
                    warmFrom = written;
                }
                // the end is read as soon as it is there, not one pause later
                if (written >= expected && kafka.committedTotal(topics.group()) >= records) {
                    break;
                }
                if (!process.isAlive()) {
                    throw new IllegalStateException(contestant + " exited early; its log: " + log);
                }
                if (System.nanoTime() - start > TimeUnit.MINUTES.toNanos(10)) {
                    throw new IllegalStateException(contestant + " did not finish in 10 minutes; its log: " + log);
                }
                Thread.sleep(50);
            }
            long end = System.nanoTime();
            ProcessCpu cpu = ProcessCpu.of(process.pid());
            Map<String, Long> threads = ProcStat.cpuMillisByThreadGroup(process.pid());
            if (threads != null) {
                System.err.println("CPU ms by thread of " + contestant + " run " + run
                        + (warmThreads == null ? "" : " after the warm-up") + ": "
                        + (warmThreads == null ? threads : ProcStat.difference(threads, warmThreads)));
            }
            load = Math.max(load, ProcStat.loadAverage());
            Warm warm = warmCpu == null
                    ? Warm.NONE
                    : new Warm(
                            (expected - warmFrom) * (double) records / expected,
                            (end - warmStart) / 1e9,
                            cpu.since(warmCpu));
            return new Result(
                    contestant,
                    run,
                    records,
                    (end - start) / 1e9,
                    cpu,
                    load,
                    registry.requests("/") - requestsBefore,
                    warm);
        } finally {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    private static long outputs(KafkaTestCluster kafka, RaceTopics topics) {
        long n = 0;
        for (String output : topics.outputs()) {
            n += kafka.endTotal(output);
        }
        return n;
    }
}
