package io.etl.kafka.source.internal;

import io.etl.core.error.ConfigProblem;
import io.etl.kafka.source.KafkaSourceConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/** Checks the {@code consumer} passthrough map: known consumer keys only, none a typed field owns. */
final class ConsumerPassthrough {

    private static final Set<String> KNOWN = ConsumerConfig.configNames();

    private ConsumerPassthrough() {
    }

    static List<ConfigProblem> problems(Map<String, String> consumer, String path) {
        List<ConfigProblem> problems = new ArrayList<>();
        for (Map.Entry<String, String> e : consumer.entrySet()) {
            String key = e.getKey();
            String keyPath = path + "." + key;
            String denied = KafkaSourceConfig.DENIED_CONSUMER_PROPERTIES.get(key);
            if (denied != null) {
                problems.add(new ConfigProblem(keyPath, denied));
            } else if (!KNOWN.contains(key)) {
                String suggestion = suggest(key);
                problems.add(new ConfigProblem(keyPath, "unknown consumer property"
                        + (suggestion == null ? "" : " (did you mean " + suggestion + "?)")));
            } else if (e.getValue() == null) {
                problems.add(new ConfigProblem(keyPath, "must have a value"));
            }
        }
        return problems;
    }

    /** The closest known key, when it is close enough to be a typo. */
    private static String suggest(String key) {
        String normalized = key.toLowerCase(Locale.ROOT).replace('_', '.').replace('-', '.');
        if (KNOWN.contains(normalized)) {
            return normalized;
        }
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String known : KNOWN) {
            int d = distance(normalized, known);
            if (d < bestDistance) {
                bestDistance = d;
                best = known;
            }
        }
        return bestDistance <= Math.max(2, key.length() / 5) ? best : null;
    }

    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
