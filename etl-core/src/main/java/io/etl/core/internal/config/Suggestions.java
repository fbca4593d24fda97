package io.etl.core.internal.config;

import io.etl.core.config.KeySuggestions;
import io.etl.core.config.RenamedKey;
import java.util.Collection;
import java.util.Optional;

/** "Did you mean" for misspelt keys, by edit distance. */
final class Suggestions {

    private Suggestions() {
    }

    /** The known name closest to {@code name}, if it is close enough to be a likely typo. */
    static Optional<String> closest(String name, Collection<String> known) {
        return KeySuggestions.closest(name, known);
    }

    /**
     * The message for an unknown key of a record of {@code type}: the new name when {@code type} declares the key
     * {@linkplain RenamedKey renamed}, else as {@link #unknownKey(String, Collection)}.
     */
    static String unknownKey(String name, Collection<String> known, Class<?> type) {
        if (type != null) {
            for (RenamedKey renamed : type.getAnnotationsByType(RenamedKey.class)) {
                if (renamed.from().equals(name)) {
                    return "unknown key (renamed to " + renamed.to() + ")";
                }
            }
        }
        return unknownKey(name, known);
    }

    /** The message for an unknown key: a suggestion when one is close, else the known keys. */
    static String unknownKey(String name, Collection<String> known) {
        return closest(name, known)
                .map(s -> "unknown key (did you mean " + s + "?)")
                .orElseGet(() -> known.isEmpty()
                        ? "unknown key"
                        : "unknown key (expected one of: " + String.join(", ", known.stream().sorted().toList()) + ")");
    }
}
