package io.etl.runtime.it;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
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
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * {@code java -cp etl-runtime.jar:copy-pipeline.jar io.etl.runtime.Main run ...} in a child JVM, as a user
 * deploys it: the runtime's shaded jar (from the build) and a pipeline jar holding only
 * {@link CopyPipelineFactory} and its {@code META-INF/services} entry.
 */
final class ChildRuntime implements AutoCloseable {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final Process process;
    private final Path out;
    private final Path err;
    private final int port;

    private ChildRuntime(Process process, Path out, Path err, int port) {
        this.process = process;
        this.out = out;
        this.err = err;
        this.port = port;
    }

    /** The runtime jar the build made ({@code etl-runtime/target/etl-runtime.jar}). */
    static Path runtimeJar() {
        Path jar = Path.of(System.getProperty("etl.runtime.jar", "target/etl-runtime.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: run the ITs through mvn verify (after package)");
        }
        return jar;
    }

    /** A plain jar with {@link CopyPipelineFactory} registered as a {@code PipelineFactory}. */
    static Path pipelineJar(Path dir) throws IOException {
        Path jar = dir.resolve("copy-pipeline.jar");
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
            String path = CopyPipelineFactory.class.getName().replace('.', '/') + ".class";
            out.putNextEntry(new JarEntry(path));
            try (InputStream in = CopyPipelineFactory.class.getClassLoader().getResourceAsStream(path)) {
                out.write(in.readAllBytes());
            }
            out.closeEntry();
            out.putNextEntry(new JarEntry("META-INF/services/io.etl.runtime.PipelineFactory"));
            out.write((CopyPipelineFactory.class.getName() + "\n").getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
        }
        return jar;
    }

    static ChildRuntime start(Path dir, String name, Path config, Map<String, String> env) throws IOException {
        int port = freePort();
        Path out = dir.resolve(name + ".out");
        Path err = dir.resolve(name + ".err");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                runtimeJar() + File.pathSeparator + pipelineJar(dir),
                "io.etl.runtime.Main",
                "run",
                "--config",
                config.toString(),
                "--http-port",
                Integer.toString(port),
                "--http-host",
                "127.0.0.1"));
        ProcessBuilder pb = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().putAll(env);
        return new ChildRuntime(pb.start(), out, err, port);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** An HTTP answer; status -1 when nothing listens (yet, or any more). */
    record Answer(int status, String body) {}

    Answer get(String path) {
        try {
            HttpResponse<String> r = HTTP.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                            .timeout(Duration.ofSeconds(5))
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            return new Answer(r.statusCode(), r.body());
        } catch (IOException e) {
            return new Answer(-1, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Answer(-1, e.toString());
        }
    }

    /** SIGTERM, as Kubernetes sends it ({@code Process.destroy} would also close stdin). */
    void sigterm() throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-TERM", Long.toString(process.pid()))
                .inheritIO()
                .start();
        if (kill.waitFor() != 0) {
            throw new IllegalStateException("kill -TERM " + process.pid() + " failed");
        }
    }

    /** The exit code, waiting at most {@code timeout}. */
    int waitFor(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("the runtime did not exit within " + timeout + "; stderr:\n" + err());
        }
        return process.exitValue();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    String err() {
        return read(err);
    }

    String out() {
        return read(out);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
