package io.etl.testkit;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How to start a test broker: extra broker properties, optional security, a startup timeout and, for forked
 * brokers, the broker JVMs' flags.
 *
 * <pre>{@code
 * BrokerOptions options = BrokerOptions.builder()
 *     .brokerProperty("auto.create.topics.enable", "false")
 *     .brokerProperty("min.insync.replicas", "2")
 *     .build();
 * }</pre>
 *
 * <p>Extra properties are applied last, so they override the kit's defaults (single-node replication
 * factors, a small log cleaner buffer, {@code group.initial.rebalance.delay.ms=0}, ...). Listener and
 * directory properties are the kit's business: overriding them breaks the broker.
 *
 * @param brokerProperties extra {@code server.properties} entries
 * @param security         how the client listener is secured, or {@code null} for plaintext
 * @param startupTimeout   how long to wait for the broker to become ready
 * @param kerberos         an extra GSSAPI listener (forked brokers only), or {@code null}
 * @param jvmOptions       the forked broker JVMs' flags in place of the kit's small, quick-starting ones
 *                         ({@code -Xmx384m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 ...}); empty for the kit's
 * @param proxied          whether each broker gets a second client listener that clients reach through a
 *                         {@link TcpProxy} of its own ({@link KafkaTestCluster#proxies()})
 * @param clientPort       the port of the client listener on 127.0.0.1 (embedded broker only); 0 picks a free one
 * @param dataDirectory    where the embedded broker keeps its data, formatted on first use and kept when the
 *                         broker closes, so a later broker on it finds its topics and offsets again; {@code null}
 *                         for a temporary directory deleted on close
 */
public record BrokerOptions(
        Map<String, String> brokerProperties,
        BrokerSecurity security,
        Duration startupTimeout,
        KerberosListener kerberos,
        List<String> jvmOptions,
        boolean proxied,
        int clientPort,
        Path dataDirectory) {

    /** Default time to wait for a broker to answer {@code describeCluster}. */
    public static final Duration DEFAULT_STARTUP_TIMEOUT = Duration.ofSeconds(60);

    /** Copies and applies defaults. */
    public BrokerOptions {
        brokerProperties = Collections.unmodifiableMap(
                new LinkedHashMap<>(brokerProperties == null ? Map.of() : brokerProperties));
        startupTimeout = startupTimeout == null ? DEFAULT_STARTUP_TIMEOUT : startupTimeout;
        jvmOptions = jvmOptions == null ? List.of() : List.copyOf(jvmOptions);
        if (clientPort < 0 || clientPort > 65_535) {
            throw new IllegalArgumentException("clientPort must be 0..65535, got " + clientPort);
        }
    }

    /** Options of a broker on free ports and temporary storage. */
    public BrokerOptions(
            Map<String, String> brokerProperties,
            BrokerSecurity security,
            Duration startupTimeout,
            KerberosListener kerberos,
            List<String> jvmOptions,
            boolean proxied) {
        this(brokerProperties, security, startupTimeout, kerberos, jvmOptions, proxied, 0, null);
    }

    /** Options without proxies, on free ports and temporary storage. */
    public BrokerOptions(
            Map<String, String> brokerProperties,
            BrokerSecurity security,
            Duration startupTimeout,
            KerberosListener kerberos,
            List<String> jvmOptions) {
        this(brokerProperties, security, startupTimeout, kerberos, jvmOptions, false);
    }

    /** Options whose forked brokers run with the kit's JVM flags. */
    public BrokerOptions(
            Map<String, String> brokerProperties,
            BrokerSecurity security,
            Duration startupTimeout,
            KerberosListener kerberos) {
        this(brokerProperties, security, startupTimeout, kerberos, List.of());
    }

    /** Options without a Kerberos listener. */
    public BrokerOptions(Map<String, String> brokerProperties, BrokerSecurity security, Duration startupTimeout) {
        this(brokerProperties, security, startupTimeout, null);
    }

    /** @return plaintext, no extra properties, default timeout */
    public static BrokerOptions defaults() {
        return builder().build();
    }

    /** @return a builder starting from {@link #defaults()} */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the security settings, if the broker is secured */
    public Optional<BrokerSecurity> securitySettings() {
        return Optional.ofNullable(security);
    }

    /**
     * A copy with one more broker property.
     *
     * @param key   property name
     * @param value property value
     * @return the new options
     */
    public BrokerOptions withBrokerProperty(String key, String value) {
        Map<String, String> copy = new LinkedHashMap<>(brokerProperties);
        copy.put(key, value);
        return new BrokerOptions(
                copy, security, startupTimeout, kerberos, jvmOptions, proxied, clientPort, dataDirectory);
    }

    /** Builds {@link BrokerOptions}. */
    public static final class Builder {
        private final Map<String, String> brokerProperties = new LinkedHashMap<>();
        private BrokerSecurity security;
        private Duration startupTimeout = DEFAULT_STARTUP_TIMEOUT;
        private KerberosListener kerberos;
        private List<String> jvmOptions = List.of();
        private boolean proxied;
        private int clientPort;
        private Path dataDirectory;

        private Builder() {}

        /**
         * Adds a broker property, e.g. {@code auto.create.topics.enable=false}.
         *
         * @param key   property name
         * @param value property value
         * @return this builder
         */
        public Builder brokerProperty(String key, String value) {
            brokerProperties.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /**
         * Adds broker properties.
         *
         * @param properties property names to values
         * @return this builder
         */
        public Builder brokerProperties(Map<String, String> properties) {
            properties.forEach(this::brokerProperty);
            return this;
        }

        /**
         * Secures the client listener.
         *
         * @param security the security settings
         * @return this builder
         */
        public Builder security(BrokerSecurity security) {
            this.security = security;
            return this;
        }

        /**
         * Sets how long to wait for the broker to become ready.
         *
         * @param timeout the timeout
         * @return this builder
         */
        public Builder startupTimeout(Duration timeout) {
            this.startupTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /**
         * Adds a {@code SASL_PLAINTEXT}/{@code GSSAPI} listener (forked brokers only); see {@link KerberosListener}.
         *
         * @param listener the broker's Kerberos identity and the KDC's configuration
         * @return this builder
         */
        public Builder kerberos(KerberosListener listener) {
            this.kerberos = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /**
         * Starts forked broker JVMs with these flags instead of the kit's, which favour a quick start over
         * throughput (a benchmark's broker wants those of a production broker).
         *
         * @param options JVM flags such as {@code -Xmx1g}
         * @return this builder
         */
        public Builder jvmOptions(List<String> options) {
            this.jvmOptions = List.copyOf(Objects.requireNonNull(options, "options"));
            return this;
        }

        /**
         * Gives each broker a second client listener, with the same security, that it advertises at the address
         * of a {@link TcpProxy} of its own: clients bootstrapped through {@link BrokerProxies#bootstrapServers()}
         * learn only proxy addresses from the metadata, so every connection they open to the cluster can be
         * held, black-holed or reset. The kit's own clients, {@link KafkaTestCluster#bootstrapServers()} and
         * the brokers' traffic among themselves never pass a proxy. A proxy outlives its broker's restarts.
         *
         * @return this builder
         */
        public Builder proxied() {
            this.proxied = true;
            return this;
        }

        /**
         * Binds the embedded broker's client listener to this port of 127.0.0.1 instead of a free one, as a
         * development broker on {@code localhost:9092} needs.
         *
         * @param port 1..65535, or 0 for a free port (the default)
         * @return this builder
         */
        public Builder clientPort(int port) {
            if (port < 0 || port > 65_535) {
                throw new IllegalArgumentException("clientPort must be 0..65535, got " + port);
            }
            this.clientPort = port;
            return this;
        }

        /**
         * Keeps the embedded broker's data in {@code directory}: formatted when it holds no broker data yet, reused
         * as it is otherwise, and never deleted by the kit.
         *
         * @param directory the data directory, created when missing
         * @return this builder
         */
        public Builder dataDirectory(Path directory) {
            this.dataDirectory = Objects.requireNonNull(directory, "directory");
            return this;
        }

        /** @return the options */
        public BrokerOptions build() {
            return new BrokerOptions(
                    brokerProperties,
                    security,
                    startupTimeout,
                    kerberos,
                    jvmOptions,
                    proxied,
                    clientPort,
                    dataDirectory);
        }
    }
}
