package io.etl.kafka.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.config.PipelineConfig;
import io.etl.kafka.common.KafkaSecurityConfig;
import io.etl.kafka.common.SaslMechanism;
import io.etl.kafka.common.internal.SecurityProperties;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.common.security.JaasContext;
import org.junit.jupiter.api.Test;

/**
 * AWS_MSK_IAM with {@code software.amazon.msk:aws-msk-iam-auth} on the class path (a test dependency of this
 * module only): the typed section maps onto the jar's login module and callback handler, which load.
 */
class AwsMskIamConfigTest {

    private static KafkaSecurityConfig security(String sasl) {
        return PipelineConfig.parse("""
                sinks:
                  eu:
                    kafka:
                      brokers: "b-1.msk.example:9098"
                      topic: t
                      security:
                        protocol: SASL_SSL
                        sasl: %s
                """.formatted(sasl), n -> null)
                .sink("eu")
                .connector(KafkaSinkConfig.class)
                .security();
    }

    @Test
    void roleAndProfileMapOntoTheIamLoginModuleAndCallbackHandler() throws Exception {
        KafkaSecurityConfig config =
                security("{mechanism: AWS_MSK_IAM, aws_role_arn: \"arn:aws:iam::123456789012:role/etl\","
                        + " aws_role_session_name: etl-eu, aws_sts_region: eu-west-1, aws_profile_name: prod}");
        assertThat(config.sasl().mechanism()).isEqualTo(SaslMechanism.AWS_MSK_IAM);
        assertThat(config.check("sinks.eu.kafka.security", Set.of())).isEmpty();

        Map<String, Object> props = SecurityProperties.clientProperties(config, "sinks.eu.kafka.security");

        assertThat(props)
                .containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("sasl.mechanism", "AWS_MSK_IAM")
                .containsEntry(
                        "sasl.client.callback.handler.class", "software.amazon.msk.auth.iam.IAMClientCallbackHandler");
        var entries = JaasContext.loadClientContext(
                        Map.of("sasl.jaas.config", new Password((String) props.get("sasl.jaas.config"))))
                .configurationEntries();
        assertThat(entries).singleElement().satisfies(e -> {
            assertThat(e.getLoginModuleName()).isEqualTo("software.amazon.msk.auth.iam.IAMLoginModule");
            assertThat(Map.<String, Object>copyOf(e.getOptions()))
                    .containsOnly(
                            Map.entry("awsRoleArn", (Object) "arn:aws:iam::123456789012:role/etl"),
                            Map.entry("awsRoleSessionName", (Object) "etl-eu"),
                            Map.entry("awsStsRegion", (Object) "eu-west-1"),
                            Map.entry("awsProfileName", (Object) "prod"));
        });
        // the names point at real classes of the jar
        assertThat(Class.forName(e(props, "sasl.client.callback.handler.class")))
                .isNotNull();
        assertThat(Class.forName(entries.get(0).getLoginModuleName())).isNotNull();
        assertThat(config.principal()).contains("role arn:aws:iam::123456789012:role/etl");
        assertThat(SecurityProperties.clientPropertyKeys(config)).containsExactlyInAnyOrderElementsOf(props.keySet());
    }

    @Test
    void withoutOptionsTheDefaultCredentialChainIsUsed() {
        KafkaSecurityConfig config = security("{mechanism: aws_msk_iam}");
        assertThat(SecurityProperties.clientProperties(config, "security").get("sasl.jaas.config"))
                .isEqualTo("software.amazon.msk.auth.iam.IAMLoginModule required;");
        assertThat(config.principal()).contains("the default AWS credentials");
    }

    private static String e(Map<String, Object> props, String key) {
        return (String) props.get(key);
    }
}
