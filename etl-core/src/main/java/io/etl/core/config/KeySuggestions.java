package io.etl.core.config;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/**
 * "Did you mean": the known key closest to a misspelt one, by case-insensitive edit distance. Used for
 * unknown configuration keys, and by connectors for unknown client passthrough properties.
 */
public final class KeySuggestions {

    private KeySuggestions() {}

    /**
     * The known key closest to {@code name}, when it is close enough to be a likely typo (at most
     * {@code max(2, length / 4)} edits) and not {@code name} itself.
     */
    public static Optional<String> closest(String name, Collection<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : known) {
            int d = distance(name, candidate);
            if (d < bestDistance) {
                best = candidate;
                bestDistance = d;
            }
        }
        int tolerated = Math.max(2, name.length() / 4);
        return best != null && bestDistance > 0 && bestDistance <= tolerated ? Optional.of(best) : Optional.empty();
    }

    /** Levenshtein distance, case-insensitive. */
    static int distance(String a, String b) {
        String s = a.toLowerCase(Locale.ROOT);
        String t = b.toLowerCase(Locale.ROOT);
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
