package io.etl.testkit.internal;

import io.etl.testkit.BrokerOptions;
import io.etl.testkit.BrokerSecurity;
import io.etl.testkit.KerberosListener;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * The {@code server.properties} of one KRaft node, and the storage formatting that must precede its
 * first start. Shared by the embedded broker and the forked JVMs.
 *
 * <p>Listeners: {@code CLIENT} (plaintext, {@code SASL_SSL} or {@code SSL}) is what clients get;
 * {@code INTERNAL} (plaintext, only when secured) carries inter-broker traffic; {@code CONTROLLER}
 * (plaintext) carries the KRaft quorum; {@code PROXIED} (only with {@code BrokerOptions.proxied()}) is a
 * second client listener, secured like {@code CLIENT}, advertised at the address of the node's proxy. All
 * bind 127.0.0.1.
 *
 * @param proxiedPort the port the {@code PROXIED} listener binds, or {@link #NO_PORT}
 * @param proxyPort   the port of the proxy in front of it, which the listener advertises, or {@link #NO_PORT}
 */
record NodeConfig(
        int nodeId,
        Role role,
        int clientPort,
        int internalPort,
        int controllerPort,
        Path dataDir,
        String voters,
        int brokerCount,
        BrokerOptions options,
        TlsMaterial tls,
        boolean fastSessions,
        int kerberosPort,
        int proxiedPort,
        int proxyPort) {

    static final String CONTROLLER_LISTENER = "CONTROLLER";
    static final String CLIENT_LISTENER = "CLIENT";
    static final String INTERNAL_LISTENER = "INTERNAL";
    static final String KERBEROS_LISTENER = "KERBEROS";
    static final String PROXIED_LISTENER = "PROXIED";
    static final String HOST = "127.0.0.1";
    /** A port a node does not listen on: a controller's client ports, a node's Kerberos port without Kerberos. */
    static final int NO_PORT = -1;

    /** What a node does. */
    enum Role {
        COMBINED("broker,controller"),
        BROKER("broker"),
        CONTROLLER("controller");

        final String processRoles;

        Role(String processRoles) {
            this.processRoles = processRoles;
        }

        boolean servesClients() {
            return this != CONTROLLER;
        }
    }

    /** A node without a proxy. */
    NodeConfig(
            int nodeId,
            Role role,
            int clientPort,
            int internalPort,
            int controllerPort,
            Path dataDir,
            String voters,
            int brokerCount,
            BrokerOptions options,
            TlsMaterial tls,
            boolean fastSessions,
            int kerberosPort) {
        this(
                nodeId,
                role,
                clientPort,
                internalPort,
                controllerPort,
                dataDir,
                voters,
                brokerCount,
                options,
                tls,
                fastSessions,
                kerberosPort,
                NO_PORT,
                NO_PORT);
    }

    private boolean kerberos() {
        return options.kerberos() != null && role.servesClients();
    }

    private boolean proxied() {
        return options.proxied() && role.servesClients();
    }

    /** The listeners that clients reach, whose security the {@code security} options set. */
    private List<String> clientListeners() {
        return proxied() ? List.of(CLIENT_LISTENER, PROXIED_LISTENER) : List.of(CLIENT_LISTENER);
    }

    static String clientProtocol(BrokerSecurity security) {
        if (security == null) {
            return "PLAINTEXT";
        }
        return security.mode() == BrokerSecurity.Mode.SASL_SSL_SCRAM ? "SASL_SSL" : "SSL";
    }

    Map<String, String> properties() {
        BrokerSecurity security = options.security();
        boolean secured = security != null;
        Map<String, String> p = new LinkedHashMap<>();
        p.put("node.id", Integer.toString(nodeId));
        p.put("process.roles", role.processRoles);
        p.put("controller.quorum.voters", voters);
        p.put("controller.listener.names", CONTROLLER_LISTENER);
        p.put(
                "listener.security.protocol.map",
                CONTROLLER_LISTENER + ":PLAINTEXT," + INTERNAL_LISTENER + ":PLAINTEXT,"
                        + CLIENT_LISTENER + ":" + clientProtocol(security)
                        + (proxied() ? "," + PROXIED_LISTENER + ":" + clientProtocol(security) : "")
                        + (kerberos() ? "," + KERBEROS_LISTENER + ":SASL_PLAINTEXT" : ""));
        List<String> listeners = new ArrayList<>();
        List<String> advertised = new ArrayList<>();
        if (role.servesClients()) {
            listeners.add(CLIENT_LISTENER + "://" + HOST + ":" + clientPort);
            advertised.add(CLIENT_LISTENER + "://" + HOST + ":" + clientPort);
            if (secured) {
                listeners.add(INTERNAL_LISTENER + "://" + HOST + ":" + internalPort);
                advertised.add(INTERNAL_LISTENER + "://" + HOST + ":" + internalPort);
            }
            p.put("inter.broker.listener.name", secured ? INTERNAL_LISTENER : CLIENT_LISTENER);
            if (proxied()) {
                if (proxiedPort <= 0 || proxyPort <= 0) {
                    throw new IllegalStateException("node " + nodeId + " is proxied but has no ports for it");
                }
                listeners.add(PROXIED_LISTENER + "://" + HOST + ":" + proxiedPort);
                advertised.add(PROXIED_LISTENER + "://" + HOST + ":" + proxyPort);
            }
            if (kerberos()) {
                if (kerberosPort <= 0) {
                    throw new IllegalStateException("node " + nodeId + " has a Kerberos listener but no port for it");
                }
                listeners.add(KERBEROS_LISTENER + "://" + HOST + ":" + kerberosPort);
                advertised.add(KERBEROS_LISTENER + "://" + KerberosListener.ADVERTISED_HOST + ":" + kerberosPort);
            }
        }
        if (role != Role.BROKER) {
            listeners.add(CONTROLLER_LISTENER + "://" + HOST + ":" + controllerPort);
        }
        p.put("listeners", String.join(",", listeners));
        if (!advertised.isEmpty()) {
            p.put("advertised.listeners", String.join(",", advertised));
        }
        p.put("log.dirs", dataDir.toString());

        // Internal topics: replication factor never above the broker count, else groups hang silently.
        String rf = Integer.toString(Math.min(3, brokerCount));
        String minIsr = Integer.toString(Math.min(2, brokerCount));
        p.put("offsets.topic.replication.factor", rf);
        p.put("offsets.topic.num.partitions", "5");
        p.put("transaction.state.log.replication.factor", rf);
        p.put("transaction.state.log.min.isr", minIsr);
        p.put("transaction.state.log.num.partitions", "5");
        p.put("share.coordinator.state.topic.replication.factor", rf);
        p.put("share.coordinator.state.topic.min.isr", minIsr);
        p.put("share.coordinator.state.topic.num.partitions", "5");
        p.put("default.replication.factor", rf);
        p.put("group.initial.rebalance.delay.ms", "0");
        p.put("log.cleaner.dedupe.buffer.size", "2097152");
        if (fastSessions) {
            // a node restarted after kill -9 is let back in within seconds instead of ~15 s
            p.put("broker.heartbeat.interval.ms", "500");
            p.put("broker.session.timeout.ms", "2500");
        }
        if (secured) {
            putSecurity(p, security);
        }
        if (kerberos()) {
            String prefix = "listener.name." + KERBEROS_LISTENER.toLowerCase() + ".";
            p.put(prefix + "sasl.enabled.mechanisms", "GSSAPI");
            p.put(prefix + "gssapi.sasl.jaas.config", options.kerberos().brokerJaasConfig());
            p.put(
                    prefix + "gssapi.sasl.kerberos.service.name",
                    options.kerberos().serviceName());
            p.put("sasl.kerberos.service.name", options.kerberos().serviceName());
        }
        p.putAll(options.brokerProperties());
        return p;
    }

    private void putSecurity(Map<String, String> p, BrokerSecurity security) {
        p.put("ssl.keystore.location", tls.brokerKeystore().toString());
        p.put("ssl.keystore.password", tls.password());
        p.put("ssl.key.password", tls.password());
        p.put("ssl.keystore.type", TlsMaterial.STORE_TYPE);
        p.put("ssl.truststore.location", tls.truststore().toString());
        p.put("ssl.truststore.password", tls.password());
        p.put("ssl.truststore.type", TlsMaterial.STORE_TYPE);
        if (security.mode() == BrokerSecurity.Mode.SASL_SSL_SCRAM) {
            p.put("sasl.enabled.mechanisms", "SCRAM-SHA-512");
        } else {
            p.put("ssl.principal.mapping.rules", "RULE:^CN=([^,]+).*$/$1/,DEFAULT");
        }
        for (String listener : clientListeners()) {
            String prefix = "listener.name." + listener.toLowerCase() + ".";
            if (security.mode() == BrokerSecurity.Mode.SASL_SSL_SCRAM) {
                p.put(prefix + "sasl.enabled.mechanisms", "SCRAM-SHA-512");
                p.put(
                        prefix + "scram-sha-512.sasl.jaas.config",
                        ClusterSecurityImpl.scramJaas(security.superUser(), security.superUserPassword()));
                p.put(prefix + "ssl.client.auth", "none");
            } else {
                p.put(prefix + "ssl.client.auth", "required");
            }
        }
        if (security.aclAuthorizer()) {
            p.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
            // ANONYMOUS is the principal on the plaintext INTERNAL and CONTROLLER listeners
            p.put("super.users", "User:" + security.superUser() + ";User:ANONYMOUS");
            p.put("allow.everyone.if.no.acl.found", "false");
        }
    }

    void writeTo(Path file) {
        Properties props = new Properties();
        props.putAll(properties());
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            props.store(out, "generated by etl-testkit for node " + nodeId);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** Whether the node's data directory already holds formatted storage, which a start then reuses. */
    boolean isFormatted() {
        return Files.exists(dataDir.resolve("meta.properties"));
    }

    /** Formats the node's storage (in this JVM), adding the SCRAM users when the broker uses SCRAM. */
    void format(String clusterId) {
        List<String> scram = new ArrayList<>();
        BrokerSecurity security = options.security();
        if (security != null && security.mode() == BrokerSecurity.Mode.SASL_SSL_SCRAM) {
            security.allUsers()
                    .forEach((user, password) -> scram.add(
                            "SCRAM-SHA-512=[name=" + user + ",password=\"" + password.replace("\"", "\\\"") + "\"]"));
        }
        try {
            Files.createDirectories(dataDir);
            Formatter formatter = new Formatter()
                    .setPrintStream(new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8))
                    .setNodeId(nodeId)
                    .setClusterId(clusterId)
                    .setDirectories(List.of(dataDir.toString()))
                    .setMetadataLogDirectory(dataDir.toString())
                    .setControllerListenerName(CONTROLLER_LISTENER)
                    .setReleaseVersion(MetadataVersion.latestProduction());
            if (!scram.isEmpty()) {
                formatter.setScramArguments(scram);
            }
            formatter.run();
        } catch (Exception e) {
            throw new IllegalStateException("cannot format the storage of node " + nodeId + " in " + dataDir, e);
        }
    }
}
