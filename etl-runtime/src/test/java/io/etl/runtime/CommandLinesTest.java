package io.etl.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import io.etl.runtime.versionfixture.Anchor;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

class CommandLinesTest {

    private static final String JAVA_LINE =
            "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")";

    @Test
    void versionNamesTheProgramAndTheVersionBesideTheAnchorThenTheJava() throws Exception {
        String[] lines = CommandLines.versionOf("my-program", Anchor.class).getVersion();

        assertThat(lines).containsExactly("my-program 7.4.1-fixture", JAVA_LINE);
    }

    @Test
    void versionIsUnknownWithoutAResourceBesideTheAnchor() throws Exception {
        String[] lines = CommandLines.versionOf("other", String.class).getVersion();

        assertThat(lines).containsExactly("other unknown", JAVA_LINE);
    }

    @Test
    void versionRefusesAMissingProgramOrAnchor() {
        assertThatNullPointerException()
                .isThrownBy(() -> CommandLines.versionOf(null, Anchor.class))
                .withMessageContaining("program");
        assertThatNullPointerException()
                .isThrownBy(() -> CommandLines.versionOf("p", null))
                .withMessageContaining("resourceAnchor");
    }

    @Test
    void aDelegatingProviderAnswersVersionOnTheCommandLine() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int code = CommandLines.execute(
                new CommandLine(new Fixture()), new PrintWriter(out), new PrintWriter(err), "--version");

        assertThat(code).isZero();
        assertThat(out.toString()).startsWith("fixture 7.4.1-fixture").contains(JAVA_LINE);
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void theLauncherPrintsItsBuiltVersion() {
        StringWriter out = new StringWriter();

        int code = CommandLines.execute(
                new CommandLine(new Main()), new PrintWriter(out), new PrintWriter(new StringWriter()), "--version");

        assertThat(code).isZero();
        assertThat(out.toString())
                .startsWith("etl ")
                .doesNotContain("unknown")
                .doesNotContain("${")
                .contains(JAVA_LINE);
    }

    @Command(name = "fixture", mixinStandardHelpOptions = true, versionProvider = FixtureVersion.class)
    static final class Fixture implements Runnable {
        @Override
        public void run() {}
    }

    static final class FixtureVersion implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() throws Exception {
            return CommandLines.versionOf("fixture", Anchor.class).getVersion();
        }
    }
}
