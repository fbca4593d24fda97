package io.etl.testkit;

import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The client side of a secured test broker: ready-made client properties per user, the generated
 * trust material, and ACL helpers. Obtained from {@link KafkaTestCluster#security()}.
 *
 * <pre>{@code
 * ClusterSecurity sec = cluster.security().orElseThrow();
 * Map<String, String> ok = sec.clientProperties("alice", "alice-secret");
 * Map<String, String> wrong = sec.clientProperties("alice", "not-her-password");
 * Path truststore = sec.truststorePath();
 * }</pre>
 *
 * <p>Every map holds {@code bootstrap.servers}, {@code security.protocol} and the SSL/SASL settings,
 * and nothing else: add serializers and the like yourself.
 */
public interface ClusterSecurity {

    /** @return the settings the broker was started with */
    BrokerSecurity settings();

    /**
     * Client properties for a SCRAM user with the given password; the password is not checked here,
     * so a test can hand a wrong one to the broker.
     *
     * @param user     user name
     * @param password password to present
     * @return client properties
     * @throws UnsupportedOperationException for an mTLS broker
     */
    Map<String, String> clientProperties(String user, String password);

    /**
     * Client properties for a configured user: its SCRAM password, or for mTLS a keystore holding its
     * certificate ({@code CN=user}, signed by the test CA).
     *
     * @param user a user from {@link BrokerSecurity#allUsers()}
     * @return client properties
     * @throws IllegalArgumentException for an unknown user
     */
    Map<String, String> clientProperties(String user);

    /**
     * TLS client properties that trust the broker but present no client certificate and no SASL
     * credentials ({@code security.protocol=SSL}). Against an mTLS broker the handshake fails.
     *
     * @return client properties
     */
    Map<String, String> clientPropertiesWithoutCertificate();

    /** @return the PKCS12 truststore holding the test CA */
    Path truststorePath();

    /** @return the truststore's password */
    String truststorePassword();

    /** @return the truststore's type, {@code PKCS12} */
    String truststoreType();

    /** @return a PEM file holding the test CA certificate */
    Path caCertificatePemPath();

    /** @return the test CA certificate in PEM */
    String caCertificatePem();

    /**
     * Adds (or changes the password of) a SCRAM-SHA-512 user through the Admin API, as the super user, and
     * waits until the broker knows the credential. Users known before the broker starts are better given to
     * {@link BrokerSecurity.Builder#user(String, String)}; this one is for a test that needs a principal of
     * its own. Connect as it with {@link #clientProperties(String, String)}.
     *
     * @param user     user name (principal {@code User:user})
     * @param password its SCRAM password
     * @throws UnsupportedOperationException for an mTLS broker
     */
    void createUser(String user, String password);

    /**
     * Grants an ACL ({@code ALLOW} from any host) as the super user and waits until the broker applies it.
     *
     * @param user      user name (principal {@code User:user})
     * @param operation the operation, e.g. {@link AclOperation#WRITE}
     * @param type      resource type, e.g. {@link ResourceType#TOPIC}
     * @param name      literal resource name, or {@code *} for all
     */
    void allow(String user, AclOperation operation, ResourceType type, String name);

    /**
     * Grants operations on a topic.
     *
     * @param user       user name
     * @param topic      topic name, or {@code *}
     * @param operations operations to allow
     */
    default void allowTopic(String user, String topic, AclOperation... operations) {
        for (AclOperation op : operations) {
            allow(user, op, ResourceType.TOPIC, topic);
        }
    }

    /**
     * Grants {@code READ} on a consumer group, enough to join it and commit offsets.
     *
     * @param user  user name
     * @param group group id, or {@code *}
     */
    default void allowGroup(String user, String group) {
        allow(user, AclOperation.READ, ResourceType.GROUP, group);
    }
}
