package io.etl.examples.avro;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.examples.StandardStreams;
import io.etl.runtime.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code etl-examples avro_to_avro} as a new user runs it: its own broker and registry, then the summary. */
class AvroToAvroCommandIT {

    @TempDir
    Path dir;

    @RegisterExtension
    final StandardStreams streams = new StandardStreams();

    private static int run(String... args) {
        return new CommandLine(new AvroToAvroCommand(Map.<String, String>of()::get)).execute(args);
    }

    @Test
    @Timeout(180)
    void theEmbeddedRunAccountsForEveryPaymentOfEitherSchemaVersion() {
        int records = 1_300;
        SamplePayments.Expected expected = SamplePayments.expected(records);

        int exit = run("--records", Integer.toString(records));

        String printed = streams.out();
        assertThat(exit).as("stderr: %s", streams.err()).isZero();
        assertThat(expected.deadLetters()).isPositive();
        assertThat(printed)
                .contains("\"memo\": \"invoice 1")
                .contains("summary: input=" + records + " ledger=" + expected.ledger() + " refunds="
                        + expected.refunds() + " dead_letters=" + expected.deadLetters() + " elapsed_ms=");
        assertThat(expected.ledger() + expected.refunds() + expected.deadLetters())
                .isEqualTo(records);
    }

    @Test
    void aWrongOptionOrConfigurationStartsNothing() throws Exception {
        Path bad = Files.writeString(
                dir.resolve("bad.yaml"), AvroToAvro.defaultYaml().replace("  on_error: fail", "  on_eror: fail"));

        assertThat(run("--records", "0")).isEqualTo(ExitCodes.USAGE);
        assertThat(run("--config", bad.toString())).isEqualTo(ExitCodes.USAGE);
        assertThat(streams.err()).contains("pipeline.on_eror");
        assertThat(streams.out()).doesNotContain("summary:");
    }
}
