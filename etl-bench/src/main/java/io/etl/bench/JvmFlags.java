package io.etl.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The one set of JVM flags a sitting gives every contestant, from {@code --jvm-flags "..."}: none by default, so
 * that every contestant runs on the JVM's defaults, as most users run it. No contestant gets a flag another does not;
 * a class archive, which serves one program only, is asked for with {@code --appcds} (every contestant then records
 * and maps its own) and refused here. {@code {impl}} in a flag becomes the contestant's name, so that files a flag
 * names ({@code -XX:StartFlightRecording=filename=race-{impl}.jfr}) stay apart.
 *
 * <pre>{@code
 * JvmFlags flags = JvmFlags.parse("-XX:+UseSerialGC -Xmx512m");
 * List<String> forEtl = flags.forContestant("etl");
 * }</pre>
 *
 * @param flags the flags, in the order given
 */
record JvmFlags(List<String> flags) {

    /** The option that names the set. */
    static final String OPTION = "--jvm-flags";

    /** No flag: the JVM's defaults. */
    static final JvmFlags DEFAULTS = new JvmFlags(List.of());

    JvmFlags {
        flags = List.copyOf(flags);
        for (String flag : flags) {
            if (ClassArchiveFlags.namesArchive(flag)) {
                throw new IllegalArgumentException(OPTION + " takes no class archive (" + flag
                        + "): an archive serves one program; --appcds gives every contestant its own");
            }
        }
    }

    /** The flags of {@code text}, separated by white space; none for blank text. */
    static JvmFlags parse(String text) {
        return new JvmFlags(Arrays.stream(text.strip().split("\\s+"))
                .filter(flag -> !flag.isEmpty())
                .toList());
    }

    /** The set given with {@link #OPTION}, else {@link #DEFAULTS}. */
    static JvmFlags of(RaceOptions options) {
        return options.text(OPTION).map(JvmFlags::parse).orElse(DEFAULTS);
    }

    /** The flags for the contestant named {@code name}, with {@code {impl}} replaced by that name. */
    List<String> forContestant(String name) {
        String impl = name.toLowerCase(Locale.ROOT);
        return flags.stream().map(flag -> flag.replace("{impl}", impl)).toList();
    }

    /** How a table's caption names the set: {@code the JVM's defaults}, or the flags in backquotes. */
    String describe() {
        return flags.isEmpty() ? "none (the JVM's defaults)" : "`" + String.join(" ", flags) + "`";
    }
}
