package io.etl.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.config.PipelineConfig;
import io.etl.examples.split.KafkaToKafkaSplit;
import io.etl.runtime.Main;
import io.etl.runtime.internal.Topology;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The example's topology, as {@code describe} prints it and {@code /topology} serves it, against golden files, and
 * docs/runtime.md showing both. After a deliberate change, {@code -Detl.golden.update=true} rewrites the golden files.
 */
class TopologyDocTest {

    private static final Path GOLDEN = Path.of("src/test/resources/io/etl/examples/topology");
    private static final Path YAML = Path.of("src/main/resources/kafka_to_kafka_split.yaml");
    private static final Path RUNTIME_MD = DocSnippetsTest.ROOT.resolve("docs/runtime.md");

    /** The example's file with every variable at its default, so that no environment changes the topics. */
    private static Topology topology() throws IOException {
        PipelineConfig config = PipelineConfig.parse(Files.readString(YAML), Map.<String, String>of()::get);
        return Topology.of(KafkaToKafkaSplit.pipeline(config), config);
    }

    @Test
    void theTextMatchesTheGoldenFile() throws IOException {
        assertThat(topology().text())
                .isEqualTo(golden("kafka_to_kafka_split.txt", topology().text()));
    }

    @Test
    void theMermaidFlowchartMatchesTheGoldenFile() throws IOException {
        assertThat(topology().mermaid())
                .isEqualTo(golden("kafka_to_kafka_split.mmd", topology().mermaid()));
    }

    @Test
    void theRuntimeGuideShowsBoth() throws IOException {
        String guide = Files.readString(RUNTIME_MD);

        assertThat(guide)
                .contains("```\n" + topology().text() + "```")
                .contains("```mermaid\n" + topology().mermaid() + "```");
    }

    @Test
    void describePrintsTheTopologyOfTheFactoryOnTheClassPath() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int code = Main.execute(
                new PrintWriter(out),
                new PrintWriter(err),
                "describe",
                "--config",
                YAML.toString(),
                "--pipeline",
                KafkaToKafkaSplit.NAME,
                "--format",
                "mermaid");

        assertThat(code).as("stderr: %s", err).isZero();
        assertThat(out.toString())
                .startsWith("flowchart LR\n")
                .contains("split by-region")
                .contains("-->|otherwise|");
    }

    private static String golden(String name, String actual) throws IOException {
        Path file = GOLDEN.resolve(name);
        if (Boolean.getBoolean("etl.golden.update")) {
            Files.writeString(file, actual, StandardCharsets.UTF_8);
        }
        return Files.readString(file, StandardCharsets.UTF_8);
    }
}
