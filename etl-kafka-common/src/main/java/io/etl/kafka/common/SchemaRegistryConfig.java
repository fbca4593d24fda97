package io.etl.kafka.common;

import com.fasterxml.jackson.annotation.JsonFormat;
import io.etl.core.config.ConfigValidation;
import io.etl.core.error.ConfigException;
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
import java.util.Objects;

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
 * <p>In code, build one with {@link #custom()} or {@link #from(SchemaRegistryConfig)}:
 * {@code SchemaRegistryConfig.custom().url("https://registry:8081").build()}. However it is built, an instance holds
 * only settings that YAML validation accepts: its constructor checks them.
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

    /**
     * The settings, each null one at its default (no authentication, no TLS block). YAML binding calls this
     * constructor; code reads better with {@link #custom()}.
     *
     * @throws ConfigException when the settings break a rule (no URL, a URL that is not http or https, two kinds
     *                         of authentication, TLS settings without an https URL, ...), naming each
     */
    public SchemaRegistryConfig(
            List<String> url,
            SchemaRegistryBasicAuth basicAuth,
            String bearerToken,
            KafkaTlsConfig tls,
            Boolean autoRegister,
            Boolean useLatestVersion,
            SubjectStrategy subjectStrategy,
            SchemaRegistryCacheConfig cache,
            Duration requestTimeout) {
        this.url = url == null ? List.of() : List.copyOf(url);
        this.basicAuth = basicAuth;
        this.bearerToken = bearerToken;
        this.tls = tls;
        this.autoRegister = autoRegister == null ? DEFAULT_AUTO_REGISTER : autoRegister;
        this.useLatestVersion = useLatestVersion == null ? DEFAULT_USE_LATEST_VERSION : useLatestVersion;
        this.subjectStrategy = subjectStrategy == null ? DEFAULT_SUBJECT_STRATEGY : subjectStrategy;
        this.cache = cache == null ? SchemaRegistryCacheConfig.defaults() : cache;
        this.requestTimeout = requestTimeout == null ? DEFAULT_REQUEST_TIMEOUT : requestTimeout;
        ConfigValidation.checkConstructed(this, c -> c.check(""));
    }

    /** {@code from(this).autoRegister(value).build()}. */
    public SchemaRegistryConfig withAutoRegister(boolean value) {
        return from(this).autoRegister(value).build();
    }

    /** {@code from(this).useLatestVersion(value).build()}. */
    public SchemaRegistryConfig withUseLatestVersion(boolean value) {
        return from(this).useLatestVersion(value).build();
    }

    /** {@code from(this).subjectStrategy(value).build()}. */
    public SchemaRegistryConfig withSubjectStrategy(SubjectStrategy value) {
        return from(this).subjectStrategy(value).build();
    }

    /** {@code from(this).requestTimeout(value).build()}. */
    public SchemaRegistryConfig withRequestTimeout(Duration value) {
        return from(this).requestTimeout(value).build();
    }

    /** {@code from(this).basicAuth(user, password).build()}. */
    public SchemaRegistryConfig withBasicAuth(String user, String password) {
        return from(this).basicAuth(user, password).build();
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
        problems.addAll(urlProblems(path, url));
        if (basicAuth != null && bearerToken != null) {
            problems.add(new ConfigProblem(path + ".bearer_token", "set either basic_auth or bearer_token, not both"));
        }
        bearerTokenProblems(path, bearerToken, problems);
        if (tls != null) {
            if (!url.isEmpty() && url.stream().noneMatch(SchemaRegistryConfig::https)) {
                problems.add(new ConfigProblem(path + ".tls", "is only used with https:// URLs"));
            }
            tlsProblems(path, tls, problems);
        }
        requestTimeoutProblems(path, requestTimeout, problems);
        return problems;
    }

    /** Each URL an absolute http or https URL with a host and without credentials; {@code url[i]} when several. */
    private static List<ConfigProblem> urlProblems(String path, List<String> urls) {
        List<ConfigProblem> problems = new ArrayList<>();
        for (int i = 0; i < urls.size(); i++) {
            String u = urls.get(i);
            String at = path + ".url" + (urls.size() > 1 ? "[" + i + "]" : "");
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
            } catch (URISyntaxException e) {
                problems.add(new ConfigProblem(at, "is not a valid URL: " + e.getReason()));
            }
        }
        return problems;
    }

    /** Whether {@code url} is a well-formed https URL. */
    private static boolean https(String url) {
        if (url == null || url.isBlank()) {
            return false;
        }
        try {
            String scheme = new URI(url.strip()).getScheme();
            return scheme != null && scheme.toLowerCase(Locale.ROOT).equals("https");
        } catch (URISyntaxException e) {
            return false;
        }
    }

    private static void bearerTokenProblems(String path, String bearerToken, List<ConfigProblem> problems) {
        if (bearerToken != null && bearerToken.isBlank()) {
            problems.add(new ConfigProblem(path + ".bearer_token", "must not be blank when set"));
        }
    }

    /** Host names are always checked, and the block's own rules, as the Kafka security section checks them. */
    private static void tlsProblems(String path, KafkaTlsConfig tls, List<ConfigProblem> problems) {
        if (!tls.endpointIdentification()) {
            problems.add(new ConfigProblem(
                    path + ".tls.endpoint_identification",
                    "cannot be switched off for the schema registry: its certificate must name its host"));
        }
        problems.addAll(tls.check(path + ".tls"));
    }

    private static void requestTimeoutProblems(String path, Duration requestTimeout, List<ConfigProblem> problems) {
        if (requestTimeout.compareTo(Duration.ofMillis(1)) < 0) {
            problems.add(new ConfigProblem(path + ".request_timeout", "must be at least 1ms"));
        }
    }

    /** A builder starting from the defaults, without a URL (required). */
    public static Builder custom() {
        return new Builder();
    }

    /** A builder starting from {@code base}. */
    public static Builder from(SchemaRegistryConfig base) {
        return new Builder(Objects.requireNonNull(base, "base"));
    }

    @Override
    public String toString() {
        return "SchemaRegistryConfig[url=" + url + ", basicAuth=" + basicAuth + ", bearerToken="
                + ClientProperties.mask(bearerToken) + ", tls=" + tls + ", autoRegister=" + autoRegister
                + ", useLatestVersion=" + useLatestVersion + ", subjectStrategy=" + subjectStrategy + ", cache="
                + cache + ", requestTimeout=" + requestTimeout + "]";
    }

    /**
     * Builds a {@link SchemaRegistryConfig} in code. Each setter rejects a value that is wrong on its own at once
     * (a URL that is not http or https, a request timeout under 1ms, ...), with the message YAML validation gives;
     * {@link #build()} checks the rules between the settings.
     */
    public static final class Builder {

        private List<String> url = List.of();
        private SchemaRegistryBasicAuth basicAuth;
        private String bearerToken;
        private KafkaTlsConfig tls;
        private boolean autoRegister = DEFAULT_AUTO_REGISTER;
        private boolean useLatestVersion = DEFAULT_USE_LATEST_VERSION;
        private SubjectStrategy subjectStrategy = DEFAULT_SUBJECT_STRATEGY;
        private SchemaRegistryCacheConfig cache = SchemaRegistryCacheConfig.defaults();
        private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;

        private Builder() {}

        private Builder(SchemaRegistryConfig base) {
            url = base.url();
            basicAuth = base.basicAuth();
            bearerToken = base.bearerToken();
            tls = base.tls();
            autoRegister = base.autoRegister();
            useLatestVersion = base.useLatestVersion();
            subjectStrategy = base.subjectStrategy();
            cache = base.cache();
            requestTimeout = base.requestTimeout();
        }

        /** The registry's base URLs, absolute http or https URLs tried in order; at least one is required. */
        public Builder url(List<String> value) {
            List<String> urls = List.copyOf(ConfigValidation.requireNonNull("url", value));
            ConfigValidation.checkValue(SchemaRegistryConfig.class, "url", urls);
            ConfigValidation.requireNone(urlProblems("", urls));
            url = urls;
            return this;
        }

        /** The registry's base URLs, absolute http or https URLs tried in order; at least one is required. */
        public Builder url(String... value) {
            return url(List.of(value));
        }

        /** HTTP basic authentication; not with {@link #bearerToken}. */
        public Builder basicAuth(SchemaRegistryBasicAuth value) {
            basicAuth = ConfigValidation.requireNonNull("basicAuth", value);
            return this;
        }

        /** HTTP basic authentication as {@code user} (not blank) with {@code password}; not with a bearer token. */
        public Builder basicAuth(String user, String password) {
            return basicAuth(SchemaRegistryBasicAuth.custom()
                    .user(user)
                    .password(password)
                    .build());
        }

        /** An {@code Authorization: Bearer} token, not blank; not with {@link #basicAuth}. */
        public Builder bearerToken(String value) {
            ConfigValidation.requireNonNull("bearerToken", value);
            List<ConfigProblem> problems = new ArrayList<>(1);
            bearerTokenProblems("", value, problems);
            ConfigValidation.requireNone(problems);
            bearerToken = value;
            return this;
        }

        /** Trust and client certificate for https URLs; host names are always checked. */
        public Builder tls(KafkaTlsConfig value) {
            ConfigValidation.requireNonNull("tls", value);
            List<ConfigProblem> problems = new ArrayList<>(1);
            tlsProblems("", value, problems);
            ConfigValidation.requireNone(problems);
            tls = value;
            return this;
        }

        /** Whether an encoder registers a schema the subject lacks; default {@value SchemaRegistryConfig#DEFAULT_AUTO_REGISTER}. */
        public Builder autoRegister(boolean value) {
            autoRegister = value;
            return this;
        }

        /**
         * Whether an encoder writes with the subject's latest version; default
         * {@value SchemaRegistryConfig#DEFAULT_USE_LATEST_VERSION}.
         */
        public Builder useLatestVersion(boolean value) {
            useLatestVersion = value;
            return this;
        }

        /** How an encoder names a subject; default {@code TOPIC}. */
        public Builder subjectStrategy(SubjectStrategy value) {
            subjectStrategy = ConfigValidation.requireNonNull("subjectStrategy", value);
            return this;
        }

        /** Cache sizes; default 1000 schemas each way. */
        public Builder cache(SchemaRegistryCacheConfig value) {
            cache = ConfigValidation.requireNonNull("cache", value);
            return this;
        }

        /** Bound of one HTTP request to one URL, at least 1ms; default 10s. */
        public Builder requestTimeout(Duration value) {
            ConfigValidation.checkDuration("requestTimeout", value);
            List<ConfigProblem> problems = new ArrayList<>(1);
            requestTimeoutProblems("", value, problems);
            ConfigValidation.requireNone(problems);
            requestTimeout = value;
            return this;
        }

        /** The settings; the constructor checks the rules between them. */
        public SchemaRegistryConfig build() {
            return new SchemaRegistryConfig(
                    url,
                    basicAuth,
                    bearerToken,
                    tls,
                    autoRegister,
                    useLatestVersion,
                    subjectStrategy,
                    cache,
                    requestTimeout);
        }
    }
}
