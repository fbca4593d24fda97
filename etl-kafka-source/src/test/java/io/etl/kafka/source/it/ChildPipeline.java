package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A {@link PipelineProcess} in a child JVM that a test can SIGKILL, SIGTERM, SIGSTOP and SIGCONT. */
final class ChildPipeline implements AutoCloseable {

    private final Process process;
    private final Path log;

    private ChildPipeline(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /** Starts {@code kind} with the configuration in {@code yaml}; output goes to {@code log}. */
    static ChildPipeline start(String kind, Path yaml, Path log) {
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-Detl.test.meters=" + Boolean.getBoolean("etl.test.meters"),
                "-cp",
                classpath,
                PipelineProcess.class.getName(),
                kind,
                yaml.toString()));
        try {
            Files.createDirectories(log.getParent());
            Process p = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
            return new ChildPipeline(p, log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start a pipeline JVM", e);
        }
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** SIGKILL, and wait for the process to be gone. */
    void kill9() {
        process.destroyForcibly();
        waitFor(Duration.ofSeconds(10));
    }

    /** SIGTERM: the pipeline drains and exits with its exit code. */
    void sigterm() {
        process.destroy();
    }

    /**
     * Waits until the pipeline has been assigned partitions (one with nothing left to do may not have
     * been yet), sends SIGTERM and checks that it drains and exits 0 within 30 seconds.
     */
    void stopOnceAssigned() {
        await().atMost(Duration.ofSeconds(60)).until(() -> tail().contains("assigned"));
        stopWithin(Duration.ofSeconds(30));
    }

    /** SIGTERM, then checks that the pipeline drains and exits 0 within {@code timeout}. */
    void stopWithin(Duration timeout) {
        sigterm();
        assertThat(waitFor(timeout)).as("exit code after SIGTERM:%n%s", tail()).isZero();
    }

    /** SIGSTOP: the JVM freezes with its sockets open; it sends nothing, not even heartbeats. */
    void sigstop() {
        signal("STOP");
    }

    /** SIGCONT: a frozen JVM runs on from where it stopped. */
    void sigcont() {
        signal("CONT");
    }

    private void signal(String name) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid()))
                    .redirectErrorStream(true)
                    .start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run kill -" + name, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending SIG" + name, e);
        }
    }

    /** The exit code, or -1 when the process is still running after {@code timeout}. */
    int waitFor(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) ? process.exitValue() : -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    Path log() {
        return log;
    }

    /** The last lines of the log, for assertion messages. */
    String tail() {
        try {
            List<String> lines = Files.readAllLines(log).stream()
                    .filter(l -> !l.startsWith("meters "))
                    .toList();
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            waitFor(Duration.ofSeconds(10));
        }
    }
}
