package io.etl.examples.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The class archive the build records next to the runnable jar ({@link ArchiveTraining}) is one the JVM maps for
 * that jar, and it holds what a service start needs up to its first output: the runtime, the pipeline's chain,
 * and the Kafka clients' group-join, fetch and produce machinery, which only a run against a broker loads.
 */
class ExampleClassArchiveIT {

    private static final Path JAR = Path.of("target", "etl-examples.jar");
    private static final Path ARCHIVE = Path.of("target", "etl-examples.jsa");

    @Test
    void theJvmMapsTheShippedArchiveForTheJarAndItHoldsAServiceStart() throws IOException, InterruptedException {
        assumeTrue(Files.isRegularFile(ARCHIVE), ARCHIVE + " was not recorded (a build with -Detl.archive.skip=true)");
        Path out = Files.createTempFile("etl-archive", ".txt");
        try {
            Process java = new ProcessBuilder(
                            Path.of(System.getProperty("java.home"), "bin", "java")
                                    .toString(),
                            "-XX:SharedArchiveFile=" + ARCHIVE,
                            "-XX:+PrintSharedArchiveAndExit",
                            "-jar",
                            JAR.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(out.toFile())
                    .start();
            assertThat(java.waitFor(60, TimeUnit.SECONDS)).isTrue();
            String listing = Files.readString(out, StandardCharsets.UTF_8);

            assertThat(java.exitValue()).as(listing).isZero();
            assertThat(listing).contains("archive is valid");
            List<String> served = List.of(
                    "io.etl.runtime.PipelineService",
                    "io.etl.core.internal.runtime.PipelineRunner",
                    "io.etl.examples.split.RoutedOrder",
                    "io.etl.kafka.sink.internal.ReusedJsonGenerators",
                    "org.apache.kafka.clients.consumer.internals.ConsumerCoordinator",
                    "org.apache.kafka.clients.consumer.internals.CompletedFetch",
                    "org.apache.kafka.clients.producer.internals.ProducerBatch",
                    "org.apache.kafka.clients.producer.internals.Sender");
            for (String type : served) {
                assertThat(listing).as("the archive holds %s", type).contains(": " + type + " app_loader");
            }
        } finally {
            Files.deleteIfExists(out);
        }
    }
}
