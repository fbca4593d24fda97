package io.etl.testkit.internal;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/** A cluster someone else runs: the kit only creates clients for it. */
public final class ExternalKafkaCluster extends AbstractKafkaTestCluster {

    private final String bootstrap;
    private final Map<String, String> extra;

    /**
     * @param bootstrap        bootstrap address
     * @param clientProperties extra client properties (security, ...)
     */
    public ExternalKafkaCluster(String bootstrap, Map<String, String> clientProperties) {
        this.bootstrap = Objects.requireNonNull(bootstrap, "bootstrap").trim();
        if (this.bootstrap.isEmpty()) {
            throw new IllegalArgumentException("empty bootstrap address");
        }
        this.extra = Map.copyOf(clientProperties);
    }

    @Override
    public Kind kind() {
        return Kind.EXTERNAL;
    }

    @Override
    public String bootstrapServers() {
        return bootstrap;
    }

    @Override
    public Map<String, String> clientProperties() {
        Map<String, String> p = new HashMap<>(extra);
        p.put("bootstrap.servers", bootstrap);
        return p;
    }

    @Override
    protected void doClose() {
        // nothing started, nothing to stop
    }

    @Override
    public String toString() {
        return "external Kafka at " + bootstrap;
    }
}
