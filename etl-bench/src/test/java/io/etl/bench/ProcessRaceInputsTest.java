package io.etl.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.bench.impl.Contestant;
import io.etl.bench.impl.RaceClientSettings;
import io.etl.bench.impl.RaceTopics;
import io.etl.core.config.PipelineConfig;
import io.etl.examples.split.KafkaToKafkaSplit;
import io.etl.kafka.sink.KafkaSinkConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the process race reads: contestant specifications, GC logs, and the commands it forks. */
class ProcessRaceInputsTest {

    @Test
    void aContestantIsNamedWithoutJvmFlagsOfItsOwn() {
        ProcessContestant plain = ProcessContestant.parse("clients_flush");
        assertThat(plain.contestant()).isEqualTo(Contestant.CLIENTS_FLUSH);
        assertThat(plain.label()).isEqualTo("kafka-clients-flush");
        assertThat(plain.fileName()).isEqualTo("kafka-clients-flush");

        assertThatThrownBy(() -> ProcessContestant.parse("flink")).hasMessageContaining("flink");
        assertThatThrownBy(() -> ProcessContestant.parse("etl:-Xmx256m"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("etl:-Xmx256m")
                .hasMessageContaining("--jvm-flags");
    }

    @Test
    void etlThreadsRunsTheShippedYamlWithThatManyLoops() {
        String shipped = KafkaToKafkaSplit.defaultYaml();
        PipelineConfig two = PipelineConfig.parse(ForkedRaceOptions.withThreads(shipped, 2), name -> null);

        assertThat(two.pipeline().threads()).isEqualTo(2);
        PipelineConfig one = PipelineConfig.parse(shipped, name -> null);
        assertThat(one.pipeline().threads()).isEqualTo(1);
        assertThat(two.sinks()).isEqualTo(one.sinks());
        assertThat(two.pipeline().name()).isEqualTo(one.pipeline().name());
    }

    @Test
    void etlRacesTheShippedYamlWithTheBaselinesProducerLingerAndNothingElseChanged() {
        String shipped = KafkaToKafkaSplit.defaultYaml();
        PipelineConfig race = PipelineConfig.parse(RaceClientSettings.etlYaml(shipped), name -> null);
        PipelineConfig asShipped = PipelineConfig.parse(shipped, name -> null);

        List<String> sinks = new ArrayList<>(KafkaToKafkaSplit.REGIONS);
        sinks.add(KafkaToKafkaSplit.UNROUTED);
        for (String sink : sinks) {
            KafkaSinkConfig raced = race.sink(sink).connector(KafkaSinkConfig.class);
            KafkaSinkConfig original = asShipped.sink(sink).connector(KafkaSinkConfig.class);
            assertThat(raced.producerLinger()).isEqualTo(Duration.ofMillis(RaceClientSettings.LINGER_MS));
            assertThat(original.producerLinger()).isNotEqualTo(raced.producerLinger());
            assertThat(race.sink(sink).pool()).isEqualTo(asShipped.sink(sink).pool());
        }
        assertThat(race.source(KafkaToKafkaSplit.SOURCE)).isEqualTo(asShipped.source(KafkaToKafkaSplit.SOURCE));
        assertThat(race.checkpoint()).isEqualTo(asShipped.checkpoint());
        assertThatThrownBy(() -> RaceClientSettings.etlYaml(shipped.replace("max_poll_records: 2000", "")))
                .hasMessageContaining("no longer polls 2000 records");
    }

    @Test
    void theLiveHeapIsEveryGenerationInUseWhicheverCollectorRuns() {
        String g1 = """
                 garbage-first heap   total 397312K, used 17946K [0x0000000687400000, 0x0000000800000000)
                  region size 4096K, 4 young (16384K), 0 survivors (0K)
                 Metaspace       used 8909K, committed 9088K, reserved 1114112K
                  class space    used 1062K, committed 1152K, reserved 1048576K
                """;
        String serial = """
                 def new generation   total 116160K, used 1593K [0x0000000687400000, 0x000000068f200000)
                  eden space 103296K,   1% used [0x0000000687400000, 0x0000000688628700, 0x000000068d8e0000)
                  from space 12864K,   0% used [0x000000068d8e0000, 0x000000068d8e0000, 0x000000068e570000)
                  to   space 12864K,   0% used [0x000000068e570000, 0x000000068e570000, 0x000000068f200000)
                 tenured generation   total 258048K, used 20509K [0x0000000704d50000, 0x0000000714950000)
                   the space 258048K,   7% used [0x0000000704d50000, 0x0000000704d50000, 0x0000000714950000)
                 Metaspace       used 8935K, committed 9088K, reserved 1114112K
                  class space    used 1062K, committed 1152K, reserved 1048576K
                """;
        String parallel = """
                 PSYoungGen      total 113152K, used 2048K [0x0000000782700000, 0x000000078a500000)
                  eden space 97280K, 2% used [0x0000000782700000,0x0000000783a00338,0x0000000788600000)
                 ParOldGen       total 258048K, used 30720K [0x0000000687400000, 0x0000000697000000)
                 Metaspace       used 8905K, committed 9088K, reserved 1114112K
                """;
        assertThat(ProcessRace.usedHeapKiB(g1)).isEqualTo(17_946);
        assertThat(ProcessRace.usedHeapKiB(serial)).isEqualTo(1_593 + 20_509);
        assertThat(ProcessRace.usedHeapKiB(parallel)).isEqualTo(2_048 + 30_720);
        assertThat(ProcessRace.usedHeapKiB("12345: Unable to open socket file")).isEqualTo(-1);
    }

    @Test
    void etlRunsFromItsRunnableJarAndTheBaselinesFromTheirOwnMainWithTheSameFlags() {
        RaceTopics topics = RaceTopics.of("p");
        List<String> flags = List.of("-Dcommon=1", "-Xmx1g");
        List<String> etl = ProcessContestant.parse("etl")
                .command("b:9092", topics, List.of("-jar", "x.jar", "kafka_to_kafka_split"), flags);
        assertThat(etl.subList(1, etl.size()))
                .containsExactly("-Dcommon=1", "-Xmx1g", "-jar", "x.jar", "kafka_to_kafka_split");

        List<String> clients =
                ProcessContestant.parse("clients").command("b:9092", topics, List.of("-jar", "x.jar"), flags);
        assertThat(clients.subList(1, 3)).containsExactly("-Dcommon=1", "-Xmx1g");
        assertThat(clients).contains("io.etl.bench.impl.ContestantMain").endsWith("CLIENTS", "b:9092", "p");
        assertThat(topics.exampleVariables("b:9092"))
                .containsEntry("KAFKA_BROKERS", "b:9092")
                .containsEntry("GROUP_ID", "p-group")
                .containsEntry("ORDERS_EU_TOPIC", "p-orders-eu");
    }

    @Test
    void thePeakHeapIsTheLargestOccupancyBeforeACollection() {
        String log = """
                [0.011s][info][gc] Using G1
                [0.412s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 25M->4M(256M) 3.100ms
                [1.200s][info][gc] GC(1) Pause Young (Normal) (G1 Evacuation Pause) 1G->300M(2G) 9.000ms
                [1.900s][info][gc] GC(2) Pause Young (Normal) (G1 Evacuation Pause) 700M->310M(2G) 8.000ms
                """;
        assertThat(GcLog.peakHeapMiB(log)).isEqualTo(1024);
        assertThat(GcLog.peakHeapMiB("[0.011s][info][gc] Using G1\n")).isZero();
    }

    @Test
    void theTableOpensWithWhatRacedAndTheOneJvmFlagSetOfEveryContestant() {
        String tuned = ProcessRace.table(
                List.of(), 1_000, 2, "forked broker JVM", JvmFlags.parse("-Xmx1g"), Path.of("etl.jar"), 0);
        String defaults =
                ProcessRace.table(List.of(), 1_000, 2, "forked broker JVM", JvmFlags.DEFAULTS, Path.of("etl.jar"), 0);

        assertThat(tuned)
                .startsWith("*1,000 orders per run, every contestant forked and clocked from the fork, 2 rounds"
                        + " interleaved, ")
                .contains("forked broker JVM; etl = `java [FLAGS] -jar etl.jar kafka_to_kafka_split`; JVM flags, the"
                        + " same for every contestant: `-Xmx1g`*" + System.lineSeparator()
                        + System.lineSeparator() + "| run |");
        assertThat(defaults).contains("JVM flags, the same for every contestant: none (the JVM's defaults)*");
    }

    @Test
    void theSummaryComparesWithTheFlushingLoopOnlyWhenItRan() {
        ProcessRace.Result etl = result("etl", 10_000);
        ProcessRace.Result loop = result("kafka-clients", 8_000);
        ProcessRace.Result flushing = result("kafka-clients-flush", 5_000);

        String without =
                ProcessRace.table(List.of(etl, loop), 1_000_000, 1, "b", JvmFlags.DEFAULTS, Path.of("e.jar"), 0);
        String with = ProcessRace.table(
                List.of(etl, loop, flushing), 1_000_000, 1, "b", JvmFlags.DEFAULTS, Path.of("e.jar"), 0);

        assertThat(without).doesNotContain("vs kafka-clients-flush");
        assertThat(summaryRow(without, "etl")).startsWith("| etl | 100,000 | 0.80× | – |");
        assertThat(with).contains("| vs kafka-clients | vs kafka-clients-flush | vs kafka-streams |");
        assertThat(summaryRow(with, "etl")).startsWith("| etl | 100,000 | 0.80× | 0.50× | – |");
        assertThat(summaryRow(with, "kafka-clients-flush"))
                .startsWith("| kafka-clients-flush | 200,000 | 1.60× | 1.00× |");
        assertThat(with).contains("| round by round against kafka-clients |", "| etl | 0.80× | 0.00 | 1.00× | 1 |");
    }

    /** One run of {@code label}: a million records in {@code elapsedMillis}. */
    private static ProcessRace.Result result(String label, long elapsedMillis) {
        return new ProcessRace.Result(label, 1_000_000, elapsedMillis, 1_000, 9_000, 1_000, 300, 600, 1.0, List.of());
    }

    /** The row of the summary table (the last one with {@code label} before the round-by-round table). */
    private static String summaryRow(String table, String label) {
        return table.lines()
                .takeWhile(l -> !l.startsWith("| round by round"))
                .filter(l -> l.startsWith("| " + label + " | "))
                .reduce((first, second) -> second)
                .orElseThrow();
    }

    @Test
    void medianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
        assertThat(ProcessRace.median(List.of(3.0, 1.0, 2.0))).isEqualTo(2.0);
        assertThat(ProcessRace.median(List.of(4.0, 1.0, 3.0, 2.0))).isEqualTo(2.5);
        assertThat(ProcessRace.median(List.of())).isNaN();
    }
}
