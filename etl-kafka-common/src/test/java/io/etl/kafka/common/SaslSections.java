package io.etl.kafka.common;

import io.etl.core.internal.config.AsBound;
import java.util.HashMap;
import java.util.Map;

/**
 * SASL sections written with their YAML keys, for the checks on mixes of keys that no factory of
 * {@link KafkaSaslConfig} makes (a key the mechanism does not take, a required one left out): built as the loader
 * binds a file, so that such a section exists for {@link KafkaSecurityConfig#check} to report on.
 */
final class SaslSections {

    private SaslSections() {}

    /** The section {@code {mechanism: ..., <keys>}}; a key left out is null. */
    static KafkaSaslConfig sasl(SaslMechanism mechanism, Map<String, String> keys) {
        Map<String, String> rest = new HashMap<>(keys);
        KafkaSaslConfig sasl = AsBound.record(() -> new KafkaSaslConfig(
                mechanism,
                rest.remove("username"),
                rest.remove("password"),
                rest.remove("token_endpoint_url"),
                rest.remove("client_id"),
                rest.remove("client_secret"),
                rest.remove("scope"),
                rest.remove("principal"),
                rest.remove("keytab_file"),
                rest.remove("service_name"),
                rest.remove("krb5_config_file"),
                rest.remove("aws_role_arn"),
                rest.remove("aws_role_session_name"),
                rest.remove("aws_sts_region"),
                rest.remove("aws_profile_name")));
        if (!rest.isEmpty()) {
            throw new IllegalArgumentException("security.sasl has no key " + rest.keySet());
        }
        return sasl;
    }
}
