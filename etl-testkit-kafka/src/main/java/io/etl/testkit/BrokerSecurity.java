package io.etl.testkit;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * How a test broker secures its client listener. Certificates (a throw-away CA, a broker certificate
 * for {@code IP:127.0.0.1} and {@code DNS:localhost}, one client certificate per user) are generated
 * when the broker starts and deleted with it.
 *
 * <pre>{@code
 * BrokerSecurity scram = BrokerSecurity.saslScram()
 *     .user("alice", "alice-secret")
 *     .aclAuthorizer(true)          // alice may do nothing until granted
 *     .build();
 * try (KafkaTestCluster cluster = KafkaTestCluster.embedded(BrokerOptions.builder().security(scram).build())) {
 *     ClusterSecurity sec = cluster.security().orElseThrow();
 *     sec.allowTopic("alice", "orders", AclOperation.READ, AclOperation.DESCRIBE);
 *     Map<String, String> aliceProps = sec.clientProperties("alice", "alice-secret");
 * }
 * }</pre>
 *
 * <p>The super user is in {@code super.users}; other users are subject to ACLs only when
 * {@link #aclAuthorizer()} is on (Kafka's {@code StandardAuthorizer} with
 * {@code allow.everyone.if.no.acl.found=false}). Inter-broker and controller traffic uses separate
 * plaintext listeners on 127.0.0.1 whose ports are never handed to clients.
 *
 * @param mode              the client listener's protocol
 * @param superUser         name of the super user
 * @param superUserPassword its SCRAM password (ignored for {@link Mode#MUTUAL_TLS})
 * @param users             further users and their SCRAM passwords (passwords ignored for mTLS)
 * @param aclAuthorizer     whether to enable the ACL authorizer
 */
public record BrokerSecurity(
        Mode mode, String superUser, String superUserPassword, Map<String, String> users, boolean aclAuthorizer) {

    /** Default super user name. */
    public static final String DEFAULT_SUPER_USER = "admin";
    /** Default super user password. */
    public static final String DEFAULT_SUPER_USER_PASSWORD = "admin-secret";

    /** The protocol of the client listener. */
    public enum Mode {
        /** {@code SASL_SSL} with {@code SCRAM-SHA-512}; users are created when the storage is formatted. */
        SASL_SSL_SCRAM,
        /** {@code SSL} with {@code ssl.client.auth=required}; the principal is the certificate's CN. */
        MUTUAL_TLS
    }

    /** Validates and copies. */
    public BrokerSecurity {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(superUser, "superUser");
        Objects.requireNonNull(superUserPassword, "superUserPassword");
        users = Collections.unmodifiableMap(new LinkedHashMap<>(users == null ? Map.of() : users));
        if (users.containsKey(superUser)) {
            throw new IllegalArgumentException("user '" + superUser + "' is already the super user");
        }
    }

    /** @return a builder for a {@code SASL_SSL} + {@code SCRAM-SHA-512} listener */
    public static Builder saslScram() {
        return new Builder(Mode.SASL_SSL_SCRAM);
    }

    /**
     * {@code SASL_SSL} + {@code SCRAM-SHA-512} with the ACL authorizer on, the default super user, and
     * {@code users}: the set-up of a test that checks what a principal may and may not do.
     *
     * @param users user names and their SCRAM passwords; each needs ACLs before it may do anything
     * @return the security settings
     */
    public static BrokerSecurity scramWithAcls(Map<String, String> users) {
        Builder builder = saslScram().aclAuthorizer(true);
        users.forEach(builder::user);
        return builder.build();
    }

    /** @return a builder for an {@code SSL} listener that requires client certificates */
    public static Builder mutualTls() {
        return new Builder(Mode.MUTUAL_TLS);
    }

    /**
     * Every user with a credential: the super user first, then {@link #users()}.
     *
     * @return user name to password
     */
    public Map<String, String> allUsers() {
        Map<String, String> all = new LinkedHashMap<>();
        all.put(superUser, superUserPassword);
        all.putAll(users);
        return all;
    }

    /** Builds a {@link BrokerSecurity}. */
    public static final class Builder {
        private final Mode mode;
        private String superUser = DEFAULT_SUPER_USER;
        private String superUserPassword = DEFAULT_SUPER_USER_PASSWORD;
        private final Map<String, String> users = new LinkedHashMap<>();
        private boolean aclAuthorizer;

        private Builder(Mode mode) {
            this.mode = mode;
        }

        /**
         * Replaces the default super user ({@value BrokerSecurity#DEFAULT_SUPER_USER}).
         *
         * @param name     user name
         * @param password SCRAM password
         * @return this builder
         */
        public Builder superUser(String name, String password) {
            this.superUser = name;
            this.superUserPassword = password;
            return this;
        }

        /**
         * Adds a user (SCRAM credential, or a client certificate with {@code CN=name} for mTLS).
         *
         * @param name     user name
         * @param password SCRAM password (for mTLS any non-null string)
         * @return this builder
         */
        public Builder user(String name, String password) {
            users.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(password, "password"));
            return this;
        }

        /**
         * Adds an mTLS user (a client certificate with {@code CN=name}).
         *
         * @param name user name
         * @return this builder
         */
        public Builder user(String name) {
            return user(name, "");
        }

        /**
         * Turns Kafka's {@code StandardAuthorizer} on: users other than the super user need ACLs.
         *
         * @param enabled whether to enable it
         * @return this builder
         */
        public Builder aclAuthorizer(boolean enabled) {
            this.aclAuthorizer = enabled;
            return this;
        }

        /** @return the security settings */
        public BrokerSecurity build() {
            return new BrokerSecurity(mode, superUser, superUserPassword, users, aclAuthorizer);
        }
    }
}
