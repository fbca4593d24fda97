package io.etl.kafka.common;

import com.fasterxml.jackson.annotation.JsonFormat;
import io.etl.core.error.ConfigProblem;
import io.etl.kafka.common.internal.ClientProperties;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The {@code schema_registry} block of a Kafka source's or sink's {@code kafka} section: where the schema
 * registry is and how the Avro, Protobuf and JSON Schema decoders and encoders of that connector use it.
 *
 * <pre>{@code
 * schema_registry:
 *   url: [https://registry-a:8081, https://registry-b:8081]   # one URL or a list, tried in order
 *   basic_auth: {user: etl, password: "${REGISTRY_PASSWORD}"}
 *   tls: {ca_file: /etc/registry/ca.pem}
 *   auto_register: false                                       # sinks: schemas are managed elsewhere
 *   subject_strategy: topic                                    # <topic>-value / <topic>-key
 * }</pre>
 *
 * @param url              the registry's base URL, or several: a request that cannot reach one (refused, timed
 *                         out, 5xx) tries the next
 * @param basicAuth        HTTP basic authentication
 * @param bearerToken      an {@code Authorization: Bearer} token, instead of {@code basic_auth}
 * @param tls              trust and client certificate for {@code https} URLs (the shape of the Kafka
 *                         {@code security.tls} block); absent means the JVM's default trust store
 * @param autoRegister     whether an encoder registers a schema the subject does not have yet; default false,
 *                         since production registries are usually managed by a deployment pipeline
 * @param useLatestVersion whether an encoder writes with the subject's latest version (which must then be the
 *                         record's own schema) instead of looking its schema up
 * @param subjectStrategy  how an encoder names the subject of a topic's values or keys
 * @param cache            cache sizes
 * @param requestTimeout   bound of one HTTP request to one URL
 */
public record SchemaRegistryConfig(
        @JsonFormat(with = JsonFormat.Feature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
        List<@NotBlank String> url,

        @Valid SchemaRegistryBasicAuth basicAuth,
        String bearerToken,
        @Valid KafkaTlsConfig tls,
        Boolean autoRegister,
        Boolean useLatestVersion,
        SubjectStrategy subjectStrategy,
        @Valid SchemaRegistryCacheConfig cache,
        Duration requestTimeout) {

    public static final boolean DEFAULT_AUTO_REGISTER = false;
    public static final boolean DEFAULT_USE_LATEST_VERSION = false;
    public static final SubjectStrategy DEFAULT_SUBJECT_STRATEGY = SubjectStrategy.TOPIC;
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);

    /** How a subject name is derived, as Confluent's serializers name them. */
    public enum SubjectStrategy {
        /** {@code <topic>-value} and {@code <topic>-key}: one schema lineage per topic. */
        TOPIC,
        /** The record's full name ({@code com.acme.Order}): one lineage per record type, across topics. */
        RECORD,
        /** {@code <topic>-<record full name>}: several record types in one topic. */
        TOPIC_RECORD;

        /** The subject of a topic's values ({@code key} false) or keys, for a record type named {@code recordName}. */
        public String subject(String topic, boolean key, String recordName) {
            return switch (this) {
                case TOPIC -> topic + (key ? "-key" : "-value");
                case RECORD -> recordName;
                case TOPIC_RECORD -> topic + "-" + recordName;
            };
        }
    }

    public SchemaRegistryConfig {
        url = url == null ? List.of() : List.copyOf(url);
        autoRegister = autoRegister == null ? DEFAULT_AUTO_REGISTER : autoRegister;
        useLatestVersion = useLatestVersion == null ? DEFAULT_USE_LATEST_VERSION : useLatestVersion;
        subjectStrategy = subjectStrategy == null ? DEFAULT_SUBJECT_STRATEGY : subjectStrategy;
        cache = cache == null ? SchemaRegistryCacheConfig.defaults() : cache;
        requestTimeout = requestTimeout == null ? DEFAULT_REQUEST_TIMEOUT : requestTimeout;
    }

    /** A registry at {@code urls} with every other setting at its default. */
    public static SchemaRegistryConfig of(String... urls) {
        return new SchemaRegistryConfig(List.of(urls), null, null, null, null, null, null, null, null);
    }

    /** A copy with {@code auto_register} set. */
    public SchemaRegistryConfig withAutoRegister(boolean value) {
        return new SchemaRegistryConfig(
                url, basicAuth, bearerToken, tls, value, useLatestVersion, subjectStrategy, cache, requestTimeout);
    }

    /** A copy with {@code use_latest_version} set. */
    public SchemaRegistryConfig withUseLatestVersion(boolean value) {
        return new SchemaRegistryConfig(
                url, basicAuth, bearerToken, tls, autoRegister, value, subjectStrategy, cache, requestTimeout);
    }

    /** A copy with another {@code subject_strategy}. */
    public SchemaRegistryConfig withSubjectStrategy(SubjectStrategy value) {
        return new SchemaRegistryConfig(
                url, basicAuth, bearerToken, tls, autoRegister, useLatestVersion, value, cache, requestTimeout);
    }

    /** A copy with another {@code request_timeout}. */
    public SchemaRegistryConfig withRequestTimeout(Duration value) {
        return new SchemaRegistryConfig(
                url, basicAuth, bearerToken, tls, autoRegister, useLatestVersion, subjectStrategy, cache, value);
    }

    /** A copy with basic authentication. */
    public SchemaRegistryConfig withBasicAuth(String user, String password) {
        return new SchemaRegistryConfig(
                url,
                new SchemaRegistryBasicAuth(user, password),
                bearerToken,
                tls,
                autoRegister,
                useLatestVersion,
                subjectStrategy,
                cache,
                requestTimeout);
    }

    /**
     * Rules a record cannot express, checked offline ({@code validate}): at least one URL, each an absolute
     * {@code http} or {@code https} URL; one kind of authentication; TLS settings only with {@code https}, and
     * readable files. {@code path} is the block's own path, e.g. {@code sinks.ledger.kafka.schema_registry}.
     */
    public List<ConfigProblem> check(String path) {
        List<ConfigProblem> problems = new ArrayList<>();
        if (url.isEmpty()) {
            problems.add(new ConfigProblem(path + ".url", "is required: the registry's URL, or a list of them"));
        }
        boolean https = false;
        for (int i = 0; i < url.size(); i++) {
            String u = url.get(i);
            String at = path + ".url" + (url.size() > 1 ? "[" + i + "]" : "");
            if (u == null || u.isBlank()) {
                continue; // Bean Validation names it
            }
            try {
                URI uri = new URI(u.strip());
                String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
                if (!scheme.equals("http") && !scheme.equals("https")) {
                    problems.add(new ConfigProblem(at, "must be an http:// or https:// URL; got '" + u + "'"));
                } else if (uri.getHost() == null) {
                    problems.add(new ConfigProblem(at, "has no host: '" + u + "'"));
                } else if (uri.getUserInfo() != null) {
                    problems.add(new ConfigProblem(at, "must not carry credentials: set basic_auth instead"));
                }
                https |= scheme.equals("https");
            } catch (URISyntaxException e) {
                problems.add(new ConfigProblem(at, "is not a valid URL: " + e.getReason()));
            }
        }
        if (basicAuth != null && bearerToken != null) {
            problems.add(new ConfigProblem(path + ".bearer_token", "set either basic_auth or bearer_token, not both"));
        }
        if (bearerToken != null && bearerToken.isBlank()) {
            problems.add(new ConfigProblem(path + ".bearer_token", "must not be blank when set"));
        }
        if (tls != null) {
            if (!https && !url.isEmpty()) {
                problems.add(new ConfigProblem(path + ".tls", "is only used with https:// URLs"));
            }
            if (!tls.endpointIdentification()) {
                problems.add(new ConfigProblem(
                        path + ".tls.endpoint_identification",
                        "cannot be switched off for the schema registry: its certificate must name its host"));
            }
            // the TLS block's own rules, as the Kafka security section checks them
            problems.addAll(new KafkaSecurityConfig(SecurityProtocol.SSL, tls, null).check(path, Set.of()));
        }
        if (requestTimeout.compareTo(Duration.ofMillis(1)) < 0) {
            problems.add(new ConfigProblem(path + ".request_timeout", "must be at least 1ms"));
        }
        return problems;
    }

    @Override
    public String toString() {
        return "SchemaRegistryConfig[url=" + url + ", basicAuth=" + basicAuth + ", bearerToken="
                + ClientProperties.mask(bearerToken) + ", tls=" + tls + ", autoRegister=" + autoRegister
                + ", useLatestVersion=" + useLatestVersion + ", subjectStrategy=" + subjectStrategy + ", cache="
                + cache + ", requestTimeout=" + requestTimeout + "]";
    }
}
