package io.etl.schema.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.etl.kafka.common.SchemaRegistryConfig;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client of the Confluent schema-registry REST API on the JDK {@link HttpClient}: schemas by id, registration,
 * lookup of a schema under a subject, versions, compatibility and the schemas a schema references. Answers about
 * ids, about (subject, schema) pairs and about numbered versions (what references name) never change, so they are
 * cached (bounded by {@code schema_registry.cache}); nothing else is.
 *
 * <p>Each request tries the configured URLs in turn, starting with the one that answered last, and moves on when
 * one cannot be reached, times out ({@code request_timeout}) or answers 5xx; when none answers the request fails
 * with an {@linkplain RegistryException#unavailable() unavailable} {@link RegistryException}, which the caller
 * retries later. Thread-safe.
 */
public final class RegistryClient {

    private static final Logger LOG = LoggerFactory.getLogger(RegistryClient.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";

    private final List<URI> urls;
    private final HttpClient http;
    private final Duration timeout;
    private final String authorization;
    private final RegistryMetrics metrics;
    private final BoundedCache<Integer, SchemaText> byId;
    private final BoundedCache<SubjectSchema, Integer> bySchema;
    private final BoundedCache<Numbered, SubjectVersion> byVersion;
    private volatile int preferred;

    private record SubjectSchema(String subject, SchemaText schema) {}

    private record Numbered(String subject, int version) {}

    /**
     * @param config  the {@code schema_registry} block (already checked)
     * @param path    its path, for errors about its TLS files
     * @param metrics where requests are counted
     */
    public RegistryClient(SchemaRegistryConfig config, String path, RegistryMetrics metrics) {
        this.urls = new ArrayList<>();
        for (String u : config.url()) {
            String s = u.strip();
            urls.add(URI.create(s.endsWith("/") ? s : s + "/"));
        }
        if (urls.isEmpty()) {
            throw new IllegalArgumentException(path + ".url: no schema registry URL");
        }
        this.timeout = config.requestTimeout();
        HttpClient.Builder builder =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout);
        if (config.tls() != null) {
            builder.sslContext(RegistryTls.context(config.tls(), path + ".tls"));
        }
        this.http = builder.build();
        if (config.basicAuth() != null) {
            String pair = config.basicAuth().user() + ":" + config.basicAuth().password();
            this.authorization = "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
        } else if (config.bearerToken() != null) {
            this.authorization = "Bearer " + config.bearerToken();
        } else {
            this.authorization = null;
        }
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.byId = new BoundedCache<>(config.cache().byId());
        this.bySchema = new BoundedCache<>(config.cache().bySchema());
        this.byVersion = new BoundedCache<>(config.cache().byId());
    }

    /** The URLs, as configured, for messages. */
    public String urls() {
        return urls.toString();
    }

    /** The schema with global id {@code id}; cached. */
    public SchemaText schemaById(int id) {
        SchemaText cached = byId.get(id);
        if (cached != null) {
            return cached;
        }
        JsonNode answer = send("schema_by_id", "GET", "schemas/ids/" + id, null);
        SchemaText schema = schemaOf(answer);
        byId.put(id, schema);
        return schema;
    }

    /** Registers {@code schema} under {@code subject} (or finds it registered already) and returns its id; cached. */
    public int register(String subject, SchemaText schema) {
        SubjectSchema key = new SubjectSchema(subject, schema);
        Integer cached = bySchema.get(key);
        if (cached != null) {
            return cached;
        }
        JsonNode answer = send("register", "POST", "subjects/" + encode(subject) + "/versions", body(schema));
        int id = answer.path("id").asInt(-1);
        remember(key, id, schema);
        return id;
    }

    /**
     * The version of {@code subject} that holds {@code schema}; a {@link RegistryException} that is
     * {@link RegistryException#notFound()} when the subject or the schema under it is unknown. Its id is cached.
     */
    public SubjectVersion lookup(String subject, SchemaText schema) {
        JsonNode answer = send("lookup", "POST", "subjects/" + encode(subject), body(schema));
        SubjectVersion version = versionOf(subject, answer, schema);
        remember(new SubjectSchema(subject, schema), version.id(), schema);
        return version;
    }

    /** The id of {@code schema} under {@code subject}, from the cache or by {@link #lookup}. */
    public int idOf(String subject, SchemaText schema) {
        Integer cached = bySchema.get(new SubjectSchema(subject, schema));
        return cached != null ? cached : lookup(subject, schema).id();
    }

    /** Version {@code version} ({@code "latest"} or a number) of {@code subject}. */
    public SubjectVersion version(String subject, String version) {
        JsonNode answer = send("version", "GET", "subjects/" + encode(subject) + "/versions/" + encode(version), null);
        SubjectVersion v = versionOf(subject, answer, null);
        byId.put(v.id(), v.schema());
        return v;
    }

    /**
     * Whether {@code schema} may be registered as the next version of {@code subject} under its compatibility
     * rule; true when the subject has no version yet.
     */
    public boolean compatible(String subject, SchemaText schema) {
        try {
            JsonNode answer = send(
                    "compatibility",
                    "POST",
                    "compatibility/subjects/" + encode(subject) + "/versions/latest",
                    body(schema));
            return answer.path("is_compatible").asBoolean(false);
        } catch (RegistryException e) {
            if (e.notFound()) {
                return true; // nothing registered yet: anything is compatible
            }
            throw e;
        }
    }

    /**
     * The schemas {@code schema} references, in the order one parser must read them: depth first, the schemas a
     * referenced schema references before it, each (subject, version) once; none when it has no references. Each
     * version is asked for once and cached. A version the registry does not have is a
     * {@link RegistryException#notFound() not found} error naming the reference, its subject and version; references
     * that form a cycle are an error naming them.
     */
    public List<SubjectVersion> referencedSchemas(SchemaText schema) {
        return References.inDependencyOrder(schema.references(), this::referenced);
    }

    /**
     * The schema {@code reference} names, from the cache once {@link #referencedSchemas} (or this) fetched it; a
     * version the registry does not have is a {@link RegistryException#notFound() not found} error naming it.
     */
    SubjectVersion referenced(SchemaReference reference) {
        Numbered key = new Numbered(reference.subject(), reference.version());
        SubjectVersion cached = byVersion.get(key);
        if (cached != null) {
            return cached;
        }
        SubjectVersion version;
        try {
            version = version(reference.subject(), Integer.toString(reference.version()));
        } catch (RegistryException e) {
            if (!e.notFound()) {
                throw e;
            }
            throw new RegistryException(
                    "the schema registry does not have the referenced schema " + reference.describe() + ": "
                            + e.getMessage(),
                    e.status(),
                    e.errorCode(),
                    false,
                    e);
        }
        byVersion.put(key, version);
        return version;
    }

    /** Every subject the registry has. */
    public List<String> subjects() {
        JsonNode answer = send("subjects", "GET", "subjects", null);
        List<String> subjects = new ArrayList<>();
        answer.forEach(n -> subjects.add(n.asText()));
        return subjects;
    }

    private void remember(SubjectSchema key, int id, SchemaText schema) {
        if (id < 0) {
            throw new RegistryException(
                    "schema registry " + urls + " answered without an id for subject '" + key.subject() + "'",
                    200,
                    0,
                    false,
                    null);
        }
        bySchema.put(key, id);
        byId.put(id, schema);
    }

    private static SchemaText schemaOf(JsonNode answer) {
        String schema = answer.path("schema").asText(null);
        if (schema == null) {
            throw new RegistryException("the schema registry's answer has no schema: " + answer, 200, 0, false, null);
        }
        return new SchemaText(answer.path("schemaType").asText(null), schema, referencesOf(answer));
    }

    private static List<SchemaReference> referencesOf(JsonNode answer) {
        JsonNode array = answer.path("references");
        if (!array.isArray() || array.isEmpty()) {
            return List.of();
        }
        List<SchemaReference> references = new ArrayList<>(array.size());
        for (JsonNode r : array) {
            if (!r.path("name").isTextual()
                    || !r.path("subject").isTextual()
                    || !r.path("version").canConvertToInt()) {
                throw new RegistryException(
                        "the schema registry's answer has a reference without a name, subject or version: " + r,
                        200,
                        0,
                        false,
                        null);
            }
            references.add(new SchemaReference(
                    r.get("name").asText(),
                    r.get("subject").asText(),
                    r.get("version").asInt()));
        }
        return references;
    }

    private static SubjectVersion versionOf(String subject, JsonNode answer, SchemaText known) {
        SchemaText schema = known != null && !answer.hasNonNull("schema") ? known : schemaOf(answer);
        return new SubjectVersion(
                answer.path("subject").asText(subject),
                answer.path("version").asInt(-1),
                answer.path("id").asInt(-1),
                schema);
    }

    private static String body(SchemaText schema) {
        ObjectNode node = JSON.createObjectNode();
        node.put("schema", schema.schema());
        if (!SchemaText.AVRO.equals(schema.type())) {
            node.put("schemaType", schema.type());
        }
        if (!schema.references().isEmpty()) {
            ArrayNode references = node.putArray("references");
            for (SchemaReference r : schema.references()) {
                references
                        .addObject()
                        .put("name", r.name())
                        .put("subject", r.subject())
                        .put("version", r.version());
            }
        }
        return node.toString();
    }

    private static String encode(String part) {
        return URLEncoder.encode(part, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /**
     * Sends one request, failing over from URL to URL; the parsed JSON answer of the first URL that answers with
     * something other than 5xx.
     */
    private JsonNode send(String operation, String method, String relative, String body) {
        long start = System.nanoTime();
        List<String> failures = new ArrayList<>(urls.size());
        int first = preferred;
        for (int attempt = 0; attempt < urls.size(); attempt++) {
            int index = (first + attempt) % urls.size();
            URI uri = urls.get(index).resolve(relative);
            HttpRequest.Builder request =
                    HttpRequest.newBuilder(uri).timeout(timeout).header("Accept", CONTENT_TYPE + ", application/json");
            if (authorization != null) {
                request.header("Authorization", authorization);
            }
            if (body != null) {
                request.header("Content-Type", CONTENT_TYPE)
                        .method(method, HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
            } else {
                request.method(method, HttpRequest.BodyPublishers.noBody());
            }
            HttpResponse<String> response;
            try {
                response = http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            } catch (IOException e) {
                failures.add(urls.get(index) + ": " + describe(e));
                continue;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                metrics.request(operation, "unavailable", System.nanoTime() - start);
                throw new RegistryException(
                        "interrupted while asking the schema registry " + urls.get(index), 0, 0, true, e);
            }
            int status = response.statusCode();
            if (status >= 500 || status == 408 || status == 429) {
                failures.add(urls.get(index) + ": HTTP " + status + " " + errorMessage(response.body()));
                continue;
            }
            if (index != first) {
                preferred = index;
                LOG.info("schema registry: {} answers, after {}", urls.get(index), failures);
            }
            if (status >= 200 && status < 300) {
                metrics.request(operation, "ok", System.nanoTime() - start);
                try {
                    return JSON.readTree(response.body());
                } catch (IOException e) {
                    throw new RegistryException(
                            "schema registry " + urls.get(index) + " answered " + method + " /" + relative
                                    + " with a body that is not JSON",
                            status,
                            status,
                            false,
                            e);
                }
            }
            JsonNode error = parseQuietly(response.body());
            int code = error.path("error_code").asInt(status);
            String message = error.path("message").asText(response.body());
            boolean denied = status == 401 || status == 403;
            metrics.request(
                    operation,
                    denied ? "unavailable" : status == 404 ? "not_found" : "error",
                    System.nanoTime() - start);
            throw new RegistryException(
                    "schema registry " + urls.get(index) + " answered " + method + " /" + relative + " with HTTP "
                            + status + (code != status ? " (error code " + code + ")" : "") + ": " + message
                            + (denied ? " (check schema_registry.basic_auth or bearer_token)" : ""),
                    status,
                    code,
                    denied,
                    null);
        }
        metrics.request(operation, "unavailable", System.nanoTime() - start);
        throw new RegistryException(
                "schema registry did not answer " + method + " /" + relative + ": " + String.join("; ", failures),
                0,
                0,
                true,
                null);
    }

    private static String describe(IOException e) {
        String message = e.getMessage();
        Throwable cause = e.getCause();
        if ((message == null || message.isEmpty()) && cause != null) {
            message = cause.toString();
        }
        return e.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }

    private static String errorMessage(String body) {
        JsonNode node = parseQuietly(body);
        String message = node.path("message").asText("");
        return message.isEmpty() ? (body.length() > 200 ? body.substring(0, 200) : body) : message;
    }

    private static JsonNode parseQuietly(String body) {
        try {
            JsonNode node = JSON.readTree(body);
            return node == null ? JSON.createObjectNode() : node;
        } catch (IOException e) {
            return JSON.createObjectNode();
        }
    }
}
