package io.etl.dev;

import io.etl.testkit.BrokerOptions;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.schema.SchemaRegistryServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import sun.misc.Signal;

/**
 * A single-node Kafka broker (KRaft, broker and controller in one JVM) on {@code localhost:9092}, for running a
 * pipeline on a development machine: no Docker, no Kafka installation. It prints its address once it answers and
 * stops cleanly on Ctrl-C (SIGINT) or SIGTERM.
 *
 * <pre>
 * java -jar etl-dev/target/etl-dev.jar                        # localhost:9092, data deleted when it stops
 * java -jar etl-dev/target/etl-dev.jar --port 9093 --data-dir .kafka   # keeps topics and offsets between runs
 * java -jar etl-dev/target/etl-dev.jar --schema-registry      # and a schema registry on localhost:8081
 * mvn -Pdev-broker exec:java                                  # the same, in a project generated from the archetype
 * </pre>
 *
 * <p>For development only: one node, replication factor 1, no security. It is never a dependency of a pipeline's
 * jar.
 */
@Command(
        name = "etl-dev",
        mixinStandardHelpOptions = true,
        versionProvider = DevBroker.Version.class,
        description = {
            "Starts a single-node Kafka broker on localhost for development and runs until Ctrl-C.",
            "A pipeline whose brokers are localhost:9092 (the default of a generated project) runs against it as it is."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:stopped by Ctrl-C (SIGINT) or SIGTERM",
            "1:the broker or the registry could not start (port in use, data directory unusable)",
            "2:usage error"
        })
public final class DevBroker implements Callable<Integer> {

    /** The port a broker listens on unless told otherwise, and the one a generated project's YAML names. */
    public static final int DEFAULT_PORT = 9092;
    /** What the program prints once the broker answers, followed by {@code host:port}. */
    public static final String READY = "Kafka broker ready at ";
    /** The port of the schema registry unless told otherwise, the registry's usual one. */
    public static final int DEFAULT_REGISTRY_PORT = 8081;
    /** What the program prints once the registry listens, followed by its URL. */
    public static final String REGISTRY_READY = "Schema registry ready at ";

    @Option(
            names = "--port",
            paramLabel = "PORT",
            defaultValue = "" + DEFAULT_PORT,
            description = "Port of the client listener on 127.0.0.1. Default: ${DEFAULT-VALUE}.")
    private int port;

    @Option(
            names = "--data-dir",
            paramLabel = "DIR",
            description = "Keep the broker's data (topics, records, committed offsets) in DIR between runs."
                    + " Default: a temporary directory, deleted when the broker stops.")
    private String dataDir;

    @Option(
            names = "--broker-property",
            paramLabel = "KEY=VALUE",
            description = "An extra server.properties entry, e.g. num.partitions=3 (repeatable).")
    private Map<String, String> brokerProperties = new LinkedHashMap<>();

    @Option(
            names = "--schema-registry",
            paramLabel = "PORT",
            arity = "0..1",
            fallbackValue = "" + DEFAULT_REGISTRY_PORT,
            description = "Also run a schema registry (the Confluent REST API, in memory) on 127.0.0.1:PORT."
                    + " Without PORT: " + DEFAULT_REGISTRY_PORT + "; an empty PORT runs none.")
    private String registry;

    @Option(
            names = "--startup-timeout",
            paramLabel = "SECONDS",
            defaultValue = "60",
            description = "How long to wait for the broker to answer. Default: ${DEFAULT-VALUE}.")
    private int startupSeconds;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    /** Runs the program and exits the JVM with its exit code. */
    public static void main(String[] args) {
        // the broker's own start-up chatter stays out of the way; -Detl.test.kafka.log=INFO brings it back
        defaultProperty("etl.test.kafka.log", "ERROR");
        defaultProperty("org.slf4j.simpleLogger.log.io.etl.testkit", "warn");
        int code = new CommandLine(new DevBroker()).execute(args);
        System.out.flush();
        System.err.flush();
        System.exit(code);
    }

    @Override
    public Integer call() {
        if (port < 1 || port > 65_535) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--port must be 1..65535, got " + port);
        }
        Integer registryPort = registryPort();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        CountDownLatch stop = new CountDownLatch(1);
        boolean signals = handleSignals(stop);

        // the registry first: it starts in milliseconds, so a port in use is said before the broker's seconds
        SchemaRegistryServer schemas = null;
        if (registryPort != null) {
            try {
                schemas = SchemaRegistryServer.start(registryPort);
            } catch (RuntimeException e) {
                err.println("error: cannot start the schema registry on port " + registryPort + ": " + oneLine(e));
                err.flush();
                return 1;
            }
        }
        BrokerOptions.Builder options = BrokerOptions.builder()
                .clientPort(port)
                .startupTimeout(Duration.ofSeconds(Math.max(1, startupSeconds)))
                .brokerProperties(brokerProperties);
        boolean keep = dataDir != null && !dataDir.isBlank();
        Path data = keep ? Path.of(dataDir).toAbsolutePath() : temporaryDirectory();
        KafkaTestCluster broker;
        try {
            broker = KafkaTestCluster.embedded(options.dataDirectory(data).build());
        } catch (RuntimeException e) {
            err.println("error: cannot start the broker on port " + port + ": " + oneLine(e));
            err.flush();
            if (schemas != null) {
                schemas.close();
            }
            if (!keep) {
                deleteRecursively(data);
            }
            return 1;
        }
        try {
            String where = keep ? "data kept in " + data : "data in " + data + ", deleted when it stops";
            out.println(READY + "localhost:" + port + " (" + where + ")");
            out.println("Pipelines reach it with `brokers: localhost:" + port + "`"
                    + (port == DEFAULT_PORT
                            ? " (a generated project's default)"
                            : " (KAFKA_BROKERS=localhost:" + port + ")")
                    + ". Ctrl-C stops it.");
            if (schemas != null) {
                out.println(REGISTRY_READY + "http://localhost:" + schemas.port()
                        + " (in memory: schemas are gone when it stops); `schema_registry: {url: http://localhost:"
                        + schemas.port() + "}`");
            }
            out.flush();
            if (!signals) {
                // without a signal handler the JVM's shutdown hooks close the broker (the kit registers one)
                awaitForever();
            }
            stop.await();
            out.println("stopping the broker...");
            out.flush();
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        } finally {
            if (schemas != null) {
                schemas.close();
            }
            broker.close();
            if (!keep) {
                deleteRecursively(data);
            }
            out.println("stopped");
            out.flush();
        }
    }

    /** The port of {@code --schema-registry}, or null for no registry. */
    private Integer registryPort() {
        if (registry == null || registry.isBlank()) {
            return null;
        }
        try {
            int p = Integer.parseInt(registry.strip());
            if (p >= 1 && p <= 65_535 && p != port) {
                return p;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new CommandLine.ParameterException(
                spec.commandLine(),
                "--schema-registry must be a port 1..65535 other than the broker's, got '" + registry + "'");
    }

    private static Path temporaryDirectory() {
        try {
            return Files.createTempDirectory("etl-dev-kafka-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary directory for the broker's data", e);
        }
    }

    private static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            System.err.println("warning: could not delete " + root + ": " + e.getMessage());
        }
    }

    private static void defaultProperty(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }

    /** Turns SIGINT and SIGTERM into a release of {@code stop}; false where signals cannot be handled. */
    private static boolean handleSignals(CountDownLatch stop) {
        try {
            for (String name : new String[] {"INT", "TERM"}) {
                Signal.handle(new Signal(name), signal -> stop.countDown());
            }
            return true;
        } catch (Throwable e) { // IllegalArgumentException, or no sun.misc at all
            return false;
        }
    }

    private static void awaitForever() throws InterruptedException {
        new CountDownLatch(1).await();
    }

    private static String oneLine(Throwable e) {
        StringBuilder text = new StringBuilder(String.valueOf(e.getMessage()));
        for (Throwable cause = e.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            if (cause.getMessage() != null && !text.toString().contains(cause.getMessage())) {
                text.append(": ").append(cause.getMessage());
            }
        }
        return text.toString().replaceAll("\\s*\\R\\s*", " ");
    }

    /** {@code --version}: {@code etl-dev <version>}, then the Java version. */
    public static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() throws IOException {
            Properties p = new Properties();
            try (InputStream in = DevBroker.class.getResourceAsStream("version.properties")) {
                if (in != null) {
                    p.load(in);
                }
            }
            return new String[] {
                "etl-dev " + p.getProperty("version", "unknown"),
                "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")"
            };
        }
    }
}
