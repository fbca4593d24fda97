package io.etl.runtime;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.etl.core.RunningPipeline;
import io.etl.runtime.internal.HealthReport;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The runtime's HTTP endpoint, served by the JDK's own HTTP server:
 * <ul>
 *   <li>{@value #METRICS_PATH}: every meter in the Prometheus text format (the pipeline's {@code etl_*},
 *       the Kafka clients', the JVM's);</li>
 *   <li>{@value #LIVE_PATH}: 200 while the pipeline thread makes progress and has not failed, else 503;</li>
 *   <li>{@value #READY_PATH}: 200 once partitions are assigned and records can flow, 503 while starting,
 *       draining or failed.</li>
 * </ul>
 * Both health paths answer a small JSON body: {@code status}, {@code state}, {@code pipeline},
 * {@code assigned_partitions}, {@code paused}, {@code breakers}, {@code last_commit_age_ms},
 * {@code last_activity_age_ms}. The runtime's service also answers {@value #TOPOLOGY_PATH}: the pipeline's
 * topology as text, or as a Mermaid flowchart with {@code ?format=mermaid} (what {@code etl describe} prints). Only
 * {@code GET} and {@code HEAD} are answered.
 *
 * <pre>{@code
 * try (HttpEndpoint http = HttpEndpoint.start("0.0.0.0", HttpEndpoint.DEFAULT_PORT, registry, () -> running)) {
 *     ...
 * }
 * }</pre>
 */
public final class HttpEndpoint implements AutoCloseable {

    /** The default port ({@code --http-port}); Kubernetes manifests probe it. */
    public static final int DEFAULT_PORT = 8080;
    /** The default bind address ({@code --http-host}): every interface, as a container needs. */
    public static final String DEFAULT_HOST = "0.0.0.0";
    /** Prometheus scrape path. */
    public static final String METRICS_PATH = "/metrics";
    /** Liveness probe path. */
    public static final String LIVE_PATH = "/health/live";
    /** Readiness probe path. */
    public static final String READY_PATH = "/health/ready";
    /** The pipeline's topology, as {@code etl describe} prints it. */
    public static final String TOPOLOGY_PATH = "/topology";
    /** How long the pipeline thread may go without a turn of its loop before {@value #LIVE_PATH} answers 503. */
    public static final Duration DEFAULT_LIVENESS_TIMEOUT = Duration.ofSeconds(60);
    /** The Prometheus text exposition format, version 0.0.4. */
    public static final String PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private static final String JSON_CONTENT_TYPE = "application/json";
    private static final String TEXT_CONTENT_TYPE = "text/plain; charset=utf-8";

    private final HttpServer server;
    private final ExecutorService executor;

    private HttpEndpoint(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /**
     * Starts serving on {@code host:port} ({@code port} 0 picks a free port, see {@link #port()}).
     * {@code running} returns the pipeline, or null before it is started.
     *
     * @throws UncheckedIOException naming the address when it cannot be bound
     */
    public static HttpEndpoint start(
            String host, int port, PrometheusMeterRegistry registry, Supplier<RunningPipeline> running) {
        return start(host, port, registry, running, () -> {});
    }

    /** {@link #start(String, int, PrometheusMeterRegistry, Supplier)} that runs {@code beforeScrape} before each scrape. */
    static HttpEndpoint start(
            String host,
            int port,
            PrometheusMeterRegistry registry,
            Supplier<RunningPipeline> running,
            Runnable beforeScrape) {
        return start(host, port, registry, running, beforeScrape, null);
    }

    /**
     * {@link #start(String, int, PrometheusMeterRegistry, Supplier, Runnable)} that also serves {@value #TOPOLOGY_PATH}:
     * {@code topology} returns the body for the {@code format} query parameter ({@code null} when absent), or null
     * for a format it does not know.
     */
    static HttpEndpoint start(
            String host,
            int port,
            PrometheusMeterRegistry registry,
            Supplier<RunningPipeline> running,
            Runnable beforeScrape,
            Function<String, String> topology) {
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(host, port), 16);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on " + host + ":" + port + ": " + e.getMessage(), e);
        }
        HealthReport health = new HealthReport(running, DEFAULT_LIVENESS_TIMEOUT);
        server.createContext("/", exchange -> {
            try (exchange) {
                if (!"GET".equals(exchange.getRequestMethod()) && !"HEAD".equals(exchange.getRequestMethod())) {
                    exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                    exchange.sendResponseHeaders(405, -1);
                    return;
                }
                switch (exchange.getRequestURI().getPath()) {
                    case METRICS_PATH -> {
                        beforeScrape.run();
                        send(exchange, 200, PROMETHEUS_CONTENT_TYPE, registry.scrape());
                    }
                    case LIVE_PATH -> send(exchange, health.live());
                    case READY_PATH -> send(exchange, health.ready());
                    case TOPOLOGY_PATH -> {
                        if (topology == null) {
                            send(exchange, 404, TEXT_CONTENT_TYPE, notFound(null));
                            return;
                        }
                        String format = queryParameter(exchange.getRequestURI().getRawQuery(), "format");
                        String body = topology.apply(format);
                        if (body == null) {
                            send(
                                    exchange,
                                    400,
                                    TEXT_CONTENT_TYPE,
                                    "unknown format '" + format + "'; try text or mermaid\n");
                        } else {
                            send(exchange, 200, TEXT_CONTENT_TYPE, body);
                        }
                    }
                    default -> send(exchange, 404, TEXT_CONTENT_TYPE, notFound(topology));
                }
            }
        });
        ExecutorService executor = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "etl-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.start();
        return new HttpEndpoint(server, executor);
    }

    private static String notFound(Function<String, String> topology) {
        return "not found; try " + METRICS_PATH + ", " + LIVE_PATH + ", " + READY_PATH
                + (topology == null ? "" : " or " + TOPOLOGY_PATH) + "\n";
    }

    /** The value of {@code name} in a raw query string ({@code a=1&b=2}), or null. */
    private static String queryParameter(String rawQuery, String name) {
        if (rawQuery == null) {
            return null;
        }
        for (String pair : rawQuery.split("&")) {
            int eq = pair.indexOf('=');
            String key = eq < 0 ? pair : pair.substring(0, eq);
            if (URLDecoder.decode(key, StandardCharsets.UTF_8).equals(name)) {
                return eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    private static void send(HttpExchange exchange, HealthReport.Answer answer) throws IOException {
        send(exchange, answer.status(), JSON_CONTENT_TYPE, answer.body() + "\n");
    }

    private static void send(HttpExchange exchange, int status, String contentType, String text) throws IOException {
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        boolean head = "HEAD".equals(exchange.getRequestMethod());
        exchange.sendResponseHeaders(status, head ? -1 : body.length);
        if (!head) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    /** The port actually bound. */
    public int port() {
        return server.getAddress().getPort();
    }

    /** The address bound, as {@code host:port}, an IPv6 host in brackets ({@code [::1]:8080}) as in a URL. */
    public String address() {
        String host = server.getAddress().getHostString();
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port();
    }

    /** Stops serving at once. */
    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
