package io.etl.kafka.common;

import io.etl.kafka.common.internal.ClientProperties;

/**
 * SASL settings of the typed security section ({@code security.sasl}).
 * <ul>
 *   <li>{@code PLAIN} and {@code SCRAM-SHA-256/512} take a user name and password;</li>
 *   <li>{@code OAUTHBEARER} fetches tokens from {@code token_endpoint_url} with the client-credentials grant
 *       ({@code client_id}, {@code client_secret}, optional {@code scope});</li>
 *   <li>{@code GSSAPI} (Kerberos) logs in as {@code principal} with the keys of {@code keytab_file}, for the
 *       brokers' {@code service_name} (default {@value #DEFAULT_SERVICE_NAME}); {@code krb5_config_file} sets the
 *       JVM-wide {@code java.security.krb5.conf}, so every Kerberos section of one JVM must name the same file;</li>
 *   <li>{@code AWS_MSK_IAM} signs in with AWS credentials (the default provider chain, a named profile, or a role
 *       to assume); it needs {@code software.amazon.msk:aws-msk-iam-auth} on the class path.</li>
 * </ul>
 * Keep secrets out of the file with {@code ${VAR}}.
 *
 * <pre>{@code
 * sasl: {mechanism: GSSAPI, principal: etl@EXAMPLE.COM, keytab_file: /etc/security/etl.keytab,
 *        krb5_config_file: /etc/krb5.conf}
 * sasl: {mechanism: AWS_MSK_IAM, aws_role_arn: "arn:aws:iam::123456789012:role/etl"}
 * }</pre>
 *
 * @param mechanism          PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER, GSSAPI or AWS_MSK_IAM
 * @param username           user name (PLAIN, SCRAM)
 * @param password           password (PLAIN, SCRAM)
 * @param tokenEndpointUrl   OAuth token endpoint (OAUTHBEARER)
 * @param clientId           OAuth client id (OAUTHBEARER)
 * @param clientSecret       OAuth client secret (OAUTHBEARER)
 * @param scope              OAuth scope to request, optional (OAUTHBEARER)
 * @param principal          Kerberos principal of the client, e.g. {@code etl@EXAMPLE.COM} (GSSAPI)
 * @param keytabFile         keytab holding the principal's keys (GSSAPI)
 * @param serviceName        Kerberos service name of the brokers (GSSAPI; {@code sasl.kerberos.service.name})
 * @param krb5ConfigFile     Kerberos configuration file, optional (GSSAPI; sets {@code java.security.krb5.conf})
 * @param awsRoleArn         IAM role to assume, optional (AWS_MSK_IAM)
 * @param awsRoleSessionName session name when assuming {@code aws_role_arn}, optional (AWS_MSK_IAM)
 * @param awsStsRegion       STS region used to assume {@code aws_role_arn}, optional (AWS_MSK_IAM)
 * @param awsProfileName     named profile of the AWS credentials file, optional (AWS_MSK_IAM)
 */
public record KafkaSaslConfig(
        SaslMechanism mechanism,
        String username,
        String password,
        String tokenEndpointUrl,
        String clientId,
        String clientSecret,
        String scope,
        String principal,
        String keytabFile,
        String serviceName,
        String krb5ConfigFile,
        String awsRoleArn,
        String awsRoleSessionName,
        String awsStsRegion,
        String awsProfileName) {

    /** The Kerberos service name brokers conventionally run under. */
    public static final String DEFAULT_SERVICE_NAME = "kafka";

    public KafkaSaslConfig {
        if (mechanism == SaslMechanism.GSSAPI && serviceName == null) {
            serviceName = DEFAULT_SERVICE_NAME;
        }
    }

    /** SCRAM-SHA-512 with a user name and password. */
    public static KafkaSaslConfig scramSha512(String username, String password) {
        return withPassword(SaslMechanism.SCRAM_SHA_512, username, password);
    }

    /** SCRAM-SHA-256 with a user name and password. */
    public static KafkaSaslConfig scramSha256(String username, String password) {
        return withPassword(SaslMechanism.SCRAM_SHA_256, username, password);
    }

    /** PLAIN with a user name and password. */
    public static KafkaSaslConfig plain(String username, String password) {
        return withPassword(SaslMechanism.PLAIN, username, password);
    }

    /**
     * GSSAPI (Kerberos) with a keytab.
     *
     * @param principal      the client's principal, e.g. {@code etl@EXAMPLE.COM}
     * @param keytabFile     keytab holding its keys
     * @param serviceName    the brokers' service name, or null for {@value #DEFAULT_SERVICE_NAME}
     * @param krb5ConfigFile the Kerberos configuration, or null for the JVM's
     */
    public static KafkaSaslConfig gssapi(
            String principal, String keytabFile, String serviceName, String krb5ConfigFile) {
        return withoutPassword(SaslMechanism.GSSAPI, principal, keytabFile, serviceName, krb5ConfigFile, null, null);
    }

    /**
     * AWS_MSK_IAM (Amazon MSK's IAM access control).
     *
     * @param roleArn     IAM role to assume, or null
     * @param profileName named profile of the AWS credentials file, or null for the default provider chain
     */
    public static KafkaSaslConfig awsMskIam(String roleArn, String profileName) {
        return withoutPassword(SaslMechanism.AWS_MSK_IAM, null, null, null, null, roleArn, profileName);
    }

    /** A mechanism that signs in with a user name and password only. */
    private static KafkaSaslConfig withPassword(SaslMechanism mechanism, String username, String password) {
        return new KafkaSaslConfig(
                mechanism, username, password, null, null, null, null, null, null, null, null, null, null, null, null);
    }

    /** A mechanism that signs in without a user name, password or OAuth client: Kerberos or IAM settings only. */
    private static KafkaSaslConfig withoutPassword(
            SaslMechanism mechanism,
            String principal,
            String keytabFile,
            String serviceName,
            String krb5ConfigFile,
            String awsRoleArn,
            String awsProfileName) {
        return new KafkaSaslConfig(
                mechanism,
                null,
                null,
                null,
                null,
                null,
                null,
                principal,
                keytabFile,
                serviceName,
                krb5ConfigFile,
                awsRoleArn,
                null,
                null,
                awsProfileName);
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("KafkaSaslConfig[mechanism=").append(mechanism);
        if (username != null || password != null) {
            s.append(", username=").append(username).append(", password=").append(ClientProperties.mask(password));
        }
        if (tokenEndpointUrl != null || clientId != null || clientSecret != null || scope != null) {
            s.append(", tokenEndpointUrl=")
                    .append(tokenEndpointUrl)
                    .append(", clientId=")
                    .append(clientId)
                    .append(", clientSecret=")
                    .append(ClientProperties.mask(clientSecret))
                    .append(", scope=")
                    .append(scope);
        }
        if (mechanism == SaslMechanism.GSSAPI || principal != null || keytabFile != null || krb5ConfigFile != null) {
            s.append(", principal=")
                    .append(principal)
                    .append(", keytabFile=")
                    .append(keytabFile)
                    .append(", serviceName=")
                    .append(serviceName)
                    .append(", krb5ConfigFile=")
                    .append(krb5ConfigFile);
        }
        if (awsRoleArn != null || awsRoleSessionName != null || awsStsRegion != null || awsProfileName != null) {
            s.append(", awsRoleArn=")
                    .append(awsRoleArn)
                    .append(", awsRoleSessionName=")
                    .append(awsRoleSessionName)
                    .append(", awsStsRegion=")
                    .append(awsStsRegion)
                    .append(", awsProfileName=")
                    .append(awsProfileName);
        }
        return s.append(']').toString();
    }
}
