package io.etl.testkit.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;

/**
 * A schema registry speaking the Confluent REST API over HTTP on the loopback interface, keeping everything in
 * memory: the subset serializers and deserializers use. For tests, and for local development from the command
 * line: {@code java -cp ... io.etl.testkit.schema.SchemaRegistryServer --port 8081}.
 *
 * <pre>{@code
 * try (SchemaRegistryServer registry = SchemaRegistryServer.start()) {
 *     int id = registry.register("payments-value", "AVRO", paymentSchemaJson);
 *     config = config.withSchemaRegistry(SchemaRegistryConfig.custom().url(registry.url()).build());
 *     ...
 * }
 * }</pre>
 *
 * <p>Served: {@code GET /schemas/ids/{id}}, {@code GET /subjects}, {@code GET /subjects/{s}/versions},
 * {@code GET /subjects/{s}/versions/{v|latest}}, {@code POST /subjects/{s}/versions} (register),
 * {@code POST /subjects/{s}} (look a schema up), {@code POST /compatibility/subjects/{s}/versions/{v|latest}},
 * {@code GET /config}. Schemas may have references ({@code references}: name, subject and version of each
 * registered schema they use), accepted in the bodies of registration, lookup and compatibility requests and
 * returned by the schema, version and lookup answers (left out when there are none); a registration naming a
 * subject or version the registry does not have is refused. Errors carry Confluent's codes: 40401 (subject not
 * found), 40402 (version not found), 40403 (schema not found), 409 (incompatible), 42201 (invalid schema). A schema
 * registered under several subjects keeps one id; the same text with other references is another schema. Avro
 * schemas, parsed after the schemas they reference, are checked for {@code BACKWARD} compatibility with the
 * subject's latest version using Avro's {@link SchemaCompatibility} (or not at all after
 * {@link #compatibility(String) compatibility("NONE")}); Protobuf and JSON schemas are stored without a check.
 * {@link #stop()} and {@link #restart()} make the registry unreachable and back on the same port, with its schemas
 * kept.
 */
public final class SchemaRegistryServer implements TestSchemaRegistry {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * A reference of a schema to another registered schema, as Confluent's {@code references} array holds it.
     *
     * @param name    what the referring schema calls it: for Avro the referenced type's full name, for Protobuf the
     *                imported file
     * @param subject the subject the referenced schema is registered under
     * @param version its version under that subject
     */
    public record Reference(String name, String subject, int version) {

        public Reference {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(subject, "subject");
        }
    }

    private final Map<Integer, StoredSchema> byId = new ConcurrentHashMap<>();
    private final Map<StoredSchema, Integer> ids = new ConcurrentHashMap<>();
    private final Map<String, List<Integer>> subjects = new LinkedHashMap<>();
    private final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();
    private final AtomicInteger nextId = new AtomicInteger(1);
    private volatile String compatibility = "BACKWARD";
    private volatile int forcedStatus;
    private volatile String authorization;
    private HttpServer server;
    private int port;

    private SchemaRegistryServer() {}

    /** A registry on a free loopback port. */
    public static SchemaRegistryServer start() {
        return start(0);
    }

    /** A registry on {@code port} (0 for a free one). */
    public static SchemaRegistryServer start(int port) {
        SchemaRegistryServer registry = new SchemaRegistryServer();
        registry.port = port;
        registry.listen();
        return registry;
    }

    private synchronized void listen() {
        // small answers go out at once instead of waiting for the client's delayed ACK
        System.setProperty("sun.net.httpserver.nodelay", System.getProperty("sun.net.httpserver.nodelay", "true"));
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on port " + port, e);
        }
        port = server.getAddress().getPort();
        server.createContext("/", this::handle);
        server.setExecutor(Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "schema-registry-" + port);
            t.setDaemon(true);
            return t;
        }));
        server.start();
    }

    @Override
    public Kind kind() {
        return Kind.SERVER;
    }

    /** The base URL, {@code http://127.0.0.1:<port>}. */
    @Override
    public String url() {
        return "http://" + InetAddress.getLoopbackAddress().getHostAddress() + ":" + port;
    }

    /** The port. */
    public int port() {
        return port;
    }

    /** Stops answering: connections are refused until {@link #restart()}. Schemas are kept. */
    public synchronized void stop() {
        if (server != null) {
            server.stop(0);
            ((ExecutorService) server.getExecutor()).shutdownNow();
            server = null;
        }
    }

    /** Listens again on the same port, with the same schemas. */
    public synchronized void restart() {
        if (server == null) {
            listen();
        }
    }

    /** Whether it is listening. */
    public synchronized boolean running() {
        return server != null;
    }

    /** Answers every request with {@code status} (a 5xx outage, say) until called with 0. */
    public void forceStatus(int status) {
        forcedStatus = status;
    }

    /** {@code BACKWARD} (the default) or {@code NONE}: how Avro registrations are checked. */
    public void compatibility(String level) {
        compatibility = level;
    }

    /** Requires HTTP basic authentication with these credentials from now on. */
    public void requireBasicAuth(String user, String password) {
        authorization =
                "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** Registers {@code schema} of {@code type} ({@code AVRO}, {@code PROTOBUF}, {@code JSON}) under {@code subject}. */
    public int register(String subject, String type, String schema) {
        return register(subject, type, schema, List.of());
    }

    /**
     * Registers {@code schema} of {@code type}, which uses the registered schemas {@code references}, under
     * {@code subject}; refused ({@link IllegalArgumentException}) as over HTTP when a reference names a subject or
     * version the registry does not have.
     */
    public synchronized int register(String subject, String type, String schema, List<Reference> references) {
        Answer answer = registerChecked(subject, type, schema, List.copyOf(references));
        if (answer.status != 200) {
            throw new IllegalArgumentException(answer.body.toString());
        }
        return answer.body.get("id").asInt();
    }

    /** The schema text with id {@code id}, or null. */
    public String schema(int id) {
        StoredSchema s = byId.get(id);
        return s == null ? null : s.schema();
    }

    /** How many requests were answered for paths starting with {@code prefix} ({@code /schemas/ids}, ...). */
    public int requests(String prefix) {
        return requests.entrySet().stream()
                .filter(e -> e.getKey().startsWith(prefix))
                .mapToInt(e -> e.getValue().get())
                .sum();
    }

    @Override
    public void close() {
        stop();
    }

    // ---- HTTP --------------------------------------------------------------------------------------------

    private record Answer(int status, JsonNode body) {}

    private void handle(HttpExchange exchange) throws IOException {
        Answer answer;
        try (InputStream in = exchange.getRequestBody()) {
            byte[] body = in.readAllBytes();
            String path = exchange.getRequestURI().getRawPath();
            requests.computeIfAbsent(path, k -> new AtomicInteger()).incrementAndGet();
            String auth = authorization;
            if (forcedStatus != 0) {
                answer = error(forcedStatus, forcedStatus * 100, "forced status " + forcedStatus);
            } else if (auth != null && !auth.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
                answer = error(401, 40101, "Unauthorized");
            } else {
                answer = route(exchange.getRequestMethod(), path, body);
            }
        } catch (RuntimeException e) {
            answer = error(500, 50001, e.toString());
        }
        byte[] bytes = JSON.writeValueAsBytes(answer.body);
        exchange.getResponseHeaders().set("Content-Type", "application/vnd.schemaregistry.v1+json");
        exchange.sendResponseHeaders(answer.status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private synchronized Answer route(String method, String rawPath, byte[] body) throws IOException {
        List<String> parts = new ArrayList<>();
        for (String p : rawPath.split("/")) {
            if (!p.isEmpty()) {
                parts.add(URLDecoder.decode(p, StandardCharsets.UTF_8));
            }
        }
        int n = parts.size();
        if (method.equals("GET")
                && n == 3
                && parts.get(0).equals("schemas")
                && parts.get(1).equals("ids")) {
            return schemaById(parts.get(2));
        }
        if (method.equals("GET") && n == 1 && parts.get(0).equals("subjects")) {
            ArrayNode list = JSON.createArrayNode();
            subjects.keySet().forEach(list::add);
            return new Answer(200, list);
        }
        if (method.equals("GET") && n == 1 && parts.get(0).equals("config")) {
            return new Answer(200, JSON.createObjectNode().put("compatibilityLevel", compatibility));
        }
        if (n >= 2 && parts.get(0).equals("subjects")) {
            String subject = parts.get(1);
            if (method.equals("GET") && n == 3 && parts.get(2).equals("versions")) {
                List<Integer> versions = subjects.get(subject);
                if (versions == null) {
                    return subjectNotFound(subject);
                }
                ArrayNode list = JSON.createArrayNode();
                for (int v = 1; v <= versions.size(); v++) {
                    list.add(v);
                }
                return new Answer(200, list);
            }
            if (method.equals("GET") && n == 4 && parts.get(2).equals("versions")) {
                return version(subject, parts.get(3));
            }
            if (method.equals("POST") && n == 3 && parts.get(2).equals("versions")) {
                return posted(Post.REGISTER, subject, body);
            }
            if (method.equals("POST") && n == 2) {
                return posted(Post.LOOKUP, subject, body);
            }
        }
        if (method.equals("POST")
                && n == 5
                && parts.get(0).equals("compatibility")
                && parts.get(1).equals("subjects")) {
            return posted(Post.COMPATIBILITY, parts.get(2), body);
        }
        return error(404, 404, "HTTP 404 Not Found: " + method + " " + rawPath);
    }

    /** What a {@code POST} with a schema in its body asks for. */
    private enum Post {
        REGISTER,
        LOOKUP,
        COMPATIBILITY
    }

    private Answer posted(Post post, String subject, byte[] body) throws IOException {
        JsonNode request = body.length == 0 ? JSON.createObjectNode() : JSON.readTree(body);
        String type = request.path("schemaType").asText("AVRO");
        String schema = request.path("schema").asText(null);
        List<Reference> references;
        try {
            references = StoredSchema.referencesOf(request);
        } catch (IllegalArgumentException e) {
            return invalid(e);
        }
        return switch (post) {
            case REGISTER ->
                schema == null
                        ? error(422, 42201, "no schema in the request")
                        : registerChecked(subject, type, schema, references);
            case LOOKUP -> lookup(subject, type, schema, references);
            case COMPATIBILITY -> compatibilityCheck(subject, type, schema == null ? "" : schema, references);
        };
    }

    private Answer schemaById(String idText) {
        StoredSchema s;
        try {
            s = byId.get(Integer.parseInt(idText));
        } catch (NumberFormatException e) {
            s = null;
        }
        if (s == null) {
            return error(404, 40403, "Schema " + idText + " not found");
        }
        return new Answer(200, s.putInto(JSON.createObjectNode()));
    }

    private Answer version(String subject, String version) {
        List<Integer> versions = subjects.get(subject);
        if (versions == null) {
            return subjectNotFound(subject);
        }
        int v;
        try {
            v = version.equals("latest") ? versions.size() : Integer.parseInt(version);
        } catch (NumberFormatException e) {
            return error(422, 42202, "invalid version " + version);
        }
        if (v < 1 || v > versions.size()) {
            return error(404, 40402, "Version " + version + " not found.");
        }
        return new Answer(200, describe(subject, v, versions.get(v - 1)));
    }

    private ObjectNode describe(String subject, int version, int id) {
        return byId.get(id)
                .putInto(JSON.createObjectNode()
                        .put("subject", subject)
                        .put("version", version)
                        .put("id", id));
    }

    private Answer registerChecked(String subject, String type, String text, List<Reference> references) {
        StoredSchema stored;
        try {
            stored = normalized(type, text, references);
        } catch (RuntimeException e) {
            return invalid(e);
        }
        List<Integer> versions = subjects.computeIfAbsent(subject, k -> new ArrayList<>());
        Integer existing = ids.get(stored);
        if (existing != null && versions.contains(existing)) {
            return new Answer(200, JSON.createObjectNode().put("id", existing));
        }
        if (!versions.isEmpty() && !compatible(stored, byId.get(versions.get(versions.size() - 1)))) {
            if (versions.isEmpty()) {
                subjects.remove(subject);
            }
            return error(
                    409,
                    409,
                    "Schema being registered is incompatible with an earlier schema for subject \"" + subject
                            + "\" (version " + versions.size() + ")");
        }
        int id = existing != null ? existing : nextId.getAndIncrement();
        ids.put(stored, id);
        byId.put(id, stored);
        versions.add(id);
        return new Answer(200, JSON.createObjectNode().put("id", id));
    }

    private Answer lookup(String subject, String type, String text, List<Reference> references) {
        List<Integer> versions = subjects.get(subject);
        if (versions == null) {
            return subjectNotFound(subject);
        }
        StoredSchema stored;
        try {
            stored = normalized(type, text == null ? "" : text, references);
        } catch (RuntimeException e) {
            return invalid(e);
        }
        Integer id = ids.get(stored);
        int index = id == null ? -1 : versions.indexOf(id);
        if (index < 0) {
            return error(404, 40403, "Schema not found");
        }
        return new Answer(200, describe(subject, index + 1, id));
    }

    private Answer compatibilityCheck(String subject, String type, String text, List<Reference> references) {
        List<Integer> versions = subjects.get(subject);
        if (versions == null || versions.isEmpty()) {
            return subjectNotFound(subject);
        }
        StoredSchema stored;
        try {
            stored = normalized(type, text, references);
        } catch (RuntimeException e) {
            return invalid(e);
        }
        return new Answer(
                200,
                JSON.createObjectNode()
                        .put("is_compatible", compatible(stored, byId.get(versions.get(versions.size() - 1)))));
    }

    /** BACKWARD: a reader of the new schema can read what the latest version wrote (Avro only). */
    private boolean compatible(StoredSchema candidate, StoredSchema latest) {
        if (compatibility.equals("NONE")
                || !candidate.type().equals("AVRO")
                || !latest.type().equals("AVRO")) {
            return true;
        }
        Schema reader = candidate.avro(dependencies(candidate.references()));
        Schema writer = latest.avro(dependencies(latest.references()));
        return SchemaCompatibility.checkReaderWriterCompatibility(reader, writer)
                        .getType()
                == SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE;
    }

    /** {@code text} in its normal form ({@link StoredSchema#normalized}); every reference must name a version. */
    private StoredSchema normalized(String type, String text, List<Reference> references) {
        return StoredSchema.normalized(type, text, references, dependencies(references));
    }

    /** The schemas {@code references} name, each after the ones it references itself, each once. */
    private List<StoredSchema> dependencies(List<Reference> references) {
        Map<String, StoredSchema> found = new LinkedHashMap<>();
        collect(references, found);
        return List.copyOf(found.values());
    }

    private void collect(List<Reference> references, Map<String, StoredSchema> found) {
        for (Reference reference : references) {
            String key = reference.subject() + '\u0000' + reference.version();
            if (found.containsKey(key)) {
                continue;
            }
            List<Integer> versions = subjects.get(reference.subject());
            if (versions == null || reference.version() < 1 || reference.version() > versions.size()) {
                throw new IllegalArgumentException("reference '" + reference.name() + "' names version "
                        + reference.version() + " of subject '" + reference.subject()
                        + "', which the registry does not have");
            }
            // a reference must exist before the schema naming it, and versions never change: no cycle can form
            StoredSchema stored = byId.get(versions.get(reference.version() - 1));
            collect(stored.references(), found);
            found.put(key, stored);
        }
    }

    private static Answer invalid(RuntimeException e) {
        return error(422, 42201, "Invalid schema: " + e.getMessage());
    }

    private static Answer subjectNotFound(String subject) {
        return error(404, 40401, "Subject '" + subject + "' not found.");
    }

    private static Answer error(int status, int code, String message) {
        return new Answer(
                status, JSON.createObjectNode().put("error_code", code).put("message", message));
    }

    /** Runs a registry until the process is stopped: {@code --port <port>} (default 8081). */
    public static void main(String[] args) throws InterruptedException {
        int port = 8081;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--port") && i + 1 < args.length) {
                port = Integer.parseInt(args[++i]);
            } else {
                System.err.println("usage: SchemaRegistryServer [--port <port>]");
                System.exit(2);
            }
        }
        SchemaRegistryServer registry = start(port);
        System.out.println("schema registry listening on " + registry.url() + " (in memory; Ctrl-C stops it)");
        new CountDownLatch(1).await();
    }
}
