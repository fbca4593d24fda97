package io.etl.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.core.config.PipelineConfig;
import io.etl.examples.split.KafkaToKafkaSplit;
import io.etl.kafka.sink.KafkaSinkConfig;
import io.etl.kafka.source.KafkaSourceConfig;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The soak's parts that need no broker: its YAML, its options, the heap it reads, its table and its plot. */
class SoakRunTest {

    @Test
    void theSinksOfTheShippedYamlWriteToTheBrokersOfTheirOwnVariable() {
        String yaml = SoakRun.sinksOn(KafkaToKafkaSplit.defaultYaml(), "SINK_BROKERS");
        PipelineConfig config =
                PipelineConfig.parse(yaml, Map.of("KAFKA_BROKERS", "source:9092", "SINK_BROKERS", "sink:9092")::get);

        assertThat(config.source("orders").connector(KafkaSourceConfig.class).brokers())
                .isEqualTo("source:9092");
        for (String sink : List.of("eu", "us", "apac", "unrouted")) {
            assertThat(config.sink(sink).connector(KafkaSinkConfig.class).brokers())
                    .as("sink %s", sink)
                    .isEqualTo("sink:9092");
        }
    }

    @Test
    void anOutageThatOutlastsTheRunIsRefused() {
        assertThatThrownBy(() -> SoakRun.Options.parse(
                        new String[] {"--seconds", "120", "--outage-at", "100", "--outage-seconds", "30"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--outage-at 100");
        assertThat(SoakRun.Options.parse(new String[0]))
                .extracting(SoakRun.Options::seconds, SoakRun.Options::killEvery, SoakRun.Options::outageSeconds)
                .containsExactly(3_600, 600, 60);
    }

    @Test
    void readsTheHeapAndTheOldGenerationFromPrometheusText() {
        String metrics = """
                # HELP jvm_memory_used_bytes The amount of used memory
                jvm_memory_used_bytes{area="heap",id="Eden Space",pipeline="p"} 2.097152E7
                jvm_memory_used_bytes{area="heap",id="Tenured Gen",pipeline="p"} 1.048576E7
                jvm_memory_used_bytes{area="nonheap",id="Metaspace",pipeline="p"} 5.0E7
                """;

        assertThat(SoakSample.Heap.of(metrics)).isEqualTo(new SoakSample.Heap(30, 10));
        assertThat(SoakSample.Heap.of("etl_source_records_total 5.0")).isEqualTo(SoakSample.Heap.UNKNOWN);
    }

    @Test
    void theTableCutsTheRunIntoStretchesWithTheirWorstFiguresAndEvents() {
        List<SoakSample> samples = new ArrayList<>();
        for (int s = 10; s <= 120; s += 10) {
            samples.add(sample(s, 100 + s, s == 60 ? "kill" : ""));
        }

        String table = SoakReport.table(samples, 3);

        assertThat(table.lines()).hasSize(2 + 3);
        assertThat(table).contains("| 0.2 | 140 |", "| 0.8 | 180 | 90 | 380 |", "| 1.5 | 220 |");
        assertThat(table.lines().filter(l -> l.endsWith("| kill |"))).hasSize(1).allMatch(l -> l.startsWith("| 0.8 "));
        assertThat(SoakReport.drift(samples, 3)).contains("RSS max 380 -> 420 MiB");
    }

    @Test
    void drawsAPlotOfEveryPanel(@TempDir Path dir) throws Exception {
        List<SoakSample> samples = new ArrayList<>();
        for (int s = 10; s <= 300; s += 10) {
            samples.add(sample(s, 100 + s % 50, ""));
        }
        Path png = dir.resolve("soak.png");

        SoakPlot.write(samples, List.of("test", "a second line"), List.of(100L, 200L), 150, 170, png);

        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image.getWidth()).isEqualTo(1200);
        assertThat(image.getHeight()).isGreaterThan(5 * 170);
    }

    private static SoakSample sample(long second, long heap, String events) {
        return new SoakSample(second, 42, heap, heap / 2, heap + 200, 40, 90, 1000, 990, 50, 3, 20, 40, 60, events);
    }
}
