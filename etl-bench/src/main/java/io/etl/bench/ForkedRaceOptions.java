package io.etl.bench;

import io.etl.bench.impl.Contestant;
import io.etl.bench.impl.RaceTopics;
import io.etl.examples.split.ClassArchiveFlags;
import io.etl.testkit.BrokerOptions;
import io.etl.testkit.KafkaTestCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BiPredicate;
import java.util.regex.Pattern;

/**
 * What both race modes that fork their contestants ({@link ProcessRace}, {@link LatencyRace}) take from the
 * command line besides their own figures, with the defaults they share.
 *
 * @param contestants {@code --only} (etl, clients, clients_flush, streams)
 * @param runs        {@code --runs} (3)
 * @param jvmArgs     every {@code --jvm-arg}, for every contestant
 * @param etlJar      {@code --etl-jar}: the example's runnable jar ({@value #DEFAULT_ETL_JAR})
 * @param appCds      {@code --appcds}: train a class archive (from JDK 25 an AOT cache) per contestant before the timed runs
 * @param etlArchive  the class archive etl is started with when a run brings none of its own: the one the build
 *                    recorded next to the jar ({@code etl-examples.jsa}, as the README starts the service), unless
 *                    {@code --no-etl-archive} or {@code --appcds} was given, it is missing, or the race's JVM would
 *                    not map it (another JDK recorded it: the race says so)
 * @param out         {@code --out}: the Markdown file of the results; the logs go next to it
 * @param brokerWarmUp {@code --broker-warmup N}: orders run through the broker before the first round
 *                    ({@value #DEFAULT_BROKER_WARM_UP}; 0 for none), see {@link BrokerWarmUp}
 * @param kitBroker   {@code --kit-broker}: the forked broker runs with the test kit's quick-starting flags (C1
 *                    only, serial collector, 384 MiB), as every race did before 2026-12-04, instead of
 *                    {@link #BROKER_JVM_FLAGS}
 */
record ForkedRaceOptions(
        List<ProcessContestant> contestants,
        int runs,
        List<String> jvmArgs,
        Path etlJar,
        boolean appCds,
        Optional<Path> etlArchive,
        Path out,
        int brokerWarmUp,
        boolean kitBroker) {

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

    /** A flag that chooses the collector: {@code -XX:+UseG1GC}, {@code -XX:+UseParallelGC}, ... */
    static final Pattern COLLECTOR = Pattern.compile("-XX:\\+Use\\w+GC");

    /** Reads the shared options; {@code defaultOut} is the mode's own results file. */
    static ForkedRaceOptions of(RaceOptions options, Path defaultOut) {
        return of(options, defaultOut, ForkedRaceOptions::mapsOnThisJvm);
    }

    /**
     * Reads the shared options; the archive beside the jar is taken only when {@code fits} says this JVM maps it
     * for that jar ({@code fits.test(archive, jar)}).
     */
    static ForkedRaceOptions of(RaceOptions options, Path defaultOut, BiPredicate<Path, Path> fits) {
        Path etlJar = options.path("--etl-jar", Path.of(DEFAULT_ETL_JAR));
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
                options.all("--jvm-arg"),
                etlJar,
                options.isSet("--appcds"),
                // with --appcds every contestant maps the archive of its own training run instead
                options.isSet("--no-etl-archive") || options.isSet("--appcds")
                        ? Optional.empty()
                        : shippedArchive(etlJar).filter(archive -> fitsOrSaysWhy(archive, etlJar, fits)),
                options.path("--out", defaultOut),
                options.number("--broker-warmup", DEFAULT_BROKER_WARM_UP),
                options.isSet("--kit-broker"));
    }

    /** The class archive the build records next to a runnable jar: {@code NAME.jsa} beside {@code NAME.jar}. */
    static Optional<Path> shippedArchive(Path jar) {
        String name = jar.getFileName().toString().replaceFirst("\\.jar$", "") + ".jsa";
        Path archive = jar.resolveSibling(name);
        return Files.isRegularFile(archive) ? Optional.of(archive.toAbsolutePath()) : Optional.empty();
    }

    private static boolean fitsOrSaysWhy(Path archive, Path jar, BiPredicate<Path, Path> fits) {
        if (fits.test(archive, jar)) {
            return true;
        }
        System.err.printf(
                "warning: this JVM (%s) cannot map %s for %s (recorded by another JDK build or for another jar);"
                        + " etl starts without it. Rebuild etl-examples with this JDK to race it with its archive.%n",
                Runtime.version(), archive, jar.getFileName());
        return false;
    }

    /**
     * Whether the JVM running the race maps {@code archive} for {@code jar}: the check a start makes, asked with
     * {@code -XX:+PrintSharedArchiveAndExit}, which exits 0 only for an archive it would use. An archive that does
     * not fit only costs a start its speed, with one warning in a log nobody reads, so the race asks first.
     */
    static boolean mapsOnThisJvm(Path archive, Path jar) {
        List<String> command = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                ClassArchiveFlags.map(archive),
                "-XX:+PrintSharedArchiveAndExit",
                "-jar",
                jar.toString());
        try {
            Process java = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (!java.waitFor(60, TimeUnit.SECONDS)) {
                java.destroyForcibly();
                return false;
            }
            return java.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
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
     * The JVM flags of a run: {@link ProcessRace#COMMON_FLAGS}, every {@code --jvm-arg}, then {@code own} (this
     * run's, such as its GC log), then the contestant's AppCDS archive when {@code archives} has one.
     */
    List<String> flags(ProcessContestant contestant, Map<String, Path> archives, List<String> own) {
        List<String> flags = new ArrayList<>(ProcessRace.COMMON_FLAGS);
        flags.addAll(jvmArgs);
        flags.addAll(own);
        if (archives.containsKey(contestant.label())) {
            flags.add(ClassArchiveFlags.map(archives.get(contestant.label())));
        }
        return flags;
    }

    /**
     * The command line that forks {@code contestant} on {@code topics} with {@code flags}; etl starts with
     * {@link ProcessRace#ETL_JVM_FLAGS} first (without {@link ProcessRace#ETL_GC_FLAGS} when the flags choose a
     * collector) and maps {@link #etlArchive} unless the flags already name an archive to map or to record.
     */
    List<String> command(ProcessContestant contestant, String bootstrap, RaceTopics topics, List<String> flags) {
        List<String> all = flags;
        if (contestant.contestant() == Contestant.ETL) {
            List<String> own = ProcessRace.concat(flags, contestant.jvmFlags());
            boolean ownCollector =
                    own.stream().anyMatch(f -> COLLECTOR.matcher(f).matches());
            List<String> etlFlags = ownCollector
                    ? ProcessRace.ETL_JVM_FLAGS.stream()
                            .filter(f -> !ProcessRace.ETL_GC_FLAGS.contains(f))
                            .toList()
                    : ProcessRace.ETL_JVM_FLAGS;
            all = ProcessRace.concat(etlFlags, flags);
            boolean ownArchive = own.stream().anyMatch(ClassArchiveFlags::namesArchive);
            if (!ownArchive && etlArchive.isPresent()) {
                all = ProcessRace.concat(all, List.of(ClassArchiveFlags.map(etlArchive.get())));
            }
        }
        return contestant.command(bootstrap, topics, ProcessRace.etlCommand(etlJar), all);
    }
}
