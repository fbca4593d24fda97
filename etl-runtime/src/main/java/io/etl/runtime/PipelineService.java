package io.etl.runtime;

import io.etl.core.Pipeline;
import io.etl.core.PipelineResult;
import io.etl.core.PipelineState;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.error.ConfigException;
import io.etl.core.error.ConfigProblem;
import io.etl.core.error.ErrorText;
import io.etl.runtime.internal.JvmMeters;
import io.etl.runtime.internal.Topology;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one pipeline as a service process, as {@code etl run} does: builds it with its
 * {@link PipelineFactory}, serves the {@link HttpEndpoint}, starts it, waits for a stop request (SIGTERM,
 * SIGINT) or a failure, drains within {@code pipeline.shutdown_timeout}, and returns the process exit code
 * ({@link ExitCodes}). It never exits the JVM itself, except on a second signal.
 *
 * <pre>{@code
 * int exit = PipelineService.of(new OrdersSplitFactory(), PipelineConfig.load(Path.of("pipeline.yaml")))
 *         .httpPort(8080)
 *         .run();
 * System.exit(exit);
 * }</pre>
 */
public final class PipelineService {

    private static final Logger LOG = LoggerFactory.getLogger(PipelineService.class);

    private final PipelineFactory factory;
    private final PipelineConfig config;
    private int httpPort = HttpEndpoint.DEFAULT_PORT;
    /** Whether a taken {@link #httpPort} makes the endpoint take a free port instead of failing the start. */
    private boolean httpPortFallback = true;

    private String httpHost = HttpEndpoint.DEFAULT_HOST;
    private Path configFile;
    private StopSignal stop;
    private PrintStream err = System.err;
    private Consumer<RunningPipeline> onStarted = p -> {};
    private Consumer<RunningPipeline> onFinished = p -> {};
    private Consumer<HttpEndpoint> onListening = h -> {};

    private PipelineService(PipelineFactory factory, PipelineConfig config) {
        this.factory = Objects.requireNonNull(factory, "factory");
        this.config = Objects.requireNonNull(config, "config");
    }

    /** A service for the pipeline {@code factory} builds from {@code config}. */
    public static PipelineService of(PipelineFactory factory, PipelineConfig config) {
        return new PipelineService(factory, config);
    }

    /**
     * The HTTP port, exactly: when it is taken the start fails ({@link ExitCodes#USAGE}). 0 serves no HTTP endpoint.
     * Without this call the endpoint takes {@link HttpEndpoint#DEFAULT_PORT}, or a free port when that one is taken
     * (a second copy of a pipeline on one host), and logs the address.
     */
    public PipelineService httpPort(int port) {
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("http port must be 0..65535, got " + port);
        }
        this.httpPort = port;
        this.httpPortFallback = false;
        return this;
    }

    /**
     * The HTTP port to take when it is free, and a free one (logged) when it is not: what a service started without
     * a port of its own does ({@link HttpEndpoint#DEFAULT_PORT} by default), so that several copies of a pipeline
     * run on one host.
     */
    public PipelineService preferHttpPort(int port) {
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("preferred http port must be 1..65535, got " + port);
        }
        this.httpPort = port;
        this.httpPortFallback = true;
        return this;
    }

    /** The address the HTTP endpoint binds. Default {@link HttpEndpoint#DEFAULT_HOST}. */
    public PipelineService httpHost(String host) {
        this.httpHost = Objects.requireNonNull(host, "host");
        return this;
    }

    /** The file the configuration was loaded from, named by the errors it causes. Default: none named. */
    public PipelineService configFile(Path file) {
        this.configFile = Objects.requireNonNull(file, "file");
        return this;
    }

    /** Where stop requests come from; by default SIGTERM and SIGINT ({@link StopSignal#install()}). */
    public PipelineService stopSignal(StopSignal signal) {
        this.stop = Objects.requireNonNull(signal, "signal");
        return this;
    }

    /** Where errors and the outcome are printed; default {@code System.err}. */
    public PipelineService err(PrintStream stream) {
        this.err = Objects.requireNonNull(stream, "stream");
        return this;
    }

    /** Called once the pipeline was started. */
    public PipelineService onStarted(Consumer<RunningPipeline> action) {
        this.onStarted = Objects.requireNonNull(action, "action");
        return this;
    }

    /** Called once the pipeline has stopped within the budget, before {@link #run()} returns (e.g. to print a summary). */
    public PipelineService onFinished(Consumer<RunningPipeline> action) {
        this.onFinished = Objects.requireNonNull(action, "action");
        return this;
    }

    /** Called once the HTTP endpoint listens (not called when the port is 0). */
    public PipelineService onListening(Consumer<HttpEndpoint> action) {
        this.onListening = Objects.requireNonNull(action, "action");
        return this;
    }

    /**
     * Runs until stopped or failed.
     *
     * @return the exit code: {@link ExitCodes#OK} drained, {@link ExitCodes#FAILED} failed or not fully
     * drained, {@link ExitCodes#UNREACHABLE} the start failed reaching a cluster, {@link ExitCodes#USAGE} bad
     * configuration (nothing started), {@link ExitCodes#STOP_BUDGET_EXCEEDED}
     */
    public int run() {
        Pipeline pipeline;
        try {
            pipeline = factory.create(config);
            if (pipeline == null) {
                err.println("error: pipeline factory '" + factory.name() + "' ("
                        + factory.getClass().getName() + ") returned no pipeline");
                return ExitCodes.USAGE;
            }
            pipeline.build();
        } catch (ConfigException e) {
            printProblems(e);
            return ExitCodes.USAGE;
        } catch (RuntimeException e) {
            printFailure("pipeline factory '" + factory.name() + "' failed", e);
            return ExitCodes.FAILED;
        }
        String name = config.pipeline().name() != null ? config.pipeline().name() : pipeline.name();
        Logging.pipeline(name);
        Duration budget = config.pipeline().shutdownTimeout();

        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        AtomicReference<RunningPipeline> current = new AtomicReference<>();
        try (JvmMeters jvm = new JvmMeters()) {
            HttpEndpoint http;
            try {
                // the JVM's meters are bound when something first reads them, not while the pipeline starts
                Function<String, String> topology = topologyOf(pipeline);
                http = httpPort == 0 ? null : startHttp(registry, current, jvm, topology);
            } catch (UncheckedIOException e) {
                err.println("error: " + e.getMessage() + " (choose another port with --http-port, 0 for none)");
                return ExitCodes.USAGE;
            }
            try {
                if (http != null) {
                    LOG.info(
                            "serving {}, {} and {} on http://{}",
                            HttpEndpoint.METRICS_PATH,
                            HttpEndpoint.LIVE_PATH,
                            HttpEndpoint.READY_PATH,
                            http.address());
                    onListening.accept(http);
                }
                StopSignal signal = stop != null ? stop : StopSignal.install();
                try {
                    return runPipeline(pipeline, name, registry, current, signal, budget);
                } finally {
                    signal.finished();
                }
            } finally {
                if (http != null) {
                    http.close();
                }
            }
        } finally {
            registry.close();
        }
    }

    /** The endpoint on {@link #httpPort}, or, when that default port is taken, on a free one. */
    private HttpEndpoint startHttp(
            PrometheusMeterRegistry registry,
            AtomicReference<RunningPipeline> current,
            JvmMeters jvm,
            Function<String, String> topology) {
        try {
            return HttpEndpoint.start(httpHost, httpPort, registry, current::get, () -> jvm.bindTo(registry), topology);
        } catch (UncheckedIOException e) {
            if (!httpPortFallback || !(e.getCause() instanceof BindException)) {
                throw e;
            }
            HttpEndpoint http =
                    HttpEndpoint.start(httpHost, 0, registry, current::get, () -> jvm.bindTo(registry), topology);
            LOG.warn(
                    "port {} is in use (another copy of a pipeline on this host?): serving HTTP on port {} instead;"
                            + " --http-port fixes the port",
                    httpPort,
                    http.port());
            return http;
        }
    }

    /**
     * What {@code /topology} answers for a format ({@code text} when null; null for an unknown one), or null when
     * the pipeline was not built by the DSL and has no topology to show.
     */
    private Function<String, String> topologyOf(Pipeline pipeline) {
        Topology topology;
        try {
            topology = Topology.of(pipeline, config);
        } catch (IllegalArgumentException notTheDsl) {
            return null;
        }
        String text = topology.text();
        String mermaid = topology.mermaid();
        return format -> format == null || format.equalsIgnoreCase("text")
                ? text
                : format.equalsIgnoreCase("mermaid") ? mermaid : null;
    }

    private int runPipeline(
            Pipeline pipeline,
            String name,
            PrometheusMeterRegistry registry,
            AtomicReference<RunningPipeline> current,
            StopSignal signal,
            Duration budget) {
        RunningPipeline running;
        try {
            running = pipeline.start(config, registry);
        } catch (ConfigException e) {
            printProblems(e);
            return ExitCodes.USAGE;
        }
        current.set(running);
        running.addStateListener((from, to) -> LOG.info("pipeline '{}': {} -> {}", name, from, to));
        signal.requested().thenRun(running::stop);
        onStarted.accept(running);

        // wait for the end; the stop budget counts from the stop request, or from the moment the pipeline began
        // stopping by itself (a failure)
        long stopDeadline = 0;
        PipelineResult result = null;
        while (result == null) {
            try {
                result = running.result().get(100, TimeUnit.MILLISECONDS);
            } catch (TimeoutException notYet) {
                if (stopDeadline == 0 && (signal.isRequested() || running.state() == PipelineState.DRAINING)) {
                    stopDeadline = System.nanoTime() + budget.toNanos();
                    LOG.info("pipeline '{}': stopping within {} (pipeline.shutdown_timeout)", name, human(budget));
                }
                if (stopDeadline != 0 && System.nanoTime() - stopDeadline > 0) {
                    err.println("error: pipeline '" + name + "' did not stop within pipeline.shutdown_timeout ("
                            + human(budget) + "); exiting with uncommitted work, which replays on the next start");
                    err.flush();
                    return ExitCodes.STOP_BUDGET_EXCEEDED;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                running.stop();
                return ExitCodes.FAILED;
            } catch (ExecutionException e) {
                printFailure("pipeline '" + name + "' ended abnormally", e.getCause());
                return ExitCodes.FAILED;
            }
        }
        onFinished.accept(running);
        return report(result);
    }

    private int report(PipelineResult result) {
        switch (result.status()) {
            case COMPLETED -> {
                LOG.info(
                        "pipeline '{}' drained and stopped after {} records in {} ms",
                        result.pipeline(),
                        result.recordsIn(),
                        result.elapsed().toMillis());
                return ExitCodes.OK;
            }
            case ABANDONED -> {
                err.printf(
                        Locale.ROOT,
                        "error: pipeline '%s' stopped with %d batch(es) abandoned at the drain deadline"
                                + " (checkpoint.drain_timeout); they were not committed and replay on the next start%n",
                        result.pipeline(),
                        result.abandonedBatches());
                return ExitCodes.FAILED;
            }
            default -> {
                Throwable cause = result.failure();
                printFailure("pipeline '" + result.pipeline() + "' failed", cause);
                return cause instanceof ConfigException config && cause.getSuppressed().length == 0
                        ? ExitCodes.ofProblems(config.problems().stream()
                                .map(ConfigProblem::path)
                                .toList())
                        : ExitCodes.FAILED;
            }
        }
    }

    /**
     * What failed and why, then the stack trace. A failure made of configuration problems alone (a section the
     * connectors rejected at start, brokers that could not be reached) is printed without a trace, one line per
     * problem (the trace is logged at DEBUG).
     */
    private void printFailure(String what, Throwable cause) {
        if (cause == null) {
            err.println("error: " + what);
            return;
        }
        if (cause instanceof ConfigException config && cause.getSuppressed().length == 0) {
            List<String> lines = problemLines(config);
            if (lines.size() == 1) {
                err.println("error: " + what + ": " + lines.get(0));
            } else {
                err.println("error: " + what + ":");
                lines.forEach(line -> err.println("  " + line));
            }
            err.flush();
            LOG.debug("{}", what, cause);
            return;
        }
        err.println("error: " + what + ": " + oneLine(cause));
        StringWriter trace = new StringWriter();
        cause.printStackTrace(new PrintWriter(trace));
        err.print(trace);
        err.flush();
    }

    private void printProblems(ConfigException e) {
        err.println("error: invalid configuration" + (configFile == null ? "" : " in " + configFile));
        for (ConfigProblem problem : e.problems()) {
            err.println("  " + problem);
        }
        err.flush();
    }

    /**
     * The problems, one a line, key path first; problems with the same message (every section of one
     * unreachable cluster, say) share one line that names all their paths.
     */
    static List<String> problemLines(ConfigException e) {
        Map<String, List<String>> pathsByMessage = new LinkedHashMap<>();
        for (ConfigProblem problem : e.problems()) {
            pathsByMessage
                    .computeIfAbsent(ErrorText.oneLine(problem.message()), m -> new ArrayList<>())
                    .add(problem.path());
        }
        List<String> lines = new ArrayList<>();
        pathsByMessage.forEach((message, paths) -> {
            String named =
                    String.join(", ", paths.stream().filter(p -> !p.isEmpty()).toList());
            lines.add(named.isEmpty() ? message : named + ": " + message);
        });
        return lines;
    }

    /** The message on one line; a configuration failure's problems separated by {@code ; }. */
    static String oneLine(Throwable t) {
        String message = t instanceof ConfigException config
                ? String.join("; ", problemLines(config))
                : t.getMessage() == null ? t.getClass().getName() : t.getMessage();
        return ErrorText.oneLine(message);
    }

    static String human(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 != 0 ? ms + "ms" : (ms / 1000) + "s";
    }
}
