package io.etl.bench;

import io.etl.bench.impl.RaceClientSettings;
import io.etl.bench.impl.RaceTopics;
import io.etl.examples.split.KafkaToKafkaSplit;
import io.etl.testkit.BrokerOptions;
import io.etl.testkit.KafkaTestCluster;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What both race modes that fork their contestants ({@link ProcessRace}, {@link LatencyRace}) take from the
 * command line besides their own figures, with the defaults they share.
 *
 * @param contestants {@code --only} (etl, clients, clients_flush, streams)
 * @param runs        {@code --runs} (3)
 * @param jvmFlags    {@code --jvm-flags}: the one flag set of every contestant (none: the JVM's defaults)
 * @param etlJar      {@code --etl-jar}: the example's runnable jar ({@value #DEFAULT_ETL_JAR})
 * @param appCds      {@code --appcds}: train a class archive (from JDK 25 an AOT cache) per contestant before the
 *                    timed runs, each contestant its own
 * @param out         {@code --out}: the Markdown file of the results; the logs go next to it
 * @param brokerWarmUp {@code --broker-warmup N}: orders run through the broker before the first round
 *                    ({@value #DEFAULT_BROKER_WARM_UP}; 0 for none), see {@link BrokerWarmUp}
 * @param kitBroker   {@code --kit-broker}: the forked broker runs with the test kit's quick-starting flags (C1
 *                    only, serial collector, 384 MiB) instead of {@link #BROKER_JVM_FLAGS}
 * @param etlThreads  {@code --etl-threads N}: etl runs with {@code pipeline.threads: N} added to its YAML (given
 *                    with {@code --config}); 0 (the default) leaves the key out
 * @param etlAsShipped whether etl runs the example's YAML as shipped; otherwise with the race's client settings
 *                    ({@link RaceClientSettings#etlYaml}): the process race's default, which
 *                    {@code --etl-as-shipped} turns off; the paced modes race the example as shipped
 */
record ForkedRaceOptions(
        List<ProcessContestant> contestants,
        int runs,
        JvmFlags jvmFlags,
        Path etlJar,
        boolean appCds,
        Path out,
        int brokerWarmUp,
        boolean kitBroker,
        int etlThreads,
        boolean etlAsShipped) {

    /**
     * The race's broker JVM flags: those Kafka's own start script gives a broker ({@code KAFKA_HEAP_OPTS} and
     * {@code KAFKA_JVM_PERFORMANCE_OPTS} of {@code kafka-server-start.sh}), so the broker costs every contestant
     * what a production broker would.
     */
    static final List<String> BROKER_JVM_FLAGS = List.of(
            "-Xmx1G",
            "-Xms1G",
            "-server",
            "-XX:+UseG1GC",
            "-XX:MaxGCPauseMillis=20",
            "-XX:InitiatingHeapOccupancyPercent=35",
            "-XX:+ExplicitGCInvokesConcurrent",
            "-Djava.awt.headless=true");

    /** Orders run through the broker before the first round unless {@code --broker-warmup} says otherwise. */
    static final int DEFAULT_BROKER_WARM_UP = 1_000_000;

    /** Where {@code mvn -pl etl-examples -am package} puts the example's runnable jar. */
    static final String DEFAULT_ETL_JAR = "etl-examples/target/etl-examples.jar";

    /**
     * Reads the shared options; {@code defaultOut} is the mode's own results file. {@code raceClientSettings}: etl
     * runs with the race's client settings unless {@code --etl-as-shipped} is given; otherwise always as shipped.
     */
    static ForkedRaceOptions of(RaceOptions options, Path defaultOut, boolean raceClientSettings) {
        return new ForkedRaceOptions(
                options.list(
                        "--only",
                        ProcessContestant::parse,
                        List.of(
                                ProcessContestant.parse("etl"),
                                ProcessContestant.parse("clients"),
                                ProcessContestant.parse("clients_flush"),
                                ProcessContestant.parse("streams"))),
                options.number("--runs", 3),
                JvmFlags.of(options),
                options.path("--etl-jar", Path.of(DEFAULT_ETL_JAR)),
                options.isSet("--appcds"),
                options.path("--out", defaultOut),
                options.number("--broker-warmup", DEFAULT_BROKER_WARM_UP),
                options.isSet("--kit-broker"),
                options.number("--etl-threads", 0),
                !raceClientSettings || options.isSet("--etl-as-shipped"));
    }

    /**
     * The broker of the race: {@code KAFKA_BROKERS} when set, else a forked broker JVM of its own, started with
     * {@link #brokerOptions(List)}.
     */
    KafkaTestCluster cluster(List<String> moreBrokerFlags) {
        String external = System.getenv("KAFKA_BROKERS");
        return external == null || external.isBlank()
                ? KafkaTestCluster.forkedSingle(brokerOptions(moreBrokerFlags))
                : KafkaTestCluster.external(external);
    }

    /**
     * How the race's forked broker starts: {@link #BROKER_JVM_FLAGS} and {@code moreBrokerFlags} (a GC log, say),
     * or with {@code --kit-broker} the kit's own flags alone.
     */
    BrokerOptions brokerOptions(List<String> moreBrokerFlags) {
        return kitBroker
                ? BrokerOptions.defaults()
                : BrokerOptions.builder()
                        .jvmOptions(ProcessRace.concat(BROKER_JVM_FLAGS, moreBrokerFlags))
                        .build();
    }

    /** The folder beside {@link #out} for the contestants' logs (and archives). */
    Path logs(String name) {
        return out.toAbsolutePath().getParent().resolve(name);
    }

    /**
     * The JVM flags of a run: {@link ProcessRace#COMMON_FLAGS}, the sitting's {@link #jvmFlags}, then {@code own}
     * (this run's, such as its GC log), then the contestant's class archive when {@code archives} has one.
     */
    List<String> flags(ProcessContestant contestant, Map<String, Path> archives, List<String> own) {
        List<String> flags = new ArrayList<>(ProcessRace.COMMON_FLAGS);
        flags.addAll(jvmFlags.forContestant(contestant.contestant().name()));
        flags.addAll(own);
        if (archives.containsKey(contestant.label())) {
            flags.add(ClassArchiveFlags.map(archives.get(contestant.label())));
        }
        return flags;
    }

    /** The command line that forks {@code contestant} on {@code topics} with {@code flags}. */
    List<String> command(ProcessContestant contestant, String bootstrap, RaceTopics topics, List<String> flags) {
        return contestant.command(bootstrap, topics, etlCommand(), flags);
    }

    /**
     * How etl is started: {@link ProcessRace#etlCommand(Path)} when it runs the shipped YAML as it is, otherwise
     * with the YAML it races ({@link RaceClientSettings}, {@code pipeline.threads}) written beside {@link #out} and
     * given with {@code --config}.
     */
    private List<String> etlCommand() {
        if (etlThreads <= 0 && etlAsShipped) {
            return ProcessRace.etlCommand(etlJar);
        }
        String text = KafkaToKafkaSplit.defaultYaml();
        if (!etlAsShipped) {
            text = RaceClientSettings.etlYaml(text);
        }
        if (etlThreads > 0) {
            text = withThreads(text, etlThreads);
        }
        Path yaml = out.toAbsolutePath()
                .getParent()
                .resolve("etl-race" + (etlThreads > 0 ? "-threads-" + etlThreads : "") + ".yaml");
        try {
            Files.createDirectories(yaml.getParent());
            Files.writeString(yaml, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + yaml, e);
        }
        return List.of(
                "-jar", etlJar.toString(), "kafka_to_kafka_split", "--config", yaml.toString(), "--http-port", "0");
    }

    /** {@code yaml} with {@code threads: N} as the first key of its {@code pipeline} section. */
    static String withThreads(String yaml, int threads) {
        Matcher m = Pattern.compile("(?m)^pipeline:\\n").matcher(yaml);
        if (!m.find()) {
            throw new IllegalStateException("the example YAML has no pipeline section");
        }
        return m.replaceFirst("pipeline:\n  threads: " + threads + "\n");
    }

    /** The line under a table that says how etl's YAML differs from the shipped one, if it does. */
    String etlNote() {
        List<String> changes = new ArrayList<>();
        if (!etlAsShipped) {
            changes.add(RaceClientSettings.yamlChange());
        }
        if (etlThreads > 0) {
            changes.add("`pipeline.threads: " + etlThreads + "`");
        }
        return changes.isEmpty()
                ? ""
                : String.format("%netl ran the shipped YAML with %s (`--config`).%n", String.join(" and ", changes));
    }
}
