package io.etl.kafka.common;

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

/**
 * Checks a client passthrough map ({@code producer:} or {@code consumer:}) before any client exists:
 * <ul>
 *   <li>a key on the connector's denylist is a problem carrying the denylist's reason;</li>
 *   <li>a key kafka-clients does not know (checked against the client's own {@code ConfigDef}) is a
 *       problem, with a suggestion for typos such as {@code linger_ms};</li>
 *   <li>a key that the typed {@code security} section also sets is a problem (say it once).</li>
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

    private ClientPassthrough(String kind, Set<String> known, Map<String, String> denied) {
        this.kind = kind;
        this.known = Collections.unmodifiableSet(new TreeSet<>(known));
        this.denied = Collections.unmodifiableMap(new LinkedHashMap<>(denied));
    }

    /** For a producer passthrough: known keys are {@code ProducerConfig.configNames()}. */
    public static ClientPassthrough producer(Map<String, String> deniedKeyToReason) {
        return new ClientPassthrough("producer", ProducerConfig.configNames(), deniedKeyToReason);
    }

    /** For a consumer passthrough: known keys are {@code ConsumerConfig.configNames()}. */
    public static ClientPassthrough consumer(Map<String, String> deniedKeyToReason) {
        return new ClientPassthrough("consumer", ConsumerConfig.configNames(), deniedKeyToReason);
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
     *                   {@link KafkaSecurityConfig#clientPropertyKeys()})
     */
    public List<ConfigProblem> check(Map<String, String> properties, String path, Set<String> typedKeys) {
        List<ConfigProblem> problems = new ArrayList<>();
        if (properties == null) {
            return problems;
        }
        for (String key : new TreeSet<>(properties.keySet())) {
            String keyPath = path + "." + key;
            String reason = denied.get(key);
            if (reason != null) {
                problems.add(new ConfigProblem(keyPath, "is not allowed: " + reason));
            } else if (!known.contains(key)) {
                String suggestion = suggest(key);
                problems.add(new ConfigProblem(keyPath, "unknown " + kind + " property"
                        + (suggestion == null ? "" : " (did you mean " + suggestion + "?)")));
            } else if (typedKeys.contains(key)) {
                problems.add(new ConfigProblem(keyPath, "is also set by the typed security section; set it in one place"));
            } else if (properties.get(key) == null) {
                problems.add(new ConfigProblem(keyPath, "has no value"));
            }
        }
        return problems;
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
