package io.etl.testkit.internal;

import io.etl.testkit.BrokerSecurity;
import io.etl.testkit.ClusterSecurity;
import io.etl.testkit.KafkaTestClusterException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;

/** Client properties and ACL helpers for a broker the kit secured. */
final class ClusterSecurityImpl implements ClusterSecurity {

    private final BrokerSecurity settings;
    private final Supplier<String> bootstrap;
    private final TlsMaterial tls;
    private final Supplier<Admin> superAdmin;

    ClusterSecurityImpl(
            BrokerSecurity settings, Supplier<String> bootstrap, TlsMaterial tls, Supplier<Admin> superAdmin) {
        this.settings = settings;
        this.bootstrap = bootstrap;
        this.tls = tls;
        this.superAdmin = superAdmin;
    }

    static String scramJaas(String user, String password) {
        return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + escape(user)
                + "\" password=\"" + escape(password) + "\";";
    }

    private static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    /** @return the super user's client properties */
    Map<String, String> superUserProperties() {
        return clientProperties(settings.superUser());
    }

    @Override
    public BrokerSecurity settings() {
        return settings;
    }

    @Override
    public Map<String, String> clientProperties(String user, String password) {
        if (settings.mode() != BrokerSecurity.Mode.SASL_SSL_SCRAM) {
            throw new UnsupportedOperationException("the broker uses mTLS: use clientProperties(user)");
        }
        Map<String, String> p = trustOnly();
        p.put("security.protocol", "SASL_SSL");
        p.put("sasl.mechanism", "SCRAM-SHA-512");
        p.put("sasl.jaas.config", scramJaas(user, password));
        return p;
    }

    @Override
    public Map<String, String> clientProperties(String user) {
        Map<String, String> users = settings.allUsers();
        if (!users.containsKey(user)) {
            throw new IllegalArgumentException("unknown user '" + user + "'; configured: " + users.keySet());
        }
        if (settings.mode() == BrokerSecurity.Mode.SASL_SSL_SCRAM) {
            return clientProperties(user, users.get(user));
        }
        Map<String, String> p = trustOnly();
        p.put("ssl.keystore.location", tls.clientKeystore(user).toString());
        p.put("ssl.keystore.password", tls.password());
        p.put("ssl.key.password", tls.password());
        p.put("ssl.keystore.type", TlsMaterial.STORE_TYPE);
        return p;
    }

    @Override
    public Map<String, String> clientPropertiesWithoutCertificate() {
        return trustOnly();
    }

    private Map<String, String> trustOnly() {
        Map<String, String> p = new HashMap<>();
        p.put("bootstrap.servers", bootstrap.get());
        p.put("security.protocol", "SSL");
        p.put("ssl.truststore.location", tls.truststore().toString());
        p.put("ssl.truststore.password", tls.password());
        p.put("ssl.truststore.type", TlsMaterial.STORE_TYPE);
        return p;
    }

    @Override
    public Path truststorePath() {
        return tls.truststore();
    }

    @Override
    public String truststorePassword() {
        return tls.password();
    }

    @Override
    public String truststoreType() {
        return TlsMaterial.STORE_TYPE;
    }

    @Override
    public Path caCertificatePemPath() {
        return tls.caPem();
    }

    @Override
    public String caCertificatePem() {
        return tls.caPemText();
    }

    @Override
    public void createUser(String user, String password) {
        if (settings.mode() != BrokerSecurity.Mode.SASL_SSL_SCRAM) {
            throw new UnsupportedOperationException(
                    "the broker uses mTLS: users are certificates, given to BrokerSecurity");
        }
        Admin admin = superAdmin.get();
        UserScramCredentialUpsertion upsert = new UserScramCredentialUpsertion(
                user, new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 8192), password);
        try {
            admin.alterUserScramCredentials(List.of(upsert)).all().get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaTestClusterException("interrupted while creating SCRAM user '" + user + "'", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new KafkaTestClusterException("cannot create SCRAM user '" + user + "'", e);
        }
        Waits.until(
                "SCRAM user '" + user + "' to be known",
                Duration.ofSeconds(30),
                () -> admin.describeUserScramCredentials(List.of(user))
                        .all()
                        .get(5, TimeUnit.SECONDS)
                        .containsKey(user));
    }

    @Override
    public void allow(String user, AclOperation operation, ResourceType type, String name) {
        if (!settings.aclAuthorizer()) {
            throw new IllegalStateException(
                    "the broker runs without an authorizer: build BrokerSecurity with aclAuthorizer(true)");
        }
        AclBinding binding = new AclBinding(
                new ResourcePattern(type, name, PatternType.LITERAL),
                new AccessControlEntry("User:" + user, "*", operation, AclPermissionType.ALLOW));
        Admin admin = superAdmin.get();
        try {
            admin.createAcls(List.of(binding)).all().get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaTestClusterException("interrupted while creating ACL " + binding, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new KafkaTestClusterException("cannot create ACL " + binding, e);
        }
        AclBindingFilter filter = new AclBindingFilter(
                new ResourcePatternFilter(type, name, PatternType.LITERAL),
                new AccessControlEntryFilter("User:" + user, "*", operation, AclPermissionType.ALLOW));
        Waits.until(
                "ACL " + binding + " to be applied",
                Duration.ofSeconds(30),
                () -> !admin.describeAcls(filter)
                        .values()
                        .get(5, TimeUnit.SECONDS)
                        .isEmpty());
    }

    @Override
    public void revoke(String user, AclOperation operation, ResourceType type, String name) {
        if (!settings.aclAuthorizer()) {
            throw new IllegalStateException(
                    "the broker runs without an authorizer: build BrokerSecurity with aclAuthorizer(true)");
        }
        AclBindingFilter filter = new AclBindingFilter(
                new ResourcePatternFilter(type, name, PatternType.LITERAL),
                new AccessControlEntryFilter("User:" + user, "*", operation, AclPermissionType.ALLOW));
        Admin admin = superAdmin.get();
        try {
            admin.deleteAcls(List.of(filter)).all().get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaTestClusterException("interrupted while deleting ACL " + filter, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new KafkaTestClusterException("cannot delete ACL " + filter, e);
        }
        Waits.until(
                "ACL " + filter + " to be removed",
                Duration.ofSeconds(30),
                () -> admin.describeAcls(filter)
                        .values()
                        .get(5, TimeUnit.SECONDS)
                        .isEmpty());
    }
}
