package io.etl.runtime.internal;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.util.ContextInitializer;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import ch.qos.logback.core.spi.ContextAwareBase;
import io.etl.runtime.LogFormat;
import io.etl.runtime.Logging;
import java.util.Locale;
import java.util.Map;

/**
 * The runtime's logging when nobody configured logback: one event a line on standard error, as text (default) or
 * JSON, chosen by the system property {@code etl.log.format} (the run command sets it from {@code --log-format}),
 * else the environment variable {@code ETL_LOG_FORMAT}. Kafka clients and an in-process broker log at WARN and
 * above.
 *
 * <p>Built in code rather than read from an XML file, which spares every start the XML parser. It steps aside
 * (logback then reads the file as usual) when {@code -Dlogback.configurationFile} is set or a {@code logback.xml}
 * or {@code logback-test.xml} is on the class path. Registered in
 * {@code META-INF/services/ch.qos.logback.classic.spi.Configurator}.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_NORMAL_PRIORITY)
public final class DefaultLogbackConfigurator extends ContextAwareBase implements Configurator {

    /** A message's line breaks are folded, and an exception follows on the same line ({@code %oneLineEx}). */
    static final String TEXT_PATTERN =
            "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %-5level %replace([%X{pipeline}] ){'\\[\\] ', ''}"
                    + "%logger{30} - %replace(%msg){'\\s*\\R\\s*', ' '}%oneLineEx%n";
    /** Loggers that are chatty at INFO: their warnings and errors are what an operator needs. */
    private static final Map<String, Level> QUIET = Map.of(
            "org.apache.kafka", Level.WARN,
            "kafka", Level.WARN,
            "state.change.logger", Level.WARN);

    /** Public for {@link java.util.ServiceLoader}. */
    public DefaultLogbackConfigurator() {}

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (configuredElsewhere(context.getClass().getClassLoader())) {
            return ExecutionStatus.NEUTRAL;
        }
        boolean json = "json".equals(format(System.getProperty(Logging.FORMAT_PROPERTY), System.getenv(LogFormat.ENV)));
        ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
        console.setContext(context);
        console.setName(json ? "json" : "text");
        console.setTarget("System.err");
        console.setEncoder(json ? jsonEncoder(context) : textEncoder(context));
        console.start();
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.INFO);
        root.addAppender(console);
        QUIET.forEach((name, level) -> context.getLogger(name).setLevel(level));
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    /** {@code json} or {@code text}: the property, else the environment variable, else text. */
    public static String format(String property, String env) {
        String value = property != null && !property.isBlank() ? property : env;
        return value != null && value.strip().toLowerCase(Locale.ROOT).equals("json") ? "json" : "text";
    }

    private static boolean configuredElsewhere(ClassLoader loader) {
        if (System.getProperty(ContextInitializer.CONFIG_FILE_PROPERTY) != null) {
            return true;
        }
        ClassLoader l = loader != null ? loader : ClassLoader.getSystemClassLoader();
        return l.getResource(ContextInitializer.TEST_AUTOCONFIG_FILE) != null
                || l.getResource(ContextInitializer.AUTOCONFIG_FILE) != null;
    }

    /** The text format's layout: one event, its exception included, on one line. */
    static PatternLayout textLayout(LoggerContext context) {
        PatternLayout layout = new PatternLayout();
        layout.setContext(context);
        layout.getInstanceConverterMap().put("oneLineEx", OneLineThrowableConverter::new);
        layout.setPattern(TEXT_PATTERN);
        layout.start();
        return layout;
    }

    private static Encoder<ILoggingEvent> textEncoder(LoggerContext context) {
        LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
        encoder.setContext(context);
        encoder.setLayout(textLayout(context));
        encoder.start();
        return encoder;
    }

    private static Encoder<ILoggingEvent> jsonEncoder(LoggerContext context) {
        JsonEncoder encoder = new JsonEncoder();
        encoder.setContext(context);
        encoder.setWithSequenceNumber(false);
        encoder.setWithNanoseconds(false);
        encoder.setWithContext(false);
        encoder.setWithMessage(false);
        encoder.setWithArguments(false);
        encoder.setWithFormattedMessage(true);
        encoder.start();
        return encoder;
    }
}
