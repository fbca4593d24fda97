package io.etl.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The command line of one race mode, read against that mode's usage line, the one place that says which
 * options the mode takes: {@code [--name VALUE]} is an option with a value, {@code [--name]} a switch.
 * An option given twice keeps its last value; {@link #all} returns every value of a repeatable one.
 *
 * <pre>{@code
 * RaceOptions options = RaceOptions.parse(args, "--mode process [--records N] [--jvm-flags FLAGS] [--appcds]");
 * int records = options.number("--records", 1_000_000);
 * }</pre>
 */
final class RaceOptions {

    private static final Pattern OPTION = Pattern.compile("\\[(--[a-z-]+)( [^\\]]+)?\\]");

    private final String usage;
    private final Map<String, List<String>> values;
    private final Set<String> switches;

    private RaceOptions(String usage, Map<String, List<String>> values, Set<String> switches) {
        this.usage = usage;
        this.values = values;
        this.switches = switches;
    }

    /**
     * Reads {@code args}.
     *
     * @throws IllegalArgumentException naming an option the usage line does not have, or one whose value is
     *     missing, together with the usage line
     */
    static RaceOptions parse(String[] args, String usage) {
        Set<String> valued = new HashSet<>();
        Set<String> known = new HashSet<>();
        Matcher m = OPTION.matcher(usage);
        while (m.find()) {
            known.add(m.group(1));
            if (m.group(2) != null) {
                valued.add(m.group(1));
            }
        }
        Map<String, List<String>> values = new HashMap<>();
        Set<String> switches = new HashSet<>();
        for (int i = 0; i < args.length; i++) {
            String name = args[i];
            if (!known.contains(name)) {
                throw new IllegalArgumentException("unknown option " + name + "; usage: " + usage);
            }
            if (!valued.contains(name)) {
                switches.add(name);
            } else if (i + 1 < args.length) {
                values.computeIfAbsent(name, k -> new ArrayList<>()).add(args[++i]);
            } else {
                throw new IllegalArgumentException(name + " needs a value; usage: " + usage);
            }
        }
        return new RaceOptions(usage, values, switches);
    }

    /** The last value of {@code name}, if given. */
    Optional<String> text(String name) {
        List<String> given = all(name);
        return given.isEmpty() ? Optional.empty() : Optional.of(given.get(given.size() - 1));
    }

    /** Every value of a repeatable option, in the order given. */
    List<String> all(String name) {
        return List.copyOf(values.getOrDefault(name, List.of()));
    }

    /** The whole number given for {@code name}, else {@code defaultValue}. */
    int number(String name, int defaultValue) {
        return text(name).map(v -> parseNumber(name, v)).orElse(defaultValue);
    }

    /** The file given for {@code name}, else {@code defaultValue}. */
    Path path(String name, Path defaultValue) {
        return text(name).map(Path::of).orElse(defaultValue);
    }

    /** The comma-separated items given for {@code name}, each read by {@code parse}, else {@code defaults}. */
    <T> List<T> list(String name, Function<String, T> parse, List<T> defaults) {
        return text(name)
                .map(v -> Arrays.stream(v.split(",")).map(parse).toList())
                .orElse(defaults);
    }

    /** Whether the switch {@code name} was given. */
    boolean isSet(String name) {
        return switches.contains(name);
    }

    private int parseNumber(String name, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " takes a whole number, not " + value + "; usage: " + usage, e);
        }
    }
}
