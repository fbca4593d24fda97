package io.etl.examples;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Serves a {@link PrometheusMeterRegistry} as Prometheus text at {@code http://127.0.0.1:PORT/metrics},
 * with the JDK's own HTTP server (no extra dependency). Bound to the loopback address only.
 *
 * <pre>{@code
 * try (MetricsServer server = MetricsServer.start(registry, 9464)) {
 *     pipeline.start(config, registry) ...
 * }
 * }</pre>
 */
public final class MetricsServer implements AutoCloseable {

    /** The Prometheus text exposition format, version 0.0.4. */
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final HttpServer server;
    private final ExecutorService executor;

    private MetricsServer(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /**
     * Starts serving; {@code port} 0 picks a free port (see {@link #port()}).
     *
     * @throws UncheckedIOException when the port cannot be bound
     */
    public static MetricsServer start(PrometheusMeterRegistry registry, int port) {
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve metrics on 127.0.0.1:" + port + ": " + e.getMessage(), e);
        }
        server.createContext("/metrics", exchange -> respond(exchange, registry));
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "etl-metrics-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.start();
        return new MetricsServer(server, executor);
    }

    private static void respond(HttpExchange exchange, PrometheusMeterRegistry registry) throws IOException {
        try (exchange) {
            if (!"GET".equals(exchange.getRequestMethod()) && !"HEAD".equals(exchange.getRequestMethod())) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
            boolean head = "HEAD".equals(exchange.getRequestMethod());
            exchange.sendResponseHeaders(200, head ? -1 : body.length);
            if (!head) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
        }
    }

    /** The port actually bound. */
    public int port() {
        return server.getAddress().getPort();
    }

    /** Where the metrics are served. */
    public String url() {
        return "http://127.0.0.1:" + port() + "/metrics";
    }

    /** Stops serving at once. */
    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
