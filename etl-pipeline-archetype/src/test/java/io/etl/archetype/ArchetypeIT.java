package io.etl.archetype;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.etl.runtime.Main;
import io.etl.runtime.PipelineFactory;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
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
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a user does with the archetype, end to end: {@code archetype:generate} from a local repository,
 * {@code mvn verify} of the generated project (its own PipelineTestDriver test and integration test included), then
 * {@code java -jar target/<artifactId>.jar run --config pipeline.yaml} against a real broker, until SIGTERM; and the
 * walk-through its README shows, command by command, on the local broker its {@code dev-broker} profile starts.
 *
 * <p>The nested builds never touch the user's local repository: the build installs the archetype and
 * etl's artifacts into {@code target/it-repository} (maven-invoker-plugin), and the nested Maven uses
 * that as its local repository, with the outer build's local repository as its only remote (a
 * {@code file:} mirror), so nothing is downloaded from the network.
 */
@EmbeddedKafka
class ArchetypeIT {

    private static final String ARCHETYPE_PLUGIN = "org.apache.maven.plugins:maven-archetype-plugin:3.4.0";
    private static final String ARTIFACT_ID = "orders-upper";
    private static final String PACKAGE = "com.example.orders";
    private static final Path WORK = Path.of("target", "archetype-it").toAbsolutePath();
    private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(5);
    private static final ObjectMapper JSON = new ObjectMapper();

    static KafkaTestCluster kafka;

    private static Path settings;
    private static Path project;
    private static Path jar;

    private static void writeSettings() throws IOException {
        deleteRecursively(WORK);
        Files.createDirectories(WORK);
        Path repository = Path.of(property("it.repository")).toAbsolutePath();
        Path remote = Path.of(property("it.remote.repository")).toAbsolutePath();
        settings = WORK.resolve("settings.xml");
        Files.writeString(settings, """
                <settings>
                  <localRepository>%s</localRepository>
                  <mirrors>
                    <mirror>
                      <id>outer-build-repository</id>
                      <mirrorOf>*</mirrorOf>
                      <url>%s</url>
                    </mirror>
                  </mirrors>
                </settings>
                """.formatted(repository, remote.toUri()));
    }

    /** Generates the project exactly as the README says (the plugin named in full: no prefix lookup), and builds it. */
    @BeforeAll
    static void generateAndBuild() throws Exception {
        writeSettings();
        run(
                WORK,
                "generate",
                maven(
                        ARCHETYPE_PLUGIN + ":generate",
                        "-DinteractiveMode=false",
                        "-DarchetypeCatalog=local",
                        "-DarchetypeGroupId=io.etl",
                        "-DarchetypeArtifactId=etl-pipeline-archetype",
                        "-DarchetypeVersion=" + property("etl.version"),
                        "-DgroupId=com.example",
                        "-DartifactId=" + ARTIFACT_ID,
                        "-Dversion=1.0.0-SNAPSHOT",
                        "-Dpackage=" + PACKAGE));
        project = WORK.resolve(ARTIFACT_ID);
        assertThat(project.resolve("pipeline.yaml")).exists();
        for (Path doc : List.of(Path.of("..", "README.md"), Path.of("..", "docs", "your-own-pipeline.md"))) {
            assertThat(Files.readString(doc))
                    .as("%s tells users to run the generate goal this test runs", doc)
                    .contains("mvn " + ARCHETYPE_PLUGIN + ":generate -DinteractiveMode=false -DarchetypeCatalog=local");
        }
        assertThat(project.resolve("README.md")).exists();
        assertThat(project.resolve("src/main/java/com/example/orders/AppPipelineFactory.java"))
                .exists();
        assertThat(Files.readString(project.resolve("pipeline.yaml")))
                .contains(
                        "${KAFKA_BROKERS:-localhost:9092}",
                        "${INPUT_TOPIC:-input}",
                        "${OUTPUT_TOPIC:-output}",
                        "${DEAD_LETTER_TOPIC:-input-dlq}")
                .doesNotContain("#set");
        assertThat(Files.readString(project.resolve("src/main/java/com/example/orders/AppPipeline.java")))
                .contains("package " + PACKAGE + ";", "public static final String NAME = \"" + ARTIFACT_ID + "\";")
                .doesNotContain("tag::", "end::");

        // 2. build: compiles, runs the project's PipelineTestDriver test, shades one jar, then runs its
        // integration test against a broker it starts itself
        run(project, "verify", maven("verify"));
        assertThat(Files.readString(project.resolve("target/surefire-reports/" + PACKAGE + ".AppPipelineTest.txt")))
                .contains("Failures: 0, Errors: 0, Skipped: 0");
        assertThat(Files.readString(project.resolve("target/failsafe-reports/" + PACKAGE + ".AppPipelineIT.txt")))
                .contains("Tests run: 1, Failures: 0, Errors: 0, Skipped: 0");
        jar = project.resolve("target/" + ARTIFACT_ID + ".jar");
        try (JarFile file = new JarFile(jar.toFile())) {
            assertThat(file.getManifest().getMainAttributes().getValue("Main-Class"))
                    .isEqualTo(Main.class.getName());
            assertThat(new String(
                            file.getInputStream(file.getEntry("META-INF/services/" + PipelineFactory.class.getName()))
                                    .readAllBytes(),
                            StandardCharsets.UTF_8))
                    .contains(PACKAGE + ".AppPipelineFactory");
        }
    }

    @Test
    void theJarRunsAgainstTheBrokersTheEnvironmentNamesAndStopsCleanlyOnSigterm() throws Exception {
        // 3. the shipped configuration is valid offline
        run(project, "validate", List.of(java(), "-jar", jar.toString(), "validate", "pipeline.yaml"));

        // 4. run against the broker with topics from the environment, as in production
        String input = "archetype-in";
        String output = "archetype-out";
        String group = "archetype-it";
        kafka.createTopic(input, 3);
        kafka.createTopic(output, 3);
        int count = 2_000;
        kafka.produce(
                input, count, i -> TestRecord.of("k" + i, "{\"id\": \"" + i + "\", \"text\": \"order-" + i + "\"}"));
        int port = freePort();
        String deadLetters = "archetype-dlq";
        kafka.createTopic(deadLetters, 1);
        Map<String, String> environment = Map.of(
                "KAFKA_BROKERS",
                kafka.bootstrapServers(),
                "INPUT_TOPIC",
                input,
                "OUTPUT_TOPIC",
                output,
                "DEAD_LETTER_TOPIC",
                deadLetters,
                "GROUP_ID",
                group);

        // 4a. the cluster is ready for it; logging starts quietly (no replay warning of SLF4J's), however
        // often it is asked
        for (int i = 1; i <= 3; i++) {
            String step = "check-" + i;
            run(
                    project,
                    step,
                    List.of(java(), "-jar", jar.toString(), "check", "--config", "pipeline.yaml"),
                    environment);
            assertThat(Files.readString(WORK.resolve(step + ".log")))
                    .contains("sinks.output.kafka.topic: info: topic '" + output + "'")
                    .doesNotContain("SLF4J(W)");
        }

        ProcessBuilder pipeline = new ProcessBuilder(
                        java(),
                        "-jar",
                        jar.toString(),
                        "run",
                        "--config",
                        "pipeline.yaml",
                        "--http-host",
                        "127.0.0.1",
                        "--http-port",
                        Integer.toString(port))
                .directory(project.toFile())
                .redirectErrorStream(true)
                .redirectOutput(WORK.resolve("run.log").toFile());
        pipeline.environment().putAll(environment);
        Process process = pipeline.start();
        try {
            await().atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> kafka.endOffsets(output).values().stream()
                                    .mapToLong(Long::longValue)
                                    .sum()
                            >= count);
            HttpClient http = HttpClient.newHttpClient();
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> get(http, port, "/health/ready").statusCode() == 200);
            assertThat(get(http, port, "/health/live").statusCode()).isEqualTo(200);
            HttpResponse<String> metrics = get(http, port, "/metrics");
            assertThat(metrics.statusCode()).isEqualTo(200);
            assertThat(metrics.body()).contains("etl_source_records_total");

            // 5. SIGTERM: drain, commit, exit 0
            new ProcessBuilder("kill", "-TERM", Long.toString(process.pid()))
                    .inheritIO()
                    .start()
                    .waitFor();
            assertThat(process.waitFor(60, TimeUnit.SECONDS))
                    .as("pipeline exits after SIGTERM")
                    .isTrue();
            assertThat(process.exitValue())
                    .as("exit code after SIGTERM; log: %s", tail(WORK.resolve("run.log")))
                    .isZero();
        } finally {
            process.destroyForcibly();
        }

        List<TestRecord> written = kafka.readAll(output);
        assertThat(written).hasSize(count);
        Map<String, String> byKey = written.stream()
                .collect(Collectors.toMap(
                        r -> new String(r.key(), StandardCharsets.UTF_8),
                        r -> new String(r.value(), StandardCharsets.UTF_8)));
        for (int i = 0; i < count; i++) {
            assertThat(byKey)
                    .containsEntry(
                            "k" + i,
                            "{\"id\":\"" + i + "\",\"text\":\"" + ("order-" + i).toUpperCase(Locale.ROOT) + "\"}");
        }
        assertThat(kafka.committedOffsets(group)).isEqualTo(kafka.endOffsets(input));
    }

    /**
     * The generated README's walk-through, command by command: the local broker of the {@code dev-broker} profile,
     * {@code topics create}, {@code produce} of the sample lines, {@code run}, {@code consume} of the output, then,
     * with the pipeline stopped, {@code offsets reset --to-earliest --execute} and a second run that reads the input
     * again. The broker takes a free port instead of 9092 (another build may hold it), and the commands reach it
     * through {@code KAFKA_BROKERS}, the variable the shipped {@code pipeline.yaml} reads.
     */
    @Test
    void theReadmeWalkThroughWorksOnTheLocalBroker() throws Exception {
        String readme = Files.readString(project.resolve("README.md"));
        String jarCommand = "java -jar target/" + ARTIFACT_ID + ".jar ";
        String samples = "src/test/resources/samples/input.jsonl";
        assertThat(readme)
                .contains(
                        "mvn -Pdev-broker exec:java",
                        jarCommand + "topics create --config pipeline.yaml",
                        jarCommand + "produce input --config pipeline.yaml --file " + samples,
                        jarCommand + "run --config pipeline.yaml",
                        jarCommand + "consume output --config pipeline.yaml",
                        jarCommand + "offsets reset --config pipeline.yaml --to-earliest --execute");
        // the build fetches this plugin for the nested builds (pom.xml, it.exec.plugin): the two must not drift
        String[] exec = property("it.exec.plugin").split(":");
        assertThat(Files.readString(project.resolve("pom.xml")))
                .as("the dev-broker profile's plugin, which the build fetches as %s", property("it.exec.plugin"))
                .containsPattern("<artifactId>" + Pattern.quote(exec[1]) + "</artifactId>\\s*<version>"
                        + Pattern.quote(exec[2]) + "</version>");
        int port = freePort();
        Map<String, String> environment = Map.of("KAFKA_BROKERS", "localhost:" + port);
        List<String> expected = lines(project.resolve("src/test/resources/samples/expected-output.jsonl"));
        int inputRecords = lines(project.resolve(samples)).size();

        try (Background broker = Background.start(
                        project, "dev-broker", maven("-Pdev-broker", "exec:java", "-Detl.dev.port=" + port), Map.of());
                KafkaTestCluster local = KafkaTestCluster.external("localhost:" + port)) {
            broker.awaitLine("Kafka broker ready at localhost:" + port, Duration.ofMinutes(3));

            String created =
                    run(project, "topics-create", tool("topics", "create", "--config", "pipeline.yaml"), environment);
            assertThat(created).contains("created: input", "created: output", "created: input-dlq");
            String produced = run(
                    project,
                    "produce",
                    tool("produce", "input", "--config", "pipeline.yaml", "--file", samples),
                    environment);
            assertThat(produced).contains("produced " + inputRecords + " record(s) to input");

            runPipelineUntilOutputHas(local, expected.size(), environment, "run-1");
            assertThat(consume("output", environment)).containsExactlyInAnyOrderElementsOf(expected);
            assertThat(consume("input-dlq", environment)).hasSize(inputRecords - expected.size());

            String reset = run(
                    project,
                    "offsets-reset",
                    tool("offsets", "reset", "--config", "pipeline.yaml", "--to-earliest", "--execute"),
                    environment);
            assertThat(reset).contains("reset 1 partition(s) of group " + ARTIFACT_ID);

            // the second run reads the input again: every output twice
            runPipelineUntilOutputHas(local, 2 * expected.size(), environment, "run-2");
            List<String> twice = new ArrayList<>(expected);
            twice.addAll(expected);
            assertThat(consume("output", environment)).containsExactlyInAnyOrderElementsOf(twice);

            // SIGTERM, the handler Ctrl-C's SIGINT also reaches: a JVM started from a background job (CI) ignores
            // SIGINT
            assertThat(broker.stop("TERM"))
                    .as("the broker's exit code after SIGTERM; log: %s", broker.tail())
                    .isZero();
            assertThat(broker.tail()).contains("stopped");
        }
    }

    /**
     * Runs the pipeline as the README says until topic {@code output} of {@code local} holds {@code records}, then
     * SIGTERM. The test reads the output with the README's {@code consume} afterwards; watching the end offsets
     * meanwhile spares a JVM start per look.
     */
    private void runPipelineUntilOutputHas(
            KafkaTestCluster local, int records, Map<String, String> environment, String step) throws Exception {
        try (Background pipeline = Background.start(
                project,
                step,
                List.of(java(), "-jar", jar.toString(), "run", "--config", "pipeline.yaml"),
                environment)) {
            await().atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> local.endTotal("output") >= records);
            assertThat(pipeline.stop("TERM"))
                    .as("exit code after SIGTERM; log: %s", pipeline.tail())
                    .isZero();
        }
    }

    /** The values of {@code topic}, read with the jar's {@code consume}, as compact JSON. */
    private List<String> consume(String topic, Map<String, String> environment) throws Exception {
        String out = run(
                project,
                "consume-" + topic,
                tool("consume", topic, "--config", "pipeline.yaml", "--value-only"),
                environment);
        return out.lines().filter(l -> !l.isBlank()).map(ArchetypeIT::compact).toList();
    }

    private static List<String> tool(String... args) {
        List<String> command = new ArrayList<>(List.of(java(), "-jar", jar.toString()));
        command.addAll(List.of(args));
        return command;
    }

    private static List<String> lines(Path file) throws IOException {
        return Files.readAllLines(file).stream()
                .filter(l -> !l.isBlank())
                .map(ArchetypeIT::compact)
                .toList();
    }

    /** A JSON line in one form whatever its spacing, so that what the pipeline wrote compares with the samples. */
    private static String compact(String json) {
        try {
            return JSON.readTree(json).toString();
        } catch (IOException notJson) {
            return json;
        }
    }

    /** A process left running while the test goes on: its output in a log, stopped by a signal as a user would. */
    private static final class Background implements AutoCloseable {
        private final Process process;
        private final Path log;

        private Background(Process process, Path log) {
            this.process = process;
            this.log = log;
        }

        static Background start(Path directory, String step, List<String> command, Map<String, String> environment)
                throws IOException {
            Path log = WORK.resolve(step + ".log");
            ProcessBuilder builder = new ProcessBuilder(command)
                    .directory(directory.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            builder.environment().putAll(environment);
            builder.environment().put("MAVEN_OPTS", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC");
            return new Background(builder.start(), log);
        }

        void awaitLine(String text, Duration timeout) {
            await().atMost(timeout)
                    .pollInterval(Duration.ofMillis(500))
                    .failFast("the process ended", () -> !process.isAlive())
                    .until(() -> Files.readString(log).contains(text));
        }

        /** Sends SIG{@code signal} and returns the exit code. */
        int stop(String signal) throws Exception {
            new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                    .inheritIO()
                    .start()
                    .waitFor();
            assertThat(process.waitFor(60, TimeUnit.SECONDS))
                    .as("%s exits after SIG%s; log: %s", log.getFileName(), signal, tail())
                    .isTrue();
            return process.exitValue();
        }

        String tail() {
            return ArchetypeIT.tail(log);
        }

        @Override
        public void close() {
            process.destroyForcibly();
        }
    }

    private static List<String> maven(String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(property("maven.home"), "bin", "mvn").toString());
        command.add("-B");
        command.add("-s");
        command.add(settings.toString());
        command.addAll(List.of(args));
        return command;
    }

    private static String run(Path directory, String step, List<String> command) throws Exception {
        return run(directory, step, command, Map.of());
    }

    /** Runs {@code command} to its end, which must be exit 0; returns what it printed. */
    private static String run(Path directory, String step, List<String> command, Map<String, String> environment)
            throws Exception {
        Path log = WORK.resolve(step + ".log");
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(directory.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        // a short-lived Maven JVM starts faster with the client compiler only
        builder.environment().put("MAVEN_OPTS", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC");
        Process process = builder.start();
        boolean done = process.waitFor(BUILD_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        if (!done) {
            process.destroyForcibly();
        }
        assertThat(done && process.exitValue() == 0)
                .as("%s (%s) succeeds; the end of %s:%n%s", step, String.join(" ", command), log, tail(log))
                .isTrue();
        return Files.readString(log);
    }

    private static HttpResponse<String> get(HttpClient http, int port, String path)
            throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .timeout(Duration.ofSeconds(5))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static String property(String name) {
        String value = System.getProperty(name);
        assertThat(value).as("system property %s (set by the build)", name).isNotBlank();
        return value;
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join(System.lineSeparator(), lines.subList(Math.max(0, lines.size() - 60), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
