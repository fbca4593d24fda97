package io.etl.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.bench.impl.Contestant;
import io.etl.bench.impl.RaceClientSettings;
import io.etl.bench.impl.RaceTopics;
import io.etl.examples.split.KafkaToKafkaSplit;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How a race mode reads its command line against its usage line. */
class RaceOptionsTest {

    private static final String USAGE =
            "--mode test [--records N] [--only etl,clients] [--tag TAG]... [--out FILE] [--appcds]";

    @Test
    void readsTheOptionsItsUsageLineNames() {
        RaceOptions options = RaceOptions.parse(
                new String[] {"--records", "500", "--tag", "a", "--appcds", "--tag", "b", "--only", "clients,etl"},
                USAGE);

        assertThat(options.number("--records", 7)).isEqualTo(500);
        assertThat(options.all("--tag")).containsExactly("a", "b");
        assertThat(options.isSet("--appcds")).isTrue();
        assertThat(options.list("--only", Contestant::parse, List.of()))
                .containsExactly(Contestant.CLIENTS, Contestant.ETL);
    }

    @Test
    void keepsTheDefaultsOfWhatIsNotGivenAndTheLastValueOfWhatIsGivenTwice() {
        RaceOptions options = RaceOptions.parse(new String[] {"--records", "1", "--records", "2"}, USAGE);

        assertThat(options.number("--records", 7)).isEqualTo(2);
        assertThat(options.path("--out", Path.of("x.md"))).isEqualTo(Path.of("x.md"));
        assertThat(options.all("--tag")).isEmpty();
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
    void theForkedModesGiveEveryContestantTheSameJvmFlags() {
        RaceOptions options = RaceOptions.parse(
                new String[] {"--only", "etl,clients", "--jvm-flags", " -XX:+UseSerialGC  -Xmx512m "},
                "--mode forked [--runs R] [--only etl] [--jvm-flags FLAGS] [--etl-jar FILE] [--appcds] [--out FILE]");

        ForkedRaceOptions fork = ForkedRaceOptions.of(options, Path.of("target/race.md"), false);

        assertThat(fork.contestants())
                .extracting(ProcessContestant::contestant)
                .containsExactly(Contestant.ETL, Contestant.CLIENTS);
        assertThat(fork.runs()).isEqualTo(3);
        assertThat(fork.etlJar()).isEqualTo(Path.of("etl-examples/target/etl-examples.jar"));
        assertThat(fork.appCds()).isFalse();
        assertThat(fork.logs("race-logs")).isEqualTo(Path.of("target/race-logs").toAbsolutePath());
        RaceTopics topics = RaceTopics.of("t");
        List<List<String>> flagsOfEach = fork.contestants().stream()
                .map(c -> fork.command(c, "b:9092", topics, fork.flags(c, Map.of(), List.of("-Xlog:gc"))))
                .map(command -> command.subList(1, command.indexOf("-Xlog:gc") + 1))
                .toList();
        assertThat(flagsOfEach.get(0))
                .isEqualTo(flagsOfEach.get(1))
                .containsExactly(
                        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                        "-Dorg.slf4j.simpleLogger.log.org.apache.kafka.streams.StreamsConfig=error",
                        "-XX:+UseSerialGC",
                        "-Xmx512m",
                        "-Xlog:gc");
        assertThat(fork.command(fork.contestants().get(0), "b:9092", topics, List.of()))
                .endsWith("-jar", "etl-examples/target/etl-examples.jar", "kafka_to_kafka_split", "--http-port", "0");
        assertThat(fork.etlNote()).isEmpty();
    }

    @Test
    void theProcessRaceGivesEtlTheBaselinesClientSettingsUnlessAskedToRaceItAsShipped(@TempDir Path dir)
            throws IOException {
        String usage = "--mode process [--only etl] [--etl-as-shipped] [--out FILE]";
        ForkedRaceOptions fork = ForkedRaceOptions.of(
                RaceOptions.parse(new String[] {"--only", "etl"}, usage), dir.resolve("race.md"), true);
        ForkedRaceOptions asShipped = ForkedRaceOptions.of(
                RaceOptions.parse(new String[] {"--only", "etl", "--etl-as-shipped"}, usage),
                dir.resolve("race.md"),
                true);

        List<String> command = fork.command(fork.contestants().get(0), "b:9092", RaceTopics.of("t"), List.of());
        Path yaml = Path.of(command.get(command.indexOf("--config") + 1));
        assertThat(Files.readString(yaml))
                .isEqualTo(RaceClientSettings.etlYaml(KafkaToKafkaSplit.defaultYaml()))
                .contains("producer_linger: " + RaceClientSettings.LINGER_MS + "ms");
        assertThat(fork.etlNote()).contains("producer_linger: " + RaceClientSettings.LINGER_MS + "ms");
        assertThat(asShipped.command(asShipped.contestants().get(0), "b:9092", RaceTopics.of("t"), List.of()))
                .doesNotContain("--config");
        assertThat(asShipped.etlNote()).isEmpty();
    }

    @Test
    void withoutJvmFlagsEveryContestantRunsOnTheJvmsDefaults() {
        ForkedRaceOptions fork = ForkedRaceOptions.of(
                RaceOptions.parse(new String[0], "[--only etl] [--jvm-flags FLAGS]"), Path.of("r.md"), false);

        assertThat(fork.jvmFlags()).isEqualTo(JvmFlags.DEFAULTS);
        assertThat(fork.contestants())
                .extracting(ProcessContestant::contestant)
                .containsExactly(Contestant.ETL, Contestant.CLIENTS, Contestant.CLIENTS_FLUSH, Contestant.STREAMS);
        for (ProcessContestant contestant : fork.contestants()) {
            assertThat(fork.flags(contestant, Map.of(), List.of()))
                    .as("%s", contestant.label())
                    .containsExactlyElementsOf(ProcessRace.COMMON_FLAGS)
                    .allMatch(flag -> flag.startsWith("-D"));
        }
    }

    @Test
    void withAppCdsEveryContestantMapsItsOwnArchiveAndNoFlagSetMayNameOne() {
        ForkedRaceOptions fork = ForkedRaceOptions.of(
                RaceOptions.parse(new String[] {"--appcds"}, "[--only etl] [--appcds]"), Path.of("r.md"), false);
        ProcessContestant etl = ProcessContestant.parse("etl");
        ProcessContestant clients = ProcessContestant.parse("clients");
        Map<String, Path> archives = Map.of(etl.label(), Path.of("etl.jsa"), clients.label(), Path.of("clients.jsa"));

        assertThat(fork.appCds()).isTrue();
        assertThat(fork.flags(etl, archives, List.of())).endsWith("-XX:SharedArchiveFile=etl.jsa");
        assertThat(fork.flags(clients, archives, List.of())).endsWith("-XX:SharedArchiveFile=clients.jsa");
        assertThatThrownBy(() -> JvmFlags.parse("-Xmx1g -XX:SharedArchiveFile=etl.jsa"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-XX:SharedArchiveFile=etl.jsa")
                .hasMessageContaining("--appcds");
    }

    @Test
    void aFlagMayNameAFileOfItsOwnPerContestant() {
        JvmFlags flags = JvmFlags.parse("-XX:StartFlightRecording=filename=race-{impl}.jfr -Xmx1g");

        assertThat(flags.forContestant("CLIENTS"))
                .containsExactly("-XX:StartFlightRecording=filename=race-clients.jfr", "-Xmx1g");
        assertThat(flags.describe()).isEqualTo("`-XX:StartFlightRecording=filename=race-{impl}.jfr -Xmx1g`");
        assertThat(JvmFlags.parse("  ")).isEqualTo(JvmFlags.DEFAULTS);
    }

    @Test
    void theRacesBrokerRunsWithKafkasFlagsAfterAWarmUpUnlessToldOtherwise() {
        String usage = "--mode forked [--broker-warmup N] [--kit-broker]";

        ForkedRaceOptions fork = ForkedRaceOptions.of(RaceOptions.parse(new String[0], usage), Path.of("r.md"), false);
        ForkedRaceOptions kit = ForkedRaceOptions.of(
                RaceOptions.parse(new String[] {"--kit-broker", "--broker-warmup", "0"}, usage),
                Path.of("r.md"),
                false);

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
}
