package io.etl.core.internal.config;

import io.etl.core.config.KeySuggestions;
import java.util.Collection;
import java.util.Optional;

/** "Did you mean" for misspelt keys, by edit distance. */
final class Suggestions {

    private Suggestions() {}

    /** The known name closest to {@code name}, if it is close enough to be a likely typo. */
    static Optional<String> closest(String name, Collection<String> known) {
        return KeySuggestions.closest(name, known);
    }

    /** The message for an unknown key: a suggestion when one is close, else the known keys. */
    static String unknownKey(String name, Collection<String> known) {
        return closest(name, known)
                .map(s -> "unknown key (did you mean " + s + "?)")
                .orElseGet(() -> known.isEmpty()
                        ? "unknown key"
                        : "unknown key (expected one of: "
                                + String.join(", ", known.stream().sorted().toList()) + ")");
    }
}
