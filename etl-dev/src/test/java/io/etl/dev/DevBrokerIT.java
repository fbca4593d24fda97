package io.etl.dev;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The development broker as a user runs it: its own JVM, a fixed port, Ctrl-C to stop, data kept or not. */
class DevBrokerIT {

    private static final Pattern TEMPORARY_DATA = Pattern.compile("data in (\\S+), deleted when it stops");

    @Test
    void keepsTopicsAndRecordsInItsDataDirectoryAcrossAStop(@TempDir Path data) throws Exception {
        int port = freePort();
        String bootstrap = "127.0.0.1:" + port;

        try (Child first = Child.start("--port", Integer.toString(port), "--data-dir", data.toString())) {
            assertThat(first.awaitReady()).startsWith(DevBroker.READY + "localhost:" + port);
            try (KafkaTestCluster kafka = KafkaTestCluster.external(bootstrap)) {
                kafka.createTopic("kept", 2);
                kafka.produce("kept", List.of(TestRecord.of("k1", "one"), TestRecord.of("k2", "two")));
            }
            assertThat(first.stop("TERM"))
                    .as("exit code after SIGTERM; output %s", first.output)
                    .isZero();
            assertThat(first.output).contains("stopped");
        }

        try (Child second = Child.start("--port", Integer.toString(port), "--data-dir", data.toString())) {
            second.awaitReady();
            try (KafkaTestCluster kafka = KafkaTestCluster.external(bootstrap)) {
                assertThat(kafka.readAll("kept"))
                        .extracting(TestRecord::valueAsString)
                        .containsExactlyInAnyOrder("one", "two");
            }
            assertThat(second.stop("TERM")).isZero();
        }
    }

    @Test
    void deletesItsTemporaryDataWhenStopped() throws Exception {
        int port = freePort();
        try (Child broker = Child.start("--port", Integer.toString(port))) {
            String ready = broker.awaitReady();
            Matcher where = TEMPORARY_DATA.matcher(ready);
            assertThat(where.find())
                    .as("ready line names the temporary data: %s", ready)
                    .isTrue();
            Path data = Path.of(where.group(1));
            assertThat(data).isDirectory();

            assertThat(broker.stop("TERM")).isZero();
            assertThat(data).doesNotExist();
        }
    }

    @Test
    void aPortInUseIsReportedAndExitsOne() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            try (Child broker = Child.start("--port", Integer.toString(taken.getLocalPort()))) {
                assertThat(broker.process.waitFor(60, TimeUnit.SECONDS)).isTrue();
                broker.ended.get(10, TimeUnit.SECONDS);
                assertThat(broker.process.exitValue()).isEqualTo(1);
                assertThat(String.join("\n", broker.output))
                        .contains("error: cannot start the broker on port " + taken.getLocalPort())
                        .contains("is in use");
            }
        }
    }

    @Test
    void runsASchemaRegistryNextToTheBrokerWhenAsked() throws Exception {
        int port = freePort();
        int registryPort = freePort();
        try (Child broker = Child.start("--port", Integer.toString(port), "--schema-registry=" + registryPort)) {
            broker.awaitReady();
            String url = "http://localhost:" + registryPort;
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> broker.output.stream().anyMatch(l -> l.startsWith(DevBroker.REGISTRY_READY + url)));
            HttpClient http = HttpClient.newHttpClient();
            HttpResponse<String> registered = http.send(
                    HttpRequest.newBuilder(URI.create(url + "/subjects/orders-value/versions"))
                            .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                            .POST(HttpRequest.BodyPublishers.ofString("{\"schema\":\"\\\"string\\\"\"}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(registered.statusCode()).as(registered.body()).isEqualTo(200);
            HttpResponse<String> subjects = http.send(
                    HttpRequest.newBuilder(URI.create(url + "/subjects")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(subjects.body()).isEqualTo("[\"orders-value\"]");

            assertThat(broker.stop("TERM")).isZero();
        }
    }

    @Test
    void aRegistryPortInUseIsReportedAndExitsOne() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            try (Child broker = Child.start(
                    "--port",
                    Integer.toString(freePort()),
                    "--schema-registry",
                    Integer.toString(taken.getLocalPort()))) {
                assertThat(broker.process.waitFor(120, TimeUnit.SECONDS)).isTrue();
                broker.ended.get(10, TimeUnit.SECONDS);
                assertThat(broker.process.exitValue()).isEqualTo(1);
                assertThat(String.join("\n", broker.output))
                        .contains("error: cannot start the schema registry on port " + taken.getLocalPort());
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** {@link DevBroker} in a JVM of its own, its output collected line by line. */
    private static final class Child implements AutoCloseable {
        final Process process;
        final List<String> output = new CopyOnWriteArrayList<>();
        final CompletableFuture<String> ready = new CompletableFuture<>();
        final CompletableFuture<Void> ended = new CompletableFuture<>();

        private Child(Process process) {
            this.process = process;
            Thread reader = new Thread(this::read, "dev-broker-output");
            reader.setDaemon(true);
            reader.start();
        }

        static Child start(String... args) throws IOException {
            List<String> command = new ArrayList<>();
            command.add(ProcessHandle.current().info().command().orElse("java"));
            command.add("-Xmx512m");
            command.add("-cp");
            command.add(System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
            command.add(DevBroker.class.getName());
            command.addAll(List.of(args));
            return new Child(
                    new ProcessBuilder(command).redirectErrorStream(true).start());
        }

        private void read() {
            try (BufferedReader in =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    output.add(line);
                    if (line.startsWith(DevBroker.READY)) {
                        ready.complete(line);
                    }
                }
            } catch (IOException e) {
                // the process ended
            }
            ready.completeExceptionally(new AssertionError("the broker printed no ready line: " + output));
            ended.complete(null);
        }

        String awaitReady() throws Exception {
            return ready.get(120, TimeUnit.SECONDS);
        }

        /**
         * Sends SIG{@code signal} as a process manager would, and returns the exit code. Ctrl-C's SIGINT reaches
         * the same handler, but a test cannot rely on it: a JVM started from a background job inherits SIGINT
         * ignored, and the JVM then keeps it ignored.
         */
        int stop(String signal) throws Exception {
            new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                    .inheritIO()
                    .start()
                    .waitFor();
            assertThat(process.waitFor(60, TimeUnit.SECONDS))
                    .as("the broker stops after SIG%s; output %s", signal, output)
                    .isTrue();
            ended.get(10, TimeUnit.SECONDS);
            return process.exitValue();
        }

        @Override
        public void close() {
            process.destroyForcibly();
        }
    }
}
