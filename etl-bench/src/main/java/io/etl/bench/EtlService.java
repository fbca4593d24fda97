package io.etl.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The example's runnable jar in service mode as a process of its own, started again after each SIGKILL as a
 * supervisor would (Kubernetes, systemd): each start gets a fresh HTTP port for {@code /metrics}, and every start
 * appends to one log file.
 */
final class EtlService {

    private final List<String> command;
    private final Map<String, String> environment;
    private final Path log;
    private volatile Process process;
    private volatile int httpPort;
    private int starts;

    /**
     * @param command     the command line up to, without, {@code --http-port}
     * @param environment variables added to the process's environment
     * @param log         the file its output is appended to
     */
    EtlService(List<String> command, Map<String, String> environment, Path log) {
        this.command = List.copyOf(command);
        this.environment = Map.copyOf(environment);
        this.log = log;
        // a harness stopped by Ctrl-C or SIGTERM takes its etl process along rather than leave it running
        Runtime.getRuntime().addShutdownHook(new Thread(this::killOnExit, "etl-service-exit"));
    }

    private void killOnExit() {
        Process p = process;
        if (p != null) {
            p.destroyForcibly();
        }
    }

    /** Starts a new process. */
    synchronized void start() {
        int port = freePort();
        List<String> full = new ArrayList<>(command);
        full.add("--http-port");
        full.add(Integer.toString(port));
        try {
            Files.writeString(
                    log,
                    "---- start " + (starts + 1) + " at " + Instant.now() + ": " + String.join(" ", full) + "\n",
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
            ProcessBuilder builder = new ProcessBuilder(full)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            builder.environment().putAll(environment);
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + full, e);
        }
        httpPort = port;
        starts++;
    }

    /** SIGKILL, and waits until the process is gone. */
    synchronized void kill9() throws InterruptedException {
        Process p = process;
        p.destroyForcibly();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("etl (pid " + p.pid() + ") still runs 30 s after SIGKILL");
        }
    }

    /** SIGTERM, and waits up to {@code seconds} for the drain; returns the exit code, or -1 after a SIGKILL. */
    synchronized int stop(int seconds) throws InterruptedException {
        Process p = process;
        p.destroy();
        if (p.waitFor(seconds, TimeUnit.SECONDS)) {
            return p.exitValue();
        }
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        return -1;
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** The port of the current process's {@code /metrics}. */
    int httpPort() {
        return httpPort;
    }

    Path log() {
        return log;
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free port", e);
        }
    }
}
