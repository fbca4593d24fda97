package io.etl.core.internal.config;

import java.util.Collection;
import java.util.Optional;

/** "Did you mean" for misspelt keys, by edit distance. */
final class Suggestions {

    private Suggestions() {
    }

    /** The known name closest to {@code name}, if it is close enough to be a likely typo. */
    static Optional<String> closest(String name, Collection<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : known) {
            int distance = distance(name, candidate);
            if (distance < bestDistance) {
                best = candidate;
                bestDistance = distance;
            }
        }
        int tolerated = Math.max(2, name.length() / 4);
        return best != null && bestDistance > 0 && bestDistance <= tolerated ? Optional.of(best) : Optional.empty();
    }

    /** The message for an unknown key: a suggestion when one is close, else the known keys. */
    static String unknownKey(String name, Collection<String> known) {
        return closest(name, known)
                .map(s -> "unknown key (did you mean " + s + "?)")
                .orElseGet(() -> known.isEmpty()
                        ? "unknown key"
                        : "unknown key (expected one of: " + String.join(", ", known.stream().sorted().toList()) + ")");
    }

    /** Levenshtein distance, case-insensitive. */
    static int distance(String a, String b) {
        String s = a.toLowerCase(java.util.Locale.ROOT);
        String t = b.toLowerCase(java.util.Locale.ROOT);
        int[] previous = new int[t.length() + 1];
        int[] current = new int[t.length() + 1];
        for (int j = 0; j <= t.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= s.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= t.length(); j++) {
                int substitution = previous[j - 1] + (s.charAt(i - 1) == t.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j] + 1, current[j - 1] + 1));
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[t.length()];
    }
}
