package io.etl.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

class LoggingTest {

    private final PrintStream originalErr = System.err;
    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

    @AfterEach
    void restore() {
        System.setErr(originalErr);
        Logging.configure(LogFormat.TEXT);
        MDC.remove(Logging.MDC_PIPELINE);
    }

    private List<String> lines() {
        return captured.toString(StandardCharsets.UTF_8)
                .lines()
                .filter(l -> l.contains("marker-"))
                .toList();
    }

    @Test
    void jsonFormatWritesOneObjectALineWithThePipelineInTheMdcOfEveryThread() throws Exception {
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        Logging.configure(LogFormat.JSON);
        Logging.pipeline("orders-split");

        Thread other = new Thread(() -> LoggerFactory.getLogger("some.client").info("marker-other-thread"), "client");
        other.start();
        other.join();
        LoggerFactory.getLogger(LoggingTest.class).info("marker-main {}", 42);

        await().until(() -> lines().size() == 2);
        ObjectMapper json = new ObjectMapper();
        for (String line : lines()) {
            JsonNode event = json.readTree(line);
            assertThat(event.get("level").asText()).isEqualTo("INFO");
            assertThat(event.get("mdc").get(Logging.MDC_PIPELINE).asText()).isEqualTo("orders-split");
        }
        assertThat(lines())
                .anySatisfy(
                        l -> assertThat(json.readTree(l).get("formattedMessage").asText())
                                .isEqualTo("marker-main 42"));
    }

    @Test
    void aLevelCheckThatIsOffLeavesTheThreadUntaggedAndTheFirstLineItWritesTagsIt() throws Exception {
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        Logging.configure(LogFormat.TEXT);
        Logging.pipeline("hot-path");
        String[] seen = new String[2];

        Thread client = new Thread(
                () -> {
                    Logger log = LoggerFactory.getLogger("some.client.sender");
                    boolean trace = log.isTraceEnabled();
                    seen[0] = trace + ":" + MDC.get(Logging.MDC_PIPELINE);
                    log.info("marker-client");
                    seen[1] = MDC.get(Logging.MDC_PIPELINE);
                },
                "client-sender");
        client.start();
        client.join();

        assertThat(seen[0]).isEqualTo("false:null");
        assertThat(seen[1]).isEqualTo("hot-path");
        await().until(() -> lines().size() == 1);
        assertThat(lines().get(0)).contains("[hot-path]", "marker-client");
    }

    @Test
    void textFormatIsOneReadableLineWithThePipeline() {
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        Logging.configure(LogFormat.TEXT);
        Logging.pipeline("copy");

        LoggerFactory.getLogger(LoggingTest.class).warn("marker-text");

        await().until(() -> lines().size() == 1);
        assertThat(lines().get(0)).contains("WARN", "[copy]", "marker-text").doesNotStartWith("{");
    }

    @Test
    void formatNamesAreCaseInsensitiveAndOthersAreRejectedWithWhereTheyCameFrom() {
        assertThat(LogFormat.parse(" Json ", "x")).isEqualTo(LogFormat.JSON);
        assertThatThrownBy(() -> LogFormat.parse("xml", LogFormat.ENV))
                .hasMessage("ETL_LOG_FORMAT: 'xml' is not a log format; use text or json");
    }
}
