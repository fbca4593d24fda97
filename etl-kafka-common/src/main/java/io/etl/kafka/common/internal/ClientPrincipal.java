package io.etl.kafka.common.internal;

import io.etl.kafka.common.KafkaSecurityConfig;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.SaslConfigs;

/**
 * The principal a client authenticates as, for error messages and findings ({@code principal User:etl is not
 * authorized...}): what the typed {@code security} section says, else the user name of a PLAIN or SCRAM JAAS
 * configuration given as client properties.
 *
 * <pre>{@code
 * String principal = ClientPrincipal.of(config.security(), config.producer()); // e.g. "User:etl", or null
 * }</pre>
 */
public final class ClientPrincipal {

    private static final Pattern JAAS_USERNAME = Pattern.compile("username=\"([^\"]*)\"");

    private ClientPrincipal() {}

    /**
     * @param security         the typed section, or {@code null}
     * @param clientProperties client properties that may hold {@code sasl.jaas.config} (a passthrough map, or a
     *                         connection's properties)
     * @return the principal, or {@code null} when neither says
     */
    public static String of(KafkaSecurityConfig security, Map<String, ?> clientProperties) {
        if (security != null && security.principal().isPresent()) {
            return security.principal().get();
        }
        return ofJaas(clientProperties.get(SaslConfigs.SASL_JAAS_CONFIG));
    }

    /** {@code User:<username>} of a JAAS configuration that names a user, else {@code null}. */
    public static String ofJaas(Object jaasConfig) {
        if (jaasConfig == null) {
            return null;
        }
        Matcher m = JAAS_USERNAME.matcher(jaasConfig.toString());
        return m.find() ? "User:" + m.group(1) : null;
    }
}
