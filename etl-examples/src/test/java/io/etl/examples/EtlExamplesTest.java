package io.etl.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class EtlExamplesTest {

    private record Run(int exit, String out, String err) {}

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = EtlExamples.execute(new PrintWriter(out), new PrintWriter(err), args);
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void helpListsEveryCommand() {
        Run run = run("--help");

        assertThat(run.exit()).isZero();
        assertThat(run.out()).contains("etl-examples", "kafka_to_kafka_split", "validate");
    }

    @Test
    void everyCommandHasHelp() {
        Run split = run("kafka_to_kafka_split", "--help");
        Run validate = run("validate", "--help");

        assertThat(split.exit()).isZero();
        assertThat(split.out())
                .contains("--config", "--records", "--http-port", "--metrics-port", "KAFKA_BROKERS", "GROUP_ID");
        assertThat(validate.exit()).isZero();
        assertThat(validate.out()).contains("FILE");
    }

    @Test
    void versionNamesTheProgram() {
        Run run = run("--version");

        assertThat(run.exit()).isZero();
        assertThat(run.out()).startsWith("etl-examples ").doesNotContain("unknown");
    }

    @Test
    void usageErrorsExitTwo() {
        assertThat(run().exit()).isEqualTo(2);
        assertThat(run("no_such_example").exit()).isEqualTo(2);
        assertThat(run("kafka_to_kafka_split", "--records", "many").exit()).isEqualTo(2);
        assertThat(run("kafka_to_kafka_split", "--records", "-5").exit()).isEqualTo(2);
    }
}
