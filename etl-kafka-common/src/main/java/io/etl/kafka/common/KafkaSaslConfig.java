package io.etl.kafka.common;

import io.etl.core.config.ConfigValidation;
import io.etl.core.error.ConfigException;
import io.etl.core.error.ConfigProblem;
import io.etl.kafka.common.internal.AwsMskIam;
import io.etl.kafka.common.internal.ClientProperties;
import io.etl.kafka.common.internal.KerberosSupport;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

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
 * <p>In code, build one with a factory ({@link #scramSha512}, {@link #gssapi}, ...), {@link #custom()} or
 * {@link #from(KafkaSaslConfig)}; however it is built, an instance holds only settings YAML validation accepts.
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

    /**
     * The settings, each null one unset ({@code service_name} at its default with GSSAPI). YAML binding calls this
     * constructor; code reads better with {@link #custom()} or a factory such as {@link #scramSha512}.
     *
     * @throws ConfigException when the settings do not fit the mechanism (a missing password, a key the mechanism
     *                         does not take, an unreadable keytab, ...), naming each
     */
    public KafkaSaslConfig(
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
        this.mechanism = mechanism;
        this.username = username;
        this.password = password;
        this.tokenEndpointUrl = tokenEndpointUrl;
        this.clientId = clientId;
        this.clientSecret = clientSecret;
        this.scope = scope;
        this.principal = principal;
        this.keytabFile = keytabFile;
        this.serviceName =
                mechanism == SaslMechanism.GSSAPI && serviceName == null ? DEFAULT_SERVICE_NAME : serviceName;
        this.krb5ConfigFile = krb5ConfigFile;
        this.awsRoleArn = awsRoleArn;
        this.awsRoleSessionName = awsRoleSessionName;
        this.awsStsRegion = awsStsRegion;
        this.awsProfileName = awsProfileName;
        ConfigValidation.checkConstructed(this, c -> c.check(""));
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
        Builder b =
                custom().mechanism(SaslMechanism.GSSAPI).principal(principal).keytabFile(keytabFile);
        if (serviceName != null) {
            b.serviceName(serviceName);
        }
        if (krb5ConfigFile != null) {
            b.krb5ConfigFile(krb5ConfigFile);
        }
        return b.build();
    }

    /**
     * AWS_MSK_IAM (Amazon MSK's IAM access control).
     *
     * @param roleArn     IAM role to assume, or null
     * @param profileName named profile of the AWS credentials file, or null for the default provider chain
     */
    public static KafkaSaslConfig awsMskIam(String roleArn, String profileName) {
        Builder b = custom().mechanism(SaslMechanism.AWS_MSK_IAM);
        if (roleArn != null) {
            b.awsRoleArn(roleArn);
        }
        if (profileName != null) {
            b.awsProfileName(profileName);
        }
        return b.build();
    }

    /** A mechanism that signs in with a user name and password only. */
    private static KafkaSaslConfig withPassword(SaslMechanism mechanism, String username, String password) {
        return custom().mechanism(mechanism)
                .username(username)
                .password(password)
                .build();
    }

    /**
     * The rules of this block a record cannot express: a mechanism, the keys it needs and no key it does not take,
     * an absolute token endpoint URL, readable Kerberos files (and one Kerberos configuration per JVM), and the
     * AWS_MSK_IAM jar on the class path. {@code path} is the block's own path, e.g.
     * {@code sinks.eu.kafka.security.sasl}. The protocol it needs is the security section's rule.
     */
    public List<ConfigProblem> check(String path) {
        List<ConfigProblem> problems = new ArrayList<>();
        if (mechanism == null) {
            problems.add(new ConfigProblem(
                    path + ".mechanism",
                    "is required (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER, GSSAPI or AWS_MSK_IAM)"));
            return problems;
        }
        boolean withPassword = mechanism == SaslMechanism.PLAIN
                || mechanism == SaslMechanism.SCRAM_SHA_256
                || mechanism == SaslMechanism.SCRAM_SHA_512;
        boolean oauth = mechanism == SaslMechanism.OAUTHBEARER;
        boolean kerberos = mechanism == SaslMechanism.GSSAPI;
        boolean iam = mechanism == SaslMechanism.AWS_MSK_IAM;
        if (withPassword) {
            requireSet(path, "username", username, problems);
            requireSet(path, "password", password, problems);
        } else {
            rejectSet(path, "username", username, problems);
            rejectSet(path, "password", password, problems);
        }
        if (oauth) {
            requireSet(path, "token_endpoint_url", tokenEndpointUrl, problems);
            endpointUrl(path + ".token_endpoint_url", tokenEndpointUrl, problems);
            requireSet(path, "client_id", clientId, problems);
            requireSet(path, "client_secret", clientSecret, problems);
        } else {
            rejectSet(path, "token_endpoint_url", tokenEndpointUrl, problems);
            rejectSet(path, "client_id", clientId, problems);
            rejectSet(path, "client_secret", clientSecret, problems);
            rejectSet(path, "scope", scope, problems);
        }
        if (kerberos) {
            requireSet(path, "principal", principal, problems);
            requireSet(path, "keytab_file", keytabFile, problems);
            requireSet(path, "service_name", serviceName, problems);
            readable(path + ".keytab_file", keytabFile, problems);
            krb5File(path + ".krb5_config_file", krb5ConfigFile, problems);
        } else {
            rejectSet(path, "principal", principal, problems);
            rejectSet(path, "keytab_file", keytabFile, problems);
            rejectSet(path, "service_name", serviceName, problems);
            rejectSet(path, "krb5_config_file", krb5ConfigFile, problems);
        }
        if (iam) {
            if (!AwsMskIam.available()) {
                problems.add(new ConfigProblem(path + ".mechanism", AwsMskIam.missing()));
            }
            if (awsRoleArn == null) {
                onlyWithRole(path, "aws_role_session_name", awsRoleSessionName, problems);
                onlyWithRole(path, "aws_sts_region", awsStsRegion, problems);
            }
        } else {
            rejectSet(path, "aws_role_arn", awsRoleArn, problems);
            rejectSet(path, "aws_role_session_name", awsRoleSessionName, problems);
            rejectSet(path, "aws_sts_region", awsStsRegion, problems);
            rejectSet(path, "aws_profile_name", awsProfileName, problems);
        }
        return problems;
    }

    /**
     * A token endpoint the OAuth login can call: an absolute {@code https}, {@code http} or {@code file} URL, with a
     * host for the first two. The value is not echoed: a URL may carry credentials.
     */
    private static void endpointUrl(String path, String url, List<ConfigProblem> problems) {
        if (url == null || url.isBlank()) {
            return;
        }
        String problem;
        try {
            URI uri = new URI(url.strip());
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("https") && !scheme.equals("http") && !scheme.equals("file")) {
                problem = "expected an https (or http, or file) URL such as https://idp.example.com/oauth2/token";
            } else if (!scheme.equals("file")
                    && (uri.getHost() == null || uri.getHost().isEmpty())) {
                problem = "expected an " + scheme + " URL with a host, such as " + scheme
                        + "://idp.example.com/oauth2/token";
            } else {
                return;
            }
        } catch (URISyntaxException e) {
            problem = "is not a valid URL (" + e.getReason() + " at index " + e.getIndex() + ")";
        }
        problems.add(new ConfigProblem(path, problem));
    }

    private static void readable(String path, String file, List<ConfigProblem> problems) {
        if (file != null && !file.isBlank() && !Files.isReadable(Path.of(file))) {
            problems.add(new ConfigProblem(path, "cannot read file " + file));
        }
    }

    /** A readable Kerberos configuration, the same file as any other this JVM already uses. */
    private static void krb5File(String path, String file, List<ConfigProblem> problems) {
        readable(path, file, problems);
        if (file != null) {
            KerberosSupport.conflict(file).ifPresent(why -> problems.add(new ConfigProblem(path, why)));
        }
    }

    private static void onlyWithRole(String path, String key, String value, List<ConfigProblem> problems) {
        if (value != null) {
            problems.add(new ConfigProblem(path + "." + key, "is only used with aws_role_arn"));
        }
    }

    private void requireSet(String path, String key, String value, List<ConfigProblem> problems) {
        if (value == null || value.isBlank()) {
            problems.add(new ConfigProblem(path + "." + key, "is required with mechanism " + mechanism));
        }
    }

    private void rejectSet(String path, String key, String value, List<ConfigProblem> problems) {
        if (value != null) {
            problems.add(new ConfigProblem(path + "." + key, "is not used with mechanism " + mechanism));
        }
    }

    /** A builder starting from the defaults: no mechanism (which {@link Builder#build()} requires), nothing set. */
    public static Builder custom() {
        return new Builder();
    }

    /** A builder starting from {@code base}. */
    public static Builder from(KafkaSaslConfig base) {
        return new Builder(Objects.requireNonNull(base, "base"));
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

    /**
     * Builds a {@link KafkaSaslConfig} in code. Each setter rejects a value that is wrong on its own at once (a file
     * that cannot be read, a token endpoint that is not a URL), with the message YAML validation gives;
     * {@link #build()} checks that the keys fit the mechanism.
     */
    public static final class Builder {

        private SaslMechanism mechanism;
        private String username;
        private String password;
        private String tokenEndpointUrl;
        private String clientId;
        private String clientSecret;
        private String scope;
        private String principal;
        private String keytabFile;
        private String serviceName;
        private String krb5ConfigFile;
        private String awsRoleArn;
        private String awsRoleSessionName;
        private String awsStsRegion;
        private String awsProfileName;

        private Builder() {}

        private Builder(KafkaSaslConfig base) {
            mechanism = base.mechanism();
            username = base.username();
            password = base.password();
            tokenEndpointUrl = base.tokenEndpointUrl();
            clientId = base.clientId();
            clientSecret = base.clientSecret();
            scope = base.scope();
            principal = base.principal();
            keytabFile = base.keytabFile();
            serviceName = base.serviceName();
            krb5ConfigFile = base.krb5ConfigFile();
            awsRoleArn = base.awsRoleArn();
            awsRoleSessionName = base.awsRoleSessionName();
            awsStsRegion = base.awsStsRegion();
            awsProfileName = base.awsProfileName();
        }

        /** PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER, GSSAPI or AWS_MSK_IAM; required. */
        public Builder mechanism(SaslMechanism value) {
            mechanism = ConfigValidation.requireNonNull("mechanism", value);
            return this;
        }

        /** The user name, for PLAIN and SCRAM (required there). */
        public Builder username(String value) {
            username = ConfigValidation.requireNonNull("username", value);
            return this;
        }

        /** The password, for PLAIN and SCRAM (required there). */
        public Builder password(String value) {
            password = ConfigValidation.requireNonNull("password", value);
            return this;
        }

        /** The OAuth token endpoint, an absolute https, http or file URL, for OAUTHBEARER (required there). */
        public Builder tokenEndpointUrl(String value) {
            ConfigValidation.requireNonNull("tokenEndpointUrl", value);
            List<ConfigProblem> problems = new ArrayList<>(1);
            endpointUrl("token_endpoint_url", value, problems);
            ConfigValidation.requireNone(problems);
            tokenEndpointUrl = value;
            return this;
        }

        /** The OAuth client id, for OAUTHBEARER (required there). */
        public Builder clientId(String value) {
            clientId = ConfigValidation.requireNonNull("clientId", value);
            return this;
        }

        /** The OAuth client secret, for OAUTHBEARER (required there). */
        public Builder clientSecret(String value) {
            clientSecret = ConfigValidation.requireNonNull("clientSecret", value);
            return this;
        }

        /** The OAuth scope to request, for OAUTHBEARER; default none. */
        public Builder scope(String value) {
            scope = ConfigValidation.requireNonNull("scope", value);
            return this;
        }

        /** The client's Kerberos principal, e.g. {@code etl@EXAMPLE.COM}, for GSSAPI (required there). */
        public Builder principal(String value) {
            principal = ConfigValidation.requireNonNull("principal", value);
            return this;
        }

        /** A readable keytab holding the principal's keys, for GSSAPI (required there). */
        public Builder keytabFile(String value) {
            ConfigValidation.requireNonNull("keytabFile", value);
            List<ConfigProblem> problems = new ArrayList<>(1);
            readable("keytab_file", value, problems);
            ConfigValidation.requireNone(problems);
            keytabFile = value;
            return this;
        }

        /** The brokers' Kerberos service name, for GSSAPI; default {@value KafkaSaslConfig#DEFAULT_SERVICE_NAME}. */
        public Builder serviceName(String value) {
            serviceName = ConfigValidation.requireNonNull("serviceName", value);
            return this;
        }

        /**
         * A readable Kerberos configuration, for GSSAPI; the same file as every other Kerberos section of the JVM
         * (it sets {@code java.security.krb5.conf}). Default: the JVM's.
         */
        public Builder krb5ConfigFile(String value) {
            ConfigValidation.requireNonNull("krb5ConfigFile", value);
            List<ConfigProblem> problems = new ArrayList<>(1);
            krb5File("krb5_config_file", value, problems);
            ConfigValidation.requireNone(problems);
            krb5ConfigFile = value;
            return this;
        }

        /** An IAM role to assume, for AWS_MSK_IAM; default none. */
        public Builder awsRoleArn(String value) {
            awsRoleArn = ConfigValidation.requireNonNull("awsRoleArn", value);
            return this;
        }

        /** The session name when assuming {@link #awsRoleArn}, for AWS_MSK_IAM. */
        public Builder awsRoleSessionName(String value) {
            awsRoleSessionName = ConfigValidation.requireNonNull("awsRoleSessionName", value);
            return this;
        }

        /** The STS region used to assume {@link #awsRoleArn}, for AWS_MSK_IAM. */
        public Builder awsStsRegion(String value) {
            awsStsRegion = ConfigValidation.requireNonNull("awsStsRegion", value);
            return this;
        }

        /** A named profile of the AWS credentials file, for AWS_MSK_IAM; default the provider chain. */
        public Builder awsProfileName(String value) {
            awsProfileName = ConfigValidation.requireNonNull("awsProfileName", value);
            return this;
        }

        /** The settings; the constructor checks that they fit the mechanism. */
        public KafkaSaslConfig build() {
            return new KafkaSaslConfig(
                    mechanism,
                    username,
                    password,
                    tokenEndpointUrl,
                    clientId,
                    clientSecret,
                    scope,
                    principal,
                    keytabFile,
                    serviceName,
                    krb5ConfigFile,
                    awsRoleArn,
                    awsRoleSessionName,
                    awsStsRegion,
                    awsProfileName);
        }
    }
}
