package io.etl.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.spi.Configurator.ExecutionStatus;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.classic.util.ContextInitializer;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.ConsoleAppender;
import io.etl.runtime.Logging;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DefaultLogbackConfiguratorTest {

    private final String formatBefore = System.getProperty(Logging.FORMAT_PROPERTY);

    @AfterEach
    void restoreProperties() {
        System.clearProperty(ContextInitializer.CONFIG_FILE_PROPERTY);
        if (formatBefore == null) {
            System.clearProperty(Logging.FORMAT_PROPERTY);
        } else {
            System.setProperty(Logging.FORMAT_PROPERTY, formatBefore);
        }
    }

    @Test
    void configuresOneConsoleAppenderAndQuietClientLoggersWhenNothingElseIsConfigured() {
        System.setProperty(Logging.FORMAT_PROPERTY, "json");
        LoggerContext context = configuredAnswering(ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY);

        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        assertThat(root.getLevel()).isEqualTo(Level.INFO);
        ConsoleAppender<ILoggingEvent> console = (ConsoleAppender<ILoggingEvent>) root.getAppender("json");
        assertThat(console).isNotNull();
        assertThat(console.getTarget()).isEqualTo("System.err");
        assertThat(console.getEncoder()).isInstanceOf(JsonEncoder.class);
        assertThat(context.getLogger("org.apache.kafka").getLevel()).isEqualTo(Level.WARN);
        assertThat(context.getLogger("kafka").getLevel()).isEqualTo(Level.WARN);
    }

    @Test
    void stepsAsideForALogbackFileNamedOnTheCommandLine() {
        System.setProperty(ContextInitializer.CONFIG_FILE_PROPERTY, "/etc/etl/logback.xml");
        LoggerContext context = configuredAnswering(ExecutionStatus.NEUTRAL);

        assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME)
                        .iteratorForAppenders()
                        .hasNext())
                .isFalse();
    }

    @Test
    void theFormatComesFromThePropertyThenTheEnvironmentAndIsTextOtherwise() {
        assertThat(DefaultLogbackConfigurator.format("json", null)).isEqualTo("json");
        assertThat(DefaultLogbackConfigurator.format(null, " JSON ")).isEqualTo("json");
        assertThat(DefaultLogbackConfigurator.format("text", "json")).isEqualTo("text");
        assertThat(DefaultLogbackConfigurator.format(null, null)).isEqualTo("text");
        assertThat(DefaultLogbackConfigurator.format("", "")).isEqualTo("text");
    }

    @Test
    void aTextEventIsOneLineEvenWithLineBreaksInItsMessageAndAnException() {
        LoggerContext context = new LoggerContext();
        context.setMDCAdapter(new LogbackMDCAdapter());
        Logger logger = context.getLogger("io.etl.test");
        LoggingEvent event = new LoggingEvent(
                Logger.class.getName(),
                logger,
                Level.ERROR,
                "pipeline failed: invalid configuration (2 problems):\n  a: x\n  b: y",
                new IllegalStateException("broker said:\nno"),
                null);

        String line = DefaultLogbackConfigurator.textLayout(context).doLayout(event);

        assertThat(line).endsWith(System.lineSeparator());
        assertThat(line.strip().lines()).hasSize(1);
        assertThat(line)
                .contains("pipeline failed: invalid configuration (2 problems): a: x b: y | ")
                .contains("java.lang.IllegalStateException: broker said: | no | at ");
    }

    /**
     * A fresh context the configurator has been run on, as logback's start-up runs it; {@code expected} is
     * what it must answer (whether logback is to try the configurators after it).
     */
    private static LoggerContext configuredAnswering(ExecutionStatus expected) {
        LoggerContext context = new LoggerContext();
        DefaultLogbackConfigurator configurator = new DefaultLogbackConfigurator();
        configurator.setContext(context);

        assertThat(configurator.configure(context)).isEqualTo(expected);
        return context;
    }
}
