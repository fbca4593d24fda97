package io.etl.kafka.common.internal;

import io.etl.core.config.KeySuggestions;
import io.etl.core.error.ConfigProblem;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * Checks a client passthrough map ({@code producer:} or {@code consumer:}) before any client exists:
 * <ul>
 *   <li>a key on the connector's denylist is a problem carrying the denylist's reason;</li>
 *   <li>a librdkafka name the Java client does not know ({@link LibrdkafkaNames}) is a problem naming
 *       what to write instead;</li>
 *   <li>a key kafka-clients does not know (checked against the client's own {@code ConfigDef}) is a
 *       problem, with a suggestion for typos such as {@code linger_ms};</li>
 *   <li>a key that the typed {@code security} section also sets is a problem (say it once);</li>
 *   <li>a value the client's {@code ConfigDef} refuses (wrong type, out of range, not one of the
 *       allowed values) is a problem, so {@code retries: "x"} fails at load time, not at start-up.
 *       The value of a secret key is never repeated in the message.</li>
 * </ul>
 * Security properties ({@code security.protocol}, {@code ssl.*}, {@code sasl.*}) are allowed: the
 * passthrough is the documented alternative to the typed section.
 *
 * <pre>{@code
 * ClientPassthrough producer = ClientPassthrough.producer(Map.of("acks", "forced to all"));
 * List<ConfigProblem> problems = producer.check(config.producer(), "sinks.eu.kafka.producer", Set.of());
 * // sinks.eu.kafka.producer.acks: is not allowed: forced to all
 * }</pre>
 */
public final class ClientPassthrough {

    private final String kind;
    private final Set<String> known;
    private final Map<String, String> denied;
    private final Map<String, String> librdkafka;
    private final Map<String, ConfigDef.ConfigKey> definitions;

    private ClientPassthrough(
            String kind, ConfigDef definition, Map<String, String> denied, Map<String, String> librdkafka) {
        this.kind = kind;
        this.definitions = Map.copyOf(definition.configKeys());
        this.known = Collections.unmodifiableSet(new TreeSet<>(definitions.keySet()));
        this.denied = Collections.unmodifiableMap(new LinkedHashMap<>(denied));
        this.librdkafka = librdkafka;
    }

    /** For a producer passthrough: known keys and their types come from {@code ProducerConfig.configDef()}. */
    public static ClientPassthrough producer(Map<String, String> deniedKeyToReason) {
        return new ClientPassthrough(
                "producer", ProducerConfig.configDef(), deniedKeyToReason, LibrdkafkaNames.producer());
    }

    /** For a consumer passthrough: known keys and their types come from {@code ConsumerConfig.configDef()}. */
    public static ClientPassthrough consumer(Map<String, String> deniedKeyToReason) {
        return new ClientPassthrough(
                "consumer", ConsumerConfig.configDef(), deniedKeyToReason, LibrdkafkaNames.consumer());
    }

    /** The denylist, key to reason, in declaration order. */
    public Map<String, String> denied() {
        return denied;
    }

    /** Whether kafka-clients knows {@code key} for this kind of client. */
    public boolean isKnown(String key) {
        return known.contains(key);
    }

    /**
     * Every problem with {@code properties}, in key order.
     *
     * @param properties the passthrough map (may be null)
     * @param path       the map's own path, e.g. {@code sinks.eu.kafka.producer}
     * @param typedKeys  client properties the typed sections already set (e.g.
     *                   {@link SecurityProperties#clientPropertyKeys})
     */
    public List<ConfigProblem> check(Map<String, String> properties, String path, Set<String> typedKeys) {
        List<ConfigProblem> problems = new ArrayList<>();
        if (properties == null) {
            return problems;
        }
        for (String key : new TreeSet<>(properties.keySet())) {
            String keyPath = path + "." + key;
            String reason = denied.get(key);
            String replacement = librdkafka.get(key);
            if (reason != null) {
                problems.add(new ConfigProblem(keyPath, "is not allowed: " + reason));
            } else if (replacement != null && !known.contains(key)) {
                problems.add(new ConfigProblem(
                        keyPath, "is a librdkafka property the Java " + kind + " does not know; use " + replacement));
            } else if (!known.contains(key)) {
                String suggestion = suggest(key);
                problems.add(new ConfigProblem(
                        keyPath,
                        "unknown " + kind + " property"
                                + (suggestion == null ? "" : " (did you mean " + suggestion + "?)")));
            } else if (typedKeys.contains(key)) {
                problems.add(
                        new ConfigProblem(keyPath, "is also set by the typed security section; set it in one place"));
            } else if (properties.get(key) == null) {
                problems.add(new ConfigProblem(keyPath, "has no value"));
            } else {
                String invalid = invalidValue(key, properties.get(key));
                if (invalid != null) {
                    problems.add(new ConfigProblem(keyPath, invalid));
                }
            }
        }
        return problems;
    }

    /**
     * Why kafka-clients would refuse {@code value} for {@code key} (its type, range or allowed values), or
     * null when it accepts it. Class names are not loaded here: the client resolves them when it starts.
     */
    String invalidValue(String key, String value) {
        ConfigDef.ConfigKey definition = definitions.get(key);
        if (definition == null) {
            return null;
        }
        boolean secret = ClientProperties.isSecret(key) || definition.type == ConfigDef.Type.PASSWORD;
        try {
            if (definition.type == ConfigDef.Type.CLASS) {
                return value.isBlank() ? "must name a class" : null;
            }
            Object parsed = ConfigDef.parseType(key, value, definition.type);
            if (definition.validator != null) {
                definition.validator.ensureValid(key, parsed);
            }
            return null;
        } catch (ConfigException e) {
            String expected = definition.type.name().toLowerCase(Locale.ROOT)
                    + (definition.validator == null ? "" : ", " + definition.validator);
            return secret
                    ? "is not a valid value (expected " + expected + ")"
                    : "invalid value '" + value + "' (expected " + expected + ")";
        }
    }

    /** The known key closest to {@code key}, or null when none is close. */
    String suggest(String key) {
        String normalized = key.toLowerCase(Locale.ROOT).replace('_', '.').replace('-', '.');
        if (known.contains(normalized)) {
            return normalized;
        }
        return KeySuggestions.closest(normalized, known).orElse(null);
    }
}
