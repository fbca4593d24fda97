package io.etl.bench;

import io.etl.bench.impl.Contestant;
import io.etl.bench.impl.ContestantMain;
import io.etl.bench.impl.RaceTopics;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A contestant of the forked races and the command that starts it as its user would: etl as the example's
 * runnable jar ({@code java -jar etl-examples.jar kafka_to_kafka_split}, service mode through
 * {@code KAFKA_BROKERS}), the baselines as {@link ContestantMain} programs. Every contestant gets the same JVM
 * flags ({@link JvmFlags}); none carries flags of its own.
 *
 * @param contestant which implementation
 */
public record ProcessContestant(Contestant contestant) {

    /** Parses {@code etl}, {@code clients}, {@code clients_flush}, {@code streams}, ... */
    public static ProcessContestant parse(String text) {
        if (text.contains(":")) {
            throw new IllegalArgumentException("'" + text + "': a contestant takes no JVM flags of its own; "
                    + JvmFlags.OPTION + " \"...\" gives one set to every contestant");
        }
        return new ProcessContestant(Contestant.parse(text));
    }

    /** The name in the results table. */
    public String label() {
        return contestant.label();
    }

    /** A name for files of this contestant: letters, digits and dashes only. */
    public String fileName() {
        return label().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
    }

    /**
     * The command line.
     *
     * @param etlCommand the command that starts the etl pipeline after its JVM flags (e.g. {@code -jar
     *                   etl-examples.jar kafka_to_kafka_split})
     * @param jvmFlags   the JVM flags, the same for every contestant of a sitting
     */
    public List<String> command(String bootstrap, RaceTopics topics, List<String> etlCommand, List<String> jvmFlags) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
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
