package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.testkit.KafkaTestCluster;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.time.Duration;
import java.util.Base64;

/** Shared steps of the secured pipeline ITs: a copy pipeline whose source and sink share one security section. */
final class SecuredPipelines {

    private SecuredPipelines() {}

    /** A copy pipeline (source {@code orders}, sink {@code out}) with {@code security} (inline YAML) on both. */
    static PipelineConfig config(String brokers, String input, String output, String group, String security) {
        return PipelineConfig.parse(
                """
                pipeline: {name: secured-copy}
                source:
                  orders:
                    kafka:
                      brokers: "%s"
                      topics: [%s]
                      group_id: %s
                      startup_timeout: 5s
                      security: %s
                sinks:
                  out:
                    kafka:
                      brokers: "%s"
                      topic: %s
                      startup_timeout: 5s
                      security: %s
                checkpoint: {interval: 200ms, drain_timeout: 10s}
                """.formatted(brokers, input, group, security, brokers, output, security), n -> null);
    }

    /** Runs the copy pipeline over {@code records} input records and checks every one arrived and was committed. */
    static void copiesEveryRecord(KafkaTestCluster kafka, String security, int records) {
        String input = Delivery.unique("sec-in");
        String output = Delivery.unique("sec-out");
        String group = Delivery.unique("g");
        kafka.createTopic(input, 2);
        kafka.createTopic(output, 2);
        kafka.produce(input, records, Orders::record);
        PipelineConfig config = config(kafka.bootstrapServers(), input, output, group, security);

        RunningPipeline running = Pipelines.copy(config).start(config, new SimpleMeterRegistry());
        PipelineResult result = Delivery.runUntilCaughtUp(kafka, running, group, input, Duration.ofSeconds(40));
        assertThat(result.status()).as("result %s", result).isEqualTo(PipelineResult.Status.COMPLETED);
        Delivery.assertCopiedAll(kafka, input, output, group, records);
    }

    /**
     * Writes the certificate chain and the unencrypted PKCS#8 private key of a PKCS12 keystore as PEM files
     * ({@code <name>.pem}, {@code <name>.key}) in {@code dir}.
     *
     * @return the certificate file and the key file
     */
    static Path[] toPem(Path keystore, String password, Path dir, String name) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            store.load(in, password.toCharArray());
        }
        String alias = store.aliases().nextElement();
        Key key = store.getKey(alias, password.toCharArray());
        StringBuilder chain = new StringBuilder();
        for (Certificate c : store.getCertificateChain(alias)) {
            chain.append(pem("CERTIFICATE", c.getEncoded()));
        }
        Path cert = Files.writeString(dir.resolve(name + ".pem"), chain, StandardCharsets.US_ASCII);
        Path keyFile = Files.writeString(
                dir.resolve(name + ".key"), pem("PRIVATE KEY", key.getEncoded()), StandardCharsets.US_ASCII);
        return new Path[] {cert, keyFile};
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                        .encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }
}
