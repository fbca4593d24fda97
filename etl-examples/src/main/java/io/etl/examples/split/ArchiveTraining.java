package io.etl.examples.split;

import io.etl.core.config.PipelineConfig;
import io.etl.testkit.KafkaTestCluster;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Records the class archive that ships next to the example's runnable jar ({@code etl-examples.jsa}), so that a
 * service started with {@code java -XX:SharedArchiveFile=etl-examples.jsa -jar etl-examples.jar
 * kafka_to_kafka_split} maps the classes its start needs instead of finding, reading and verifying each one. On
 * JDK 25 and later the file is an AOT cache, which also carries the training run's method profiles, so the JIT
 * compilers of a later start need not gather their own first ({@link ClassArchiveFlags}).
 *
 * <p>The archive is only as good as the run that records it: a start that never reached a broker leaves out the
 * Kafka clients' group, fetch and produce machinery. So this program starts a broker JVM of its own, writes
 * {@value #ORDERS} sample orders, and runs the jar exactly as a user runs the service mode, with
 * the flag that records an archive ({@link ClassArchiveFlags#recordAtExit(Path)}), until the group has committed every order; it
 * reads {@code /metrics} and {@code /health/ready} once, as a monitoring system would, then stops the service with
 * SIGTERM, which drains it, and the JVM writes the archive as it exits. The build runs it after packaging the jar:
 *
 * <pre>{@code
 * java -cp etl-examples.jar io.etl.examples.split.ArchiveTraining etl-examples.jar etl-examples.jsa
 * }</pre>
 *
 * <p>The service's output goes to {@code etl-examples.jsa.log}. Exit code 0 when the archive was written, 1 when
 * not (the reason on stderr).
 */
public final class ArchiveTraining {

    /**
     * Orders the training service processes: enough for the record path to reach the JIT's top tier, so that the
     * method profiles an AOT cache keeps are those of a service at full speed, not of its first second.
     */
    static final int ORDERS = 200_000;

    private static final String GROUP = "etl-archive-training";
    private static final String LOOPBACK = "127.0.0.1";
    private static final Duration DEADLINE = Duration.ofMinutes(3);
    private static final Duration STOP_BUDGET = Duration.ofSeconds(60);

    private ArchiveTraining() {}

    /** Arguments: the runnable jar, the archive to write. */
    public static void main(String[] args) {
        if (args.length != 2) {
            System.err.println("usage: ArchiveTraining JAR ARCHIVE");
            System.exit(2);
        }
        try {
            record(Path.of(args[0]), Path.of(args[1]), System.err);
            System.exit(0);
        } catch (IOException | RuntimeException e) {
            System.err.println("error: no class archive recorded: " + e.getMessage());
            System.exit(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            System.err.println("error: interrupted while recording the class archive");
            System.exit(1);
        }
    }

    /** Records {@code archive} from a service run of {@code jar}; throws when no archive was written. */
    static void record(Path jar, Path archive, PrintStream err) throws IOException, InterruptedException {
        Path jarFile = jar.toAbsolutePath();
        Path archiveFile = archive.toAbsolutePath();
        Path log = archiveFile.resolveSibling(archiveFile.getFileName() + ".log");
        Files.deleteIfExists(archiveFile);
        long t0 = System.nanoTime();
        KafkaToKafkaSplitCommand.quietEmbeddedBroker();
        try (KafkaTestCluster cluster = KafkaTestCluster.forkedSingle()) {
            Map<String, String> env = Map.of("KAFKA_BROKERS", cluster.bootstrapServers(), "GROUP_ID", GROUP);
            PipelineConfig config = PipelineConfig.parse(KafkaToKafkaSplit.defaultYaml(), env::get);
            String input = SplitTopics.input(config);
            SplitTopics.ensure(cluster, input, SplitTopics.outputs(config).values());
            SampleOrders.write(cluster, input, ORDERS, new PrintStream(OutputStream.nullOutputStream()));
            int httpPort = freePort();
            ProcessBuilder builder = new ProcessBuilder(command(jarFile, archiveFile, httpPort))
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            builder.environment().putAll(env);
            Process service = builder.start();
            awaitCommitted(cluster, service, log);
            scrape(httpPort, "/metrics");
            scrape(httpPort, "/health/ready");
            service.destroy(); // SIGTERM: the service drains, commits and exits; the JVM then writes the archive
            if (!service.waitFor(STOP_BUDGET.toSeconds(), TimeUnit.SECONDS)) {
                service.destroyForcibly();
                throw new IllegalStateException(
                        "the training service did not stop within " + STOP_BUDGET.toSeconds() + " s; see " + log);
            }
            if (service.exitValue() != 0) {
                throw new IllegalStateException(
                        "the training service exited with " + service.exitValue() + "; see " + log);
            }
        }
        if (!Files.isRegularFile(archiveFile)) {
            throw new IllegalStateException("the training service wrote no " + archiveFile + "; see " + log);
        }
        err.printf(
                Locale.ROOT,
                "%s %s (%d MiB) recorded from a service run of %,d orders in %,d ms%n",
                ClassArchiveFlags.kind(),
                archiveFile,
                Files.size(archiveFile) >> 20,
                ORDERS,
                (System.nanoTime() - t0) / 1_000_000);
    }

    /** The service mode as a user starts it, serving HTTP on {@code httpPort}, plus the flag that records the archive. */
    static List<String> command(Path jar, Path archive, int httpPort) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add(ClassArchiveFlags.recordAtExit(archive));
        command.add("-jar");
        command.add(jar.toString());
        command.add("kafka_to_kafka_split");
        command.add("--http-host");
        command.add(LOOPBACK);
        command.add("--http-port");
        command.add(Integer.toString(httpPort));
        return command;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
            return socket.getLocalPort();
        }
    }

    /** Reads {@code path} from the service's endpoint, as a scrape or a probe does; the answer is not used. */
    private static void scrape(int httpPort, String path) throws IOException {
        URL url = new URL("http", LOOPBACK, httpPort, path);
        try (InputStream in = url.openStream()) {
            in.transferTo(OutputStream.nullOutputStream());
        }
    }

    private static void awaitCommitted(KafkaTestCluster cluster, Process service, Path log)
            throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (cluster.committedTotal(GROUP) < ORDERS) {
            if (!service.isAlive()) {
                throw new IllegalStateException("the training service exited with " + service.exitValue()
                        + " before committing " + ORDERS + " orders; see " + log);
            }
            if (System.nanoTime() - deadline > 0) {
                service.destroyForcibly();
                throw new IllegalStateException("the training service did not commit " + ORDERS + " orders within "
                        + DEADLINE.toSeconds() + " s; see " + log);
            }
            service.waitFor(250, TimeUnit.MILLISECONDS); // returns at once if the service dies
        }
    }
}
