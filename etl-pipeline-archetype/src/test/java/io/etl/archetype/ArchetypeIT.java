package io.etl.archetype;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a user does with the archetype, end to end: {@code archetype:generate} from a local repository,
 * {@code mvn package} of the generated project (its own PipelineTestDriver test included), then
 * {@code java -jar target/<artifactId>.jar run --config pipeline.yaml} against a real broker, until
 * SIGTERM.
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

    static KafkaTestCluster kafka;

    private static Path settings;

    @BeforeAll
    static void writeSettings() throws IOException {
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

    @Test
    void generatedProjectBuildsIntoOneJarThatCopiesEveryRecordThroughTheMapAndStopsCleanly() throws Exception {
        // 1. generate, exactly as the README says (the plugin named in full: no prefix lookup)
        run(
                WORK,
                "generate",
                maven(
                        ARCHETYPE_PLUGIN + ":generate",
                        "-DinteractiveMode=false",
                        "-DarchetypeGroupId=io.etl",
                        "-DarchetypeArtifactId=etl-pipeline-archetype",
                        "-DarchetypeVersion=" + property("etl.version"),
                        "-DgroupId=com.example",
                        "-DartifactId=" + ARTIFACT_ID,
                        "-Dversion=1.0.0-SNAPSHOT",
                        "-Dpackage=" + PACKAGE));
        Path project = WORK.resolve(ARTIFACT_ID);
        assertThat(project.resolve("pipeline.yaml")).exists();
        for (Path doc : List.of(Path.of("..", "README.md"), Path.of("..", "docs", "your-own-pipeline.md"))) {
            assertThat(Files.readString(doc))
                    .as("%s tells users to run the generate goal this test runs", doc)
                    .contains("mvn " + ARCHETYPE_PLUGIN + ":generate -DinteractiveMode=false");
        }
        assertThat(project.resolve("README.md")).exists();
        assertThat(project.resolve("src/main/java/com/example/orders/AppPipelineFactory.java"))
                .exists();
        assertThat(Files.readString(project.resolve("pipeline.yaml")))
                .contains("${KAFKA_BROKERS:-localhost:9092}", "${INPUT_TOPIC:-input}", "${OUTPUT_TOPIC:-output}")
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
        Path jar = project.resolve("target/" + ARTIFACT_ID + ".jar");
        try (JarFile file = new JarFile(jar.toFile())) {
            assertThat(file.getManifest().getMainAttributes().getValue("Main-Class"))
                    .isEqualTo(Main.class.getName());
            assertThat(new String(
                            file.getInputStream(file.getEntry("META-INF/services/" + PipelineFactory.class.getName()))
                                    .readAllBytes(),
                            StandardCharsets.UTF_8))
                    .contains(PACKAGE + ".AppPipelineFactory");
        }

        // 3. the shipped configuration is valid offline
        run(project, "validate", List.of(java(), "-jar", jar.toString(), "validate", "pipeline.yaml"));

        // 4. run against the broker with topics from the environment, as in production
        String input = "archetype-in";
        String output = "archetype-out";
        String group = "archetype-it";
        kafka.createTopic(input, 3);
        kafka.createTopic(output, 3);
        int count = 2_000;
        kafka.produce(input, count, i -> TestRecord.of("k" + i, "order-" + i));
        int port = freePort();
        Map<String, String> environment = Map.of(
                "KAFKA_BROKERS",
                kafka.bootstrapServers(),
                "INPUT_TOPIC",
                input,
                "OUTPUT_TOPIC",
                output,
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
            assertThat(byKey).containsEntry("k" + i, ("order-" + i).toUpperCase(Locale.ROOT));
        }
        assertThat(kafka.committedOffsets(group)).isEqualTo(kafka.endOffsets(input));
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

    private static void run(Path directory, String step, List<String> command) throws Exception {
        run(directory, step, command, Map.of());
    }

    private static void run(Path directory, String step, List<String> command, Map<String, String> environment)
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
