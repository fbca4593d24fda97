package io.etl.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class SplitRaceHelpTest {

    @Test
    void helpListsEveryModesOptionsAndRunsNothing() throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            SplitRace.main(new String[] {"--mode", "process", "--help"});
        } finally {
            System.setOut(original);
        }

        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("--mode in-jvm|process|latency", "--outage-seconds S", "--rate R", "--warmup-records W");
    }
}
