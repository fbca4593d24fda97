package io.etl.bench;

import io.etl.bench.impl.Contestant;
import io.etl.bench.impl.ContestantMain;
import io.etl.bench.impl.RaceTopics;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A contestant of the process race and the command that starts it as its user would: etl as the
 * example's runnable jar ({@code java -jar etl-examples.jar kafka_to_kafka_split}, service mode through
 * {@code KAFKA_BROKERS}), the baselines as {@link ContestantMain} programs. Written {@code etl},
 * {@code clients}, {@code streams}, optionally followed by {@code :} and JVM flags for this contestant
 * only, separated by spaces ({@code etl:-Xmx256m}).
 *
 * @param contestant which implementation
 * @param jvmFlags   flags for this contestant only
 */
public record ProcessContestant(Contestant contestant, List<String> jvmFlags) {

    /** Parses {@code etl}, {@code etl:-Xmx256m -XX:+UseSerialGC}, ... */
    public static ProcessContestant parse(String text) {
        int colon = text.indexOf(':');
        if (colon < 0) {
            return new ProcessContestant(Contestant.parse(text), List.of());
        }
        return new ProcessContestant(
                Contestant.parse(text.substring(0, colon)),
                Arrays.stream(text.substring(colon + 1).trim().split("\\s+"))
                        .filter(s -> !s.isEmpty())
                        .toList());
    }

    /** The name in the results table: the label, with this contestant's own flags. */
    public String label() {
        return jvmFlags.isEmpty() ? contestant.label() : contestant.label() + " " + String.join(" ", jvmFlags);
    }

    /** A name for files of this contestant: letters, digits and dashes only. */
    public String fileName() {
        return label().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
    }

    /**
     * The command line.
     *
     * @param etlCommand the command that starts the etl pipeline before its arguments (e.g. {@code -jar
     *                   etl-examples.jar kafka_to_kafka_split})
     * @param commonFlags JVM flags for every contestant
     */
    public List<String> command(
            String bootstrap, RaceTopics topics, List<String> etlCommand, List<String> commonFlags) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(commonFlags);
        command.addAll(jvmFlags);
        if (contestant == Contestant.ETL) {
            command.addAll(etlCommand);
        } else {
            command.addAll(List.of(
                    "-cp",
                    System.getProperty("java.class.path"),
                    ContestantMain.class.getName(),
                    contestant.name(),
                    bootstrap,
                    topics.prefix()));
        }
        return command;
    }
}
