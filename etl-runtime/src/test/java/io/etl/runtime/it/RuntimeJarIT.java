package io.etl.runtime.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

/** What the runnable jar holds: the runtime, core, connectors, one logging binding; no broker, no Scala. */
class RuntimeJarIT {

    private static List<String> entries() throws IOException {
        try (JarFile jar = new JarFile(ChildRuntime.runtimeJar().toFile())) {
            return Collections.list(jar.entries()).stream()
                    .map(ZipEntry::getName)
                    .toList();
        }
    }

    @Test
    void runsMainAndHoldsTheRuntimeCoreConnectorsAndTheirLibraries() throws IOException {
        try (JarFile jar = new JarFile(ChildRuntime.runtimeJar().toFile())) {
            assertThat(jar.getManifest().getMainAttributes().getValue("Main-Class"))
                    .isEqualTo("io.etl.runtime.Main");
        }
        assertThat(entries())
                .contains(
                        "io/etl/runtime/Main.class",
                        "io/etl/core/Pipeline.class",
                        "io/etl/kafka/source/KafkaSource.class",
                        "io/etl/kafka/sink/KafkaSink.class",
                        "org/apache/kafka/clients/consumer/KafkaConsumer.class",
                        "picocli/CommandLine.class",
                        "io/micrometer/prometheusmetrics/PrometheusMeterRegistry.class",
                        "ch/qos/logback/classic/LoggerContext.class",
                        "META-INF/services/ch.qos.logback.classic.spi.Configurator");
    }

    @Test
    void holdsNoBrokerNoScalaAndNoTestKit() throws IOException {
        assertThat(entries())
                .noneMatch(e -> e.startsWith("kafka/") && e.endsWith(".class"))
                .noneMatch(e -> e.startsWith("scala/"))
                .noneMatch(e -> e.startsWith("org/apache/kafka/raft/") || e.startsWith("org/apache/kafka/controller/"))
                .noneMatch(e -> e.startsWith("io/etl/testkit/"));
    }

    @Test
    void hasExactlyOneLoggingBinding() throws IOException {
        try (JarFile jar = new JarFile(ChildRuntime.runtimeJar().toFile())) {
            ZipEntry providers = jar.getEntry("META-INF/services/org.slf4j.spi.SLF4JServiceProvider");
            assertThat(providers).isNotNull();
            String text = new String(jar.getInputStream(providers).readAllBytes(), StandardCharsets.UTF_8);
            assertThat(text.lines().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")))
                    .containsExactly("ch.qos.logback.classic.spi.LogbackServiceProvider");
        }
        assertThat(entries())
                .noneMatch(e -> e.startsWith("org/slf4j/simple/") || e.startsWith("org/apache/logging/log4j/"));
    }
}
