package io.etl.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The check command's usage: what needs no broker. */
class CheckCommandTest {

    @TempDir
    Path dir;

    private record Run(int exit, String out, String err) {}

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.execute(new PrintWriter(out), new PrintWriter(err), args);
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void helpNamesTheOptionsAndExitCodes() {
        Run help = run("check", "--help");

        assertThat(help.exit()).isZero();
        assertThat(help.out()).contains("--config", "--pipeline", "--timeout", "30s", "ready", "not ready");
        assertThat(help.out()).contains("Which pipeline factory to check;");
        assertThat(run("run", "--help").out()).contains("Which pipeline factory to run;");
        assertThat(run("--help").out()).contains("check");
    }

    @Test
    void missingConfigOrBadTimeoutIsAUsageError() {
        assertThat(run("check").exit()).isEqualTo(ExitCodes.USAGE);
        Run badTimeout = run("check", "--config", "x.yaml", "--timeout", "soon");
        assertThat(badTimeout.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(badTimeout.err()).contains("'soon'", "30s");
    }

    @Test
    void invalidFileIsAConfigurationErrorNamingTheKey() throws Exception {
        Path config = Files.writeString(dir.resolve("bad.yaml"), """
                sinks: {out: {kafka: {brokers: "127.0.0.1:1", topic: out, max_message_bytes: lots}}}
                """);

        Run bad = run("check", "--config", config.toString(), "--pipeline", "copy");

        assertThat(bad.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(bad.err()).contains("sinks.out.kafka.max_message_bytes");
    }
}
