package io.etl.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.bench.impl.Contestant;
import io.etl.bench.impl.RaceTopics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How a race mode reads its command line against its usage line. */
class RaceOptionsTest {

    /** etl's JVM settings as the README writes them. */
    private static final String ETL_FLAGS =
            "-XX:+UseSerialGC -XX:NewRatio=1 -XX:SurvivorRatio=4 -XX:CompileThresholdScaling=3"
                    + " -XX:+UseTransparentHugePages";

    /** Every archive fits: the archives of these tests are empty files. */
    private static final BiPredicate<Path, Path> FITS = (archive, jar) -> true;

    private static final String USAGE =
            "--mode test [--records N] [--only etl,clients] [--jvm-arg ARG]... [--out FILE]" + " [--appcds]";

    @Test
    void readsTheOptionsItsUsageLineNames() {
        RaceOptions options = RaceOptions.parse(
                new String[] {
                    "--records", "500", "--jvm-arg", "-Xmx1g", "--appcds", "--jvm-arg", "-Da=b", "--only", "clients,etl"
                },
                USAGE);

        assertThat(options.number("--records", 7)).isEqualTo(500);
        assertThat(options.all("--jvm-arg")).containsExactly("-Xmx1g", "-Da=b");
        assertThat(options.isSet("--appcds")).isTrue();
        assertThat(options.list("--only", Contestant::parse, List.of()))
                .containsExactly(Contestant.CLIENTS, Contestant.ETL);
    }

    @Test
    void keepsTheDefaultsOfWhatIsNotGivenAndTheLastValueOfWhatIsGivenTwice() {
        RaceOptions options = RaceOptions.parse(new String[] {"--records", "1", "--records", "2"}, USAGE);

        assertThat(options.number("--records", 7)).isEqualTo(2);
        assertThat(options.path("--out", Path.of("x.md"))).isEqualTo(Path.of("x.md"));
        assertThat(options.all("--jvm-arg")).isEmpty();
        assertThat(options.isSet("--appcds")).isFalse();
        assertThat(options.list("--only", Contestant::parse, List.of(Contestant.STREAMS)))
                .containsExactly(Contestant.STREAMS);
    }

    @Test
    void rejectsWhatTheUsageLineDoesNotHaveNamingItAndShowingTheUsage() {
        assertThatThrownBy(() -> RaceOptions.parse(new String[] {"--rate", "5"}, USAGE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown option --rate; usage: " + USAGE);
        assertThatThrownBy(() -> RaceOptions.parse(new String[] {"--appcds", "--records"}, USAGE))
                .hasMessageStartingWith("--records needs a value; usage: --mode test");
        RaceOptions notANumber = RaceOptions.parse(new String[] {"--records", "many"}, USAGE);
        assertThatThrownBy(() -> notANumber.number("--records", 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--records takes a whole number, not many");
    }

    @Test
    void theForkedModesShareTheirContestantsJvmFlagsAndJar() {
        RaceOptions options = RaceOptions.parse(
                new String[] {"--only", "etl:-Xmx256m", "--jvm-arg", "-Da=b"},
                "--mode forked [--runs R] [--only etl] [--jvm-arg ARG]... [--etl-jar FILE] [--appcds] [--out FILE]");

        ForkedRaceOptions fork = ForkedRaceOptions.of(options, Path.of("target/race.md"));

        assertThat(fork.contestants()).containsExactly(ProcessContestant.parse("etl:-Xmx256m"));
        assertThat(fork.runs()).isEqualTo(3);
        assertThat(fork.etlJar()).isEqualTo(Path.of("etl-examples/target/etl-examples.jar"));
        assertThat(fork.appCds()).isFalse();
        assertThat(fork.logs("race-logs")).isEqualTo(Path.of("target/race-logs").toAbsolutePath());
        ProcessContestant etl = fork.contestants().get(0);
        assertThat(fork.flags(etl, Map.of(etl.label(), Path.of("etl.jsa")), List.of("-Xlog:gc")))
                .containsExactly(
                        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                        "-Dorg.slf4j.simpleLogger.log.org.apache.kafka.streams.StreamsConfig=error",
                        "-Da=b",
                        "-Xlog:gc",
                        "-XX:SharedArchiveFile=etl.jsa");
        assertThat(ForkedRaceOptions.of(RaceOptions.parse(new String[0], "[--only etl]"), Path.of("r.md"))
                        .contestants())
                .extracting(ProcessContestant::contestant)
                .containsExactly(Contestant.ETL, Contestant.CLIENTS, Contestant.CLIENTS_FLUSH, Contestant.STREAMS);
    }

    @Test
    void theRacesBrokerRunsWithKafkasFlagsAfterAWarmUpUnlessToldOtherwise() {
        String usage = "--mode forked [--broker-warmup N] [--kit-broker]";

        ForkedRaceOptions fork = ForkedRaceOptions.of(RaceOptions.parse(new String[0], usage), Path.of("r.md"));
        ForkedRaceOptions kit = ForkedRaceOptions.of(
                RaceOptions.parse(new String[] {"--kit-broker", "--broker-warmup", "0"}, usage), Path.of("r.md"));

        assertThat(fork.brokerWarmUp())
                .isEqualTo(ForkedRaceOptions.DEFAULT_BROKER_WARM_UP)
                .isPositive();
        assertThat(fork.brokerOptions(List.of()).jvmOptions())
                .containsExactlyElementsOf(ForkedRaceOptions.BROKER_JVM_FLAGS)
                .contains("-Xmx1G", "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20");
        assertThat(fork.brokerOptions(List.of("-Xlog:gc")).jvmOptions())
                .startsWith("-Xmx1G")
                .endsWith("-Djava.awt.headless=true", "-Xlog:gc");
        assertThat(kit.brokerWarmUp()).isZero();
        assertThat(kit.brokerOptions(List.of("-Xlog:gc")).jvmOptions()).isEmpty();
    }

    @Test
    void etlStartsOnTheSerialCollectorUnlessItsFlagsChooseAnother(@TempDir Path dir) throws IOException {
        Path jar = Files.createFile(dir.resolve("etl-examples.jar"));
        String[] args = {"--etl-jar", jar.toString()};
        ForkedRaceOptions fork = ForkedRaceOptions.of(
                RaceOptions.parse(args, "--mode forked [--etl-jar FILE]"), dir.resolve("r.md"), FITS);
        RaceTopics topics = RaceTopics.of("t");

        assertThat(fork.command(ProcessContestant.parse("etl"), "b:9092", topics, List.of()))
                .containsSubsequence(
                        "-XX:+UseSerialGC",
                        "-XX:NewRatio=1",
                        "-XX:SurvivorRatio=4",
                        "-XX:CompileThresholdScaling=3",
                        "-XX:+UseTransparentHugePages");
        assertThat(fork.command(ProcessContestant.parse("etl:-XX:+UseG1GC"), "b:9092", topics, List.of()))
                .contains("-XX:+UseG1GC", "-XX:CompileThresholdScaling=3", "-XX:+UseTransparentHugePages")
                .doesNotContain("-XX:+UseSerialGC", "-XX:NewRatio=1", "-XX:SurvivorRatio=4");
        assertThat(fork.command(ProcessContestant.parse("etl"), "b:9092", topics, List.of("-XX:+UseParallelGC")))
                .contains("-XX:+UseParallelGC")
                .doesNotContain("-XX:+UseSerialGC", "-XX:NewRatio=1");
    }

    @Test
    void etlMapsTheArchiveBesideItsJarUnlessARunBringsOrRecordsOne(@TempDir Path dir) throws IOException {
        Path jar = Files.createFile(dir.resolve("etl-examples.jar"));
        String usage = "--mode forked [--only etl] [--etl-jar FILE] [--appcds] [--no-etl-archive]";
        RaceTopics topics = RaceTopics.of("t");
        ProcessContestant etl = ProcessContestant.parse("etl");
        ProcessContestant clients = ProcessContestant.parse("clients");
        ProcessContestant etlWithItsOwn = ProcessContestant.parse("etl:-XX:SharedArchiveFile=/x/own.jsa");
        String[] args = {"--etl-jar", jar.toString()};

        ForkedRaceOptions withoutArchive =
                ForkedRaceOptions.of(RaceOptions.parse(args, usage), dir.resolve("r.md"), FITS);
        assertThat(withoutArchive.etlArchive()).isEmpty();
        assertThat(withoutArchive.command(etl, "b:9092", topics, List.of()))
                .noneMatch(a -> a.startsWith("-XX:SharedArchiveFile"));

        Path archive = Files.createFile(dir.resolve("etl-examples.jsa"));
        ForkedRaceOptions fork = ForkedRaceOptions.of(RaceOptions.parse(args, usage), dir.resolve("r.md"), FITS);
        String mapped = "-XX:SharedArchiveFile=" + archive.toAbsolutePath();
        assertThat(fork.command(etl, "b:9092", topics, List.of("-Xlog:gc")))
                .containsSubsequence(
                        "-XX:+UseSerialGC",
                        "-XX:NewRatio=1",
                        "-XX:SurvivorRatio=4",
                        "-XX:CompileThresholdScaling=3",
                        "-XX:+UseTransparentHugePages",
                        "-Xlog:gc",
                        mapped,
                        "-jar",
                        jar.toString(),
                        "kafka_to_kafka_split");
        assertThat(ProcessRace.etlStart(fork))
                .isEqualTo(ETL_FLAGS + " -XX:SharedArchiveFile=etl-examples.jsa -jar etl-examples.jar");
        assertThat(fork.command(clients, "b:9092", topics, List.of()))
                .doesNotContain(mapped)
                .doesNotContain("-XX:CompileThresholdScaling=3")
                .doesNotContain("-XX:+UseTransparentHugePages")
                .doesNotContain("-XX:+UseSerialGC");
        assertThat(fork.command(etl, "b:9092", topics, List.of("-XX:ArchiveClassesAtExit=/x/t.jsa")))
                .doesNotContain(mapped);
        assertThat(fork.command(etlWithItsOwn, "b:9092", topics, List.of()))
                .contains("-XX:SharedArchiveFile=/x/own.jsa")
                .doesNotContain(mapped);

        String[] without = {"--etl-jar", jar.toString(), "--no-etl-archive"};
        ForkedRaceOptions disabled = ForkedRaceOptions.of(RaceOptions.parse(without, usage), dir.resolve("r.md"), FITS);
        assertThat(disabled.command(etl, "b:9092", topics, List.of())).doesNotContain(mapped);
        assertThat(ProcessRace.etlStart(disabled)).isEqualTo(ETL_FLAGS + " -jar etl-examples.jar");

        String[] ownArchives = {"--etl-jar", jar.toString(), "--appcds"};
        ForkedRaceOptions appCds =
                ForkedRaceOptions.of(RaceOptions.parse(ownArchives, usage), dir.resolve("r.md"), FITS);
        assertThat(appCds.etlArchive())
                .as("with --appcds etl maps its own training run's archive")
                .isEmpty();
        assertThat(ProcessRace.etlStart(appCds)).isEqualTo(ETL_FLAGS + " -jar etl-examples.jar");
    }

    @Test
    void anArchiveThisJvmWouldNotMapIsLeftOutSoEtlIsNotRacedWithoutItUnnoticed(@TempDir Path dir) throws IOException {
        Path jar = Files.createFile(dir.resolve("etl-examples.jar"));
        Path notAnArchive = Files.writeString(dir.resolve("etl-examples.jsa"), "recorded by no JVM");
        String[] args = {"--etl-jar", jar.toString()};
        String usage = "--mode forked [--etl-jar FILE] [--no-etl-archive]";

        assertThat(ForkedRaceOptions.mapsOnThisJvm(notAnArchive.toAbsolutePath(), jar))
                .isFalse();
        assertThat(ForkedRaceOptions.of(RaceOptions.parse(args, usage), dir.resolve("r.md"))
                        .etlArchive())
                .isEmpty();
        assertThat(ForkedRaceOptions.of(RaceOptions.parse(args, usage), dir.resolve("r.md"), FITS)
                        .etlArchive())
                .contains(notAnArchive.toAbsolutePath());
    }
}
