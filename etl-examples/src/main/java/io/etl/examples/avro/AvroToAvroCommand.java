package io.etl.examples.avro;

import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.error.ConfigException;
import io.etl.core.record.RecordMeta;
import io.etl.examples.EmbeddedLogging;
import io.etl.examples.EtlExamples;
import io.etl.examples.ExampleCluster;
import io.etl.examples.ExampleConfig;
import io.etl.examples.PipelineReport;
import io.etl.kafka.common.FormatContext;
import io.etl.kafka.common.SchemaRegistryConfig;
import io.etl.runtime.ExitCodes;
import io.etl.runtime.PipelineService;
import io.etl.runtime.StopSignal;
import io.etl.schema.Avro;
import io.etl.schema.SchemaDecoder;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import io.etl.testkit.schema.SchemaRegistryServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.apache.avro.generic.GenericRecord;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code etl-examples avro_to_avro}: runs {@link AvroToAvro}.
 * <ul>
 *   <li>Without {@code KAFKA_BROKERS}: starts an embedded Kafka broker and an in-memory schema registry,
 *       registers both payment versions and the ledger entry's schema, writes {@code --records} sample payments
 *       ({@link SamplePayments}), runs until the group has committed all of them, prints a few entries and the
 *       summary, exits 0.</li>
 *   <li>With {@code KAFKA_BROKERS} (and {@code SCHEMA_REGISTRY_URL}): runs as the runtime's {@code run} does,
 *       until SIGTERM or Ctrl-C; with {@code --records} it first creates the topics the cluster lacks, registers
 *       the schemas and writes sample payments there.</li>
 * </ul>
 */
@Command(
        name = AvroToAvro.NAME,
        mixinStandardHelpOptions = true,
        versionProvider = EtlExamples.Version.class,
        description = {
            "Turns Avro payments into Avro ledger entries through a schema registry.",
            "Payments written with either schema version are read as version 2, refunds are",
            "dropped, and a record that is not Avro goes to the dead-letter topic.",
            "",
            "Without KAFKA_BROKERS: starts an embedded Kafka broker and schema registry, writes sample",
            "payments, runs until every one is accounted for, prints a summary and exits.",
            "With KAFKA_BROKERS: joins consumer group $${GROUP_ID:-avro_to_avro} and runs until",
            "SIGTERM or Ctrl-C, as `etl run` does."
        },
        footer = {
            "",
            "Environment: KAFKA_BROKERS, SCHEMA_REGISTRY_URL, PAYMENTS_TOPIC, LEDGER_TOPIC,",
            "DEAD_LETTER_TOPIC, GROUP_ID, AUTO_REGISTER (see the shipped avro_to_avro.yaml).",
            "",
            "The last line printed is for scripts:",
            "  summary: input=N ledger=L refunds=R dead_letters=D elapsed_ms=T"
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every payment accounted for (embedded) / drained after SIGTERM (KAFKA_BROKERS)",
            "1:failed pipeline, or missing entries",
            "2:usage error or invalid configuration; nothing was started",
            "130:stopped by a signal before the embedded run finished"
        })
public final class AvroToAvroCommand implements Callable<Integer> {

    /** Sample payments written by the embedded run when {@code --records} is not given. */
    public static final int DEFAULT_RECORDS = 10_000;
    /** The embedded run gives up when the group's commits do not move for this long. */
    static final Duration STALL_LIMIT = Duration.ofSeconds(60);

    @Option(
            names = "--config",
            paramLabel = "FILE",
            description = "Pipeline YAML replacing the shipped avro_to_avro.yaml.")
    private Path config;

    @Option(
            names = "--records",
            paramLabel = "N",
            description = {
                "Sample payments to write: the embedded run's, " + DEFAULT_RECORDS + " by default. With",
                "KAFKA_BROKERS, written before the pipeline starts, after creating the topics the cluster",
                "lacks and registering the schemas the samples and the ledger use."
            })
    private Integer records;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    private final Function<String, String> env;

    /** The command as the program runs it, reading the process environment. */
    public AvroToAvroCommand() {
        this(System::getenv);
    }

    /** The command with another environment (for tests). */
    AvroToAvroCommand(Function<String, String> env) {
        this.env = env;
    }

    @Override
    public Integer call() {
        if (records != null && records < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--records must be 1 or more");
        }
        PrintStream out = System.out;
        PrintStream err = System.err;
        String yaml;
        try {
            yaml = config == null ? AvroToAvro.defaultYaml() : Files.readString(config, StandardCharsets.UTF_8);
        } catch (IOException e) {
            err.println("error: cannot read " + config + ": " + e.getMessage());
            return ExitCodes.USAGE;
        }
        String brokers = env.apply("KAFKA_BROKERS");
        boolean embedded = brokers == null || brokers.isBlank();
        // check the file before starting anything: addresses stand in for those the embedded run does not know yet
        PipelineConfig checked = ExampleConfig.parse(
                yaml,
                embedded ? local(env, "127.0.0.1:9092", "http://127.0.0.1:8081") : env,
                AvroToAvro::pipeline,
                err);
        if (checked == null) {
            return ExitCodes.USAGE;
        }
        if (!embedded) {
            if (records != null) {
                SamplePayments.writeTo(checked, records, err);
            }
            PipelineService service = PipelineService.of(new AvroToAvroFactory(), checked);
            if (config != null) {
                service.configFile(config);
            }
            return service.err(err).run();
        }
        StopSignal stop = StopSignal.install();
        try {
            err.println("KAFKA_BROKERS is not set: starting an embedded Kafka broker and schema registry ...");
            EmbeddedLogging.quiet();
            try (KafkaTestCluster cluster = KafkaTestCluster.embedded();
                    SchemaRegistryServer registry = SchemaRegistryServer.start()) {
                err.printf(
                        "embedded Kafka broker at %s, schema registry at %s%n",
                        cluster.bootstrapServers(), registry.url());
                PipelineConfig parsed =
                        PipelineConfig.parse(yaml, local(env, cluster.bootstrapServers(), registry.url()));
                return demo(cluster, registry, parsed, records == null ? DEFAULT_RECORDS : records, stop, out, err);
            }
        } catch (ConfigException e) {
            ExampleConfig.printProblems(e, err);
            return ExitCodes.USAGE;
        } finally {
            stop.finished();
        }
    }

    private static int demo(
            KafkaTestCluster cluster,
            SchemaRegistryServer registry,
            PipelineConfig config,
            int count,
            StopSignal stop,
            PrintStream out,
            PrintStream err) {
        AvroTopics topics = AvroTopics.of(config);
        String payments = topics.payments();
        String ledger = topics.ledger();
        String deadLetters = topics.deadLetters();
        ExampleCluster.createMissingTopics(cluster, topics.partitions());
        // a managed registry: the schemas are registered before anything is written
        registry.register(payments + "-value", "AVRO", SamplePayments.PAYMENT_V1.toString());
        registry.register(payments + "-value", "AVRO", AvroToAvro.PAYMENT.toString());
        registry.register(ledger + "-value", "AVRO", AvroToAvro.LEDGER_ENTRY.toString());
        SamplePayments.write(
                cluster,
                payments,
                SchemaRegistryConfig.custom().url(registry.url()).build(),
                count);
        err.printf(Locale.ROOT, "wrote %,d payments to %s (schema versions 1 and 2)%n", count, payments);

        long started = System.nanoTime();
        PipelineResult result;
        boolean interrupted = false;
        try (RunningPipeline running = AvroToAvro.pipeline(config).start(config, new SimpleMeterRegistry())) {
            long lastCommitted = -1;
            long lastMove = System.nanoTime();
            while (true) {
                if (stop.isRequested()) {
                    interrupted = true;
                    break;
                }
                try {
                    running.result().get(100, TimeUnit.MILLISECONDS);
                    break; // ended by itself: a failure, reported below
                } catch (TimeoutException stillRunning) {
                    // check the commits below
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    interrupted = true;
                    break;
                } catch (ExecutionException e) {
                    throw new IllegalStateException(e.getCause());
                }
                long committed = running.committedOffsets().values().stream()
                        .mapToLong(Long::longValue)
                        .sum();
                if (committed >= count) {
                    break;
                }
                if (committed != lastCommitted) {
                    lastCommitted = committed;
                    lastMove = System.nanoTime();
                } else if (System.nanoTime() - lastMove > STALL_LIMIT.toNanos()) {
                    err.printf(
                            "error: no progress for %s with payments still unaccounted for; stopping%n", STALL_LIMIT);
                    break;
                }
            }
            result = running.result().isDone()
                    ? running.result().join()
                    : running.stopAndWait(config.pipeline().shutdownTimeout());
        }
        long elapsedMs = (System.nanoTime() - started) / 1_000_000;
        PipelineReport.print(result, err);

        SamplePayments.Expected expected = SamplePayments.expected(count);
        long entries = cluster.endTotal(ledger);
        long letters = cluster.endTotal(deadLetters);
        printSomeEntries(cluster, registry, ledger, out);
        out.printf(
                Locale.ROOT,
                "%n%-24s %,10d%n%-24s %,10d%n%-24s %,10d%n%-24s %,10d%n",
                payments,
                count,
                ledger,
                entries,
                "refunds (filtered out)",
                expected.refunds(),
                deadLetters,
                letters);
        out.printf(
                Locale.ROOT,
                "summary: input=%d ledger=%d refunds=%d dead_letters=%d elapsed_ms=%d%n",
                count,
                entries,
                expected.refunds(),
                letters,
                elapsedMs);
        if (interrupted) {
            err.println("interrupted before every payment was accounted for");
            return ExitCodes.SECOND_SIGNAL;
        }
        if (!result.succeeded() || entries < expected.ledger() || letters < expected.deadLetters()) {
            err.printf(
                    Locale.ROOT,
                    "error: expected %,d entries and %,d dead letters%n",
                    expected.ledger(),
                    expected.deadLetters());
            return 1;
        }
        return 0;
    }

    /** The first entries of the ledger, decoded as a consumer of it would. */
    private static void printSomeEntries(
            KafkaTestCluster cluster, SchemaRegistryServer registry, String ledger, PrintStream out) {
        SchemaDecoder<GenericRecord> reader = Avro.decoder();
        reader.open(new FormatContext(
                "ledger reader",
                "ledger",
                List.of(ledger),
                SchemaRegistryConfig.custom().url(registry.url()).build(),
                new SimpleMeterRegistry(),
                null));
        out.println("a few ledger entries:");
        List<TestRecord> some = cluster.readAll(ledger).stream().limit(3).toList();
        for (TestRecord r : some) {
            try {
                out.println("  " + reader.decode(r.value(), RecordMeta.of(ledger, 0, 0)));
            } catch (Exception e) {
                out.println("  (cannot decode: " + e.getMessage() + ")");
            }
        }
    }

    /** {@code env} with the broker and registry addresses of the embedded run. */
    private static Function<String, String> local(Function<String, String> env, String brokers, String registry) {
        return name -> switch (name) {
            case "KAFKA_BROKERS" -> brokers;
            case "SCHEMA_REGISTRY_URL" -> registry;
            default -> env.apply(name);
        };
    }
}
