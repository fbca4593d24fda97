package io.etl.examples.split;

import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.error.ConfigException;
import io.etl.examples.EmbeddedLogging;
import io.etl.examples.EtlExamples;
import io.etl.examples.ExampleConfig;
import io.etl.examples.ProgressLine;
import io.etl.runtime.ExitCodes;
import io.etl.runtime.HttpEndpoint;
import io.etl.runtime.PipelineService;
import io.etl.runtime.StopSignal;
import io.etl.testkit.KafkaTestCluster;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code etl-examples kafka_to_kafka_split}: runs {@link KafkaToKafkaSplit}.
 * <ul>
 *   <li>Without {@code KAFKA_BROKERS}: starts an embedded Kafka broker, writes {@code --records} sample
 *       orders (100,000 by default), runs until every order is accounted for, prints the summary, exits
 *       0.</li>
 *   <li>With {@code KAFKA_BROKERS}: starts no broker, writes sample orders only when {@code --records} is
 *       given, then runs as the runtime's {@code run} does ({@link PipelineService}: SIGTERM or Ctrl-C drains,
 *       {@code /metrics} and {@code /health/*} on {@code --http-port}, the runtime's exit codes), and prints
 *       what this process did.</li>
 * </ul>
 */
@Command(
        name = "kafka_to_kafka_split",
        mixinStandardHelpOptions = true,
        versionProvider = EtlExamples.Version.class,
        description = {
            "Splits JSON orders by region: 'orders' to orders-eu, orders-us, orders-apac.",
            "Drops test orders, adds amount_cents (half-up) and removes notes; an order",
            "of any other region goes to orders-unrouted.",
            "",
            "Without KAFKA_BROKERS: starts an embedded Kafka broker, writes sample orders,",
            "runs until every order is accounted for, prints a summary and exits.",
            "With KAFKA_BROKERS: joins consumer group $${GROUP_ID:-kafka_to_kafka_split}",
            "and runs until SIGTERM or Ctrl-C, then drains and exits, as `etl run` does.",
            "Start more copies to scale out."
        },
        footer = {
            "",
            "Environment: KAFKA_BROKERS, GROUP_ID, ORDERS_TOPIC, ORDERS_EU_TOPIC,",
            "ORDERS_US_TOPIC, ORDERS_APAC_TOPIC, ORDERS_UNROUTED_TOPIC",
            "(see the shipped kafka_to_kafka_split.yaml).",
            "",
            "The last line printed is for scripts:",
            "  summary: input=N dropped=D orders-eu=A orders-us=B orders-apac=C unrouted=U elapsed_ms=T"
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every order accounted for (embedded) / drained after SIGTERM (KAFKA_BROKERS)",
            "1:failed pipeline, or missing orders",
            "2:usage error or invalid configuration; nothing was started",
            "3:KAFKA_BROKERS: the stop outlasted pipeline.shutdown_timeout",
            "4:KAFKA_BROKERS: the start failed, a cluster could not be reached",
            "130:stopped by a signal before the embedded run finished / a second signal while draining"
        })
public final class KafkaToKafkaSplitCommand implements Callable<Integer> {

    /** Sample orders written by the embedded run when {@code --records} is not given. */
    public static final int DEFAULT_RECORDS = 100_000;

    @Option(
            names = "--config",
            paramLabel = "FILE",
            description = "Pipeline YAML replacing the shipped kafka_to_kafka_split.yaml.")
    private Path config;

    @Option(
            names = "--records",
            paramLabel = "N",
            description = "Sample orders to write first. Default: 100000 without KAFKA_BROKERS, none with it.")
    private Integer records;

    @Option(
            names = {"--http-port", "--metrics-port"},
            paramLabel = "PORT",
            description = {
                "Serve /metrics, /health/live and /health/ready on PORT; 0 serves nothing.",
                "Default: none without KAFKA_BROKERS (then on 127.0.0.1 only), " + HttpEndpoint.DEFAULT_PORT
                        + " with it (on --http-host), or a free port when it is taken."
            })
    private Integer metricsPort;

    @Option(
            names = "--http-host",
            paramLabel = "HOST",
            defaultValue = HttpEndpoint.DEFAULT_HOST,
            description = "With KAFKA_BROKERS: the address the HTTP endpoint binds. Default: ${DEFAULT-VALUE}.")
    private String httpHost;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    private final Function<String, String> env;

    /** The command as the program runs it, reading the process environment. */
    public KafkaToKafkaSplitCommand() {
        this(System::getenv);
    }

    /** The command with another environment (for tests). */
    KafkaToKafkaSplitCommand(Function<String, String> env) {
        this.env = env;
    }

    @Override
    public Integer call() {
        if (records != null && records < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--records must be 0 or more");
        }
        if (metricsPort != null && (metricsPort < 0 || metricsPort > 65_535)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--http-port must be 0..65535");
        }
        PrintStream out = System.out;
        PrintStream err = System.err;
        String yaml;
        try {
            yaml = config == null ? KafkaToKafkaSplit.defaultYaml() : Files.readString(config, StandardCharsets.UTF_8);
        } catch (IOException e) {
            err.println("error: cannot read " + config + ": " + e.getMessage());
            return ExitCodes.USAGE;
        }
        String brokers = env.apply("KAFKA_BROKERS");
        boolean embedded = brokers == null || brokers.isBlank();
        // check the file before starting anything: a broker address stands in for the one not known yet
        PipelineConfig checked = ExampleConfig.parse(
                yaml, embedded ? withBrokers(env, "127.0.0.1:9092") : env, KafkaToKafkaSplit::pipeline, err);
        if (checked == null) {
            return ExitCodes.USAGE;
        }
        if (!embedded) {
            return service(checked);
        }
        StopSignal stop = StopSignal.install();
        try {
            SplitRun.Options options = new SplitRun.Options(
                    records == null ? DEFAULT_RECORDS : records,
                    metricsPort == null || metricsPort == 0 ? null : metricsPort,
                    out,
                    err,
                    ProgressLine.isInteractive(),
                    stop);
            err.println("KAFKA_BROKERS is not set: starting an embedded Kafka broker ...");
            EmbeddedLogging.quiet();
            long t0 = System.nanoTime();
            try (KafkaTestCluster cluster = KafkaTestCluster.embedded()) {
                err.printf(
                        "embedded Kafka broker ready at %s in %d ms%n",
                        cluster.bootstrapServers(), (System.nanoTime() - t0) / 1_000_000);
                return SplitRun.toCompletion(cluster, yaml, env, options).exitCode();
            }
        } catch (ConfigException e) {
            ExampleConfig.printProblems(e, err);
            return ExitCodes.USAGE;
        } finally {
            stop.finished();
        }
    }

    /**
     * The service mode, with the configuration already checked against the real environment: optional sample
     * orders, then the runtime's run, then this process's counts.
     */
    private int service(PipelineConfig config) {
        PrintStream err = System.err;
        if (records != null && records > 0) {
            SampleOrders.writeTo(config, records, err);
        }
        long started = System.nanoTime();
        PipelineService service = PipelineService.of(new KafkaToKafkaSplitFactory(), config);
        if (this.config != null) {
            service.configFile(this.config);
        }
        if (metricsPort != null) {
            service.httpPort(metricsPort);
        }
        return service.httpHost(httpHost)
                .err(err)
                .onListening(http -> err.println("metrics and health: http://" + http.address()))
                .onFinished(running -> printServiceSummary(running, config, started))
                .run();
    }

    /**
     * The counts of a service run. Orders read but not processed before the stop are not part of its input:
     * their offsets were not committed, so the next run reads them again. A run that failed before it read
     * anything has nothing to count, and prints no summary: its error says what happened.
     */
    private static void printServiceSummary(RunningPipeline running, PipelineConfig config, long started) {
        MeterRegistry registry = running.meterRegistry();
        PipelineResult result = running.result().getNow(null);
        if (result != null && !result.succeeded() && result.recordsIn() == 0) {
            return;
        }
        long unprocessed = SplitMeters.unprocessed(registry);
        if (unprocessed > 0) {
            System.out.printf(
                    Locale.ROOT,
                    "%n  %,d order(s) read but not processed before the stop: not committed, the next run reads"
                            + " them again%n",
                    unprocessed);
        }
        SplitMeters.serviceSummary(config, registry, (System.nanoTime() - started) / 1_000_000)
                .print(System.out);
    }

    private static Function<String, String> withBrokers(Function<String, String> env, String brokers) {
        return name -> "KAFKA_BROKERS".equals(name) ? brokers : env.apply(name);
    }
}
