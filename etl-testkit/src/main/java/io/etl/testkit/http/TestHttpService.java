package io.etl.testkit.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A real HTTP service on the loopback interface (the JDK's {@code HttpServer}) for tests and demos of pipelines
 * that call a service per record. Every request is answered after a latency, without holding a thread meanwhile,
 * so hundreds of calls may be in flight; rules inject slower answers and failures by path.
 *
 * <pre>{@code
 * try (TestHttpService service = TestHttpService.start(Duration.ofMillis(20), path -> "{\"id\":\"" + path + "\"}")) {
 *     service.slow(path -> path.endsWith("/hot"), Duration.ofSeconds(2));
 *     service.fail(path -> path.endsWith("/gone"), 404);
 *     URI base = service.uri();  // http://127.0.0.1:<port>/
 * }
 * }</pre>
 *
 * <p>The JDK's server delays small responses by about 40 ms (Nagle's algorithm against delayed acknowledgements)
 * unless {@code sun.net.httpserver.nodelay} is true when its first server starts; {@link #start} sets it for this
 * JVM when it is not set.
 */
public final class TestHttpService implements AutoCloseable {

    /** The JDK server's switch for {@code TCP_NODELAY} on accepted connections. */
    public static final String NODELAY_PROPERTY = "sun.net.httpserver.nodelay";

    private final HttpServer server;
    private final ExecutorService handlers;
    private final ScheduledExecutorService answers;
    private final Function<String, String> body;
    private final List<Rule> rules = new CopyOnWriteArrayList<>();
    private final AtomicLong requests = new AtomicLong();
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicInteger maxOpen = new AtomicInteger();
    private volatile long latencyNanos;

    private record Rule(Predicate<String> path, long latencyNanos, int status) {}

    private TestHttpService(Duration latency, Function<String, String> body) throws IOException {
        if (System.getProperty(NODELAY_PROPERTY) == null) {
            System.setProperty(NODELAY_PROPERTY, "true");
        }
        this.latencyNanos = latency.toNanos();
        this.body = body;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
        this.handlers = Executors.newFixedThreadPool(2, daemon("test-http-service"));
        this.answers = Executors.newScheduledThreadPool(2, daemon("test-http-service-answer"));
        server.setExecutor(handlers);
        server.createContext("/", this::handle);
        server.start();
    }

    /**
     * Starts a service on a free loopback port whose answers come after {@code latency}, 200 with the JSON
     * {@code body} makes of the request's path.
     */
    public static TestHttpService start(Duration latency, Function<String, String> body) {
        Objects.requireNonNull(latency, "latency");
        Objects.requireNonNull(body, "body");
        try {
            return new TestHttpService(latency, body);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start a local HTTP service", e);
        }
    }

    /** The service's base address, {@code http://127.0.0.1:<port>/}. */
    public URI uri() {
        return URI.create("http://" + server.getAddress().getAddress().getHostAddress() + ":"
                + server.getAddress().getPort() + "/");
    }

    /** Answers every later request after {@code latency}. */
    public TestHttpService latency(Duration latency) {
        this.latencyNanos = latency.toNanos();
        return this;
    }

    /** Answers requests whose path matches after {@code latency} instead (the first matching rule wins). */
    public TestHttpService slow(Predicate<String> path, Duration latency) {
        rules.add(new Rule(path, latency.toNanos(), 200));
        return this;
    }

    /** Answers requests whose path matches with {@code status} and no body (the first matching rule wins). */
    public TestHttpService fail(Predicate<String> path, int status) {
        rules.add(new Rule(path, -1, status));
        return this;
    }

    /** Requests received so far. */
    public long requests() {
        return requests.get();
    }

    /** The most requests that were waiting for their answer at once. */
    public int maxConcurrent() {
        return maxOpen.get();
    }

    private void handle(HttpExchange exchange) {
        requests.incrementAndGet();
        maxOpen.accumulateAndGet(open.incrementAndGet(), Math::max);
        String path = exchange.getRequestURI().getPath();
        long latency = latencyNanos;
        int status = 200;
        for (Rule r : rules) {
            if (r.path().test(path)) {
                latency = r.latencyNanos() >= 0 ? r.latencyNanos() : latency;
                status = r.status();
                break;
            }
        }
        int answer = status;
        answers.schedule(() -> respond(exchange, path, answer), latency, TimeUnit.NANOSECONDS);
    }

    private void respond(HttpExchange exchange, String path, int status) {
        try {
            if (status != 200) {
                exchange.sendResponseHeaders(status, -1);
                return;
            }
            byte[] bytes = body.apply(path).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        } catch (IOException | RuntimeException e) {
            // the client went away: nothing to answer
        } finally {
            exchange.close();
            open.decrementAndGet();
        }
    }

    private static ThreadFactory daemon(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.getAndIncrement());
            t.setDaemon(true);
            return t;
        };
    }

    @Override
    public void close() {
        server.stop(0);
        answers.shutdownNow();
        handlers.shutdownNow();
    }
}
