package io.etl.runtime;

import io.etl.core.config.PipelineConfig;
import io.etl.core.error.ConfigException;
import io.etl.runtime.internal.Factories;
import io.etl.runtime.internal.TraceExport;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code etl run --config FILE}: runs the pipeline a {@link PipelineFactory} on the class path builds, until
 * SIGTERM or SIGINT, then drains within {@code pipeline.shutdown_timeout} and exits (see {@link ExitCodes}).
 */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = {
            "Runs a pipeline until SIGTERM or SIGINT, then drains, commits and exits.",
            "The pipeline comes from a PipelineFactory registered in META-INF/services on the class path.",
            "Serves /metrics, /health/live and /health/ready over HTTP while it runs.",
            "Exports spans over OTLP when OTEL_SERVICE_NAME, OTEL_EXPORTER_OTLP_ENDPOINT,"
                    + " OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_TRACES_EXPORTER is set."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:stopped by a signal and drained: everything written and committed",
            "1:the pipeline failed, or batches were abandoned at the drain deadline",
            "2:usage or configuration error; nothing was started",
            "3:the stop did not finish within pipeline.shutdown_timeout",
            "4:the start failed: a cluster could not be reached (host, refused, no answer)",
            "130:a second SIGTERM/SIGINT while draining; exited at once"
        })
public final class RunCommand implements Callable<Integer> {

    @CommandLine.Mixin
    private PipelineOptions pipeline;

    @Option(
            names = "--http-port",
            paramLabel = "PORT",
            description = "Port of /metrics, /health/* and /topology, exactly (a taken port fails the start); 0 serves"
                    + " no HTTP endpoint. Default: " + HttpEndpoint.DEFAULT_PORT + ", or a free port when "
                    + HttpEndpoint.DEFAULT_PORT + " is taken (logged).")
    private Integer httpPort;

    @Option(
            names = "--http-host",
            paramLabel = "HOST",
            defaultValue = HttpEndpoint.DEFAULT_HOST,
            description = "Address the HTTP endpoint binds (127.0.0.1 for this host only). Default: ${DEFAULT-VALUE}.")
    private String httpHost;

    @Option(
            names = "--log-format",
            paramLabel = "FORMAT",
            description = "text or json log lines on stderr. Default: $$" + LogFormat.ENV + " if set, else text.")
    private String logFormat;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintStream err = System.err;
        if (httpPort != null && (httpPort < 0 || httpPort > 65_535)) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--http-port must be 0..65535, got " + httpPort);
        }
        LogFormat format;
        try {
            format = logFormat != null ? LogFormat.parse(logFormat, "--log-format") : Logging.formatFromEnvironment();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        Logging.configure(format);

        PipelineConfig loaded;
        PipelineFactory factory;
        try {
            loaded = pipeline.load();
            factory = pipeline.factory();
        } catch (ConfigException | Factories.SelectionException e) {
            return pipeline.usageError(e, err::println);
        }
        try (TraceExport traces = TraceExport.start(System.getenv())) {
            PipelineService service = PipelineService.of(factory, loaded)
                    .configFile(pipeline.file())
                    .httpHost(httpHost)
                    .err(err);
            if (httpPort != null) {
                service.httpPort(httpPort);
            }
            return service.run();
        }
    }
}
