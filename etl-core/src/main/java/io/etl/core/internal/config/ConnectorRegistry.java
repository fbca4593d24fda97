package io.etl.core.internal.config;

import io.etl.core.config.ConnectorConfigType;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The connector section types by role and key: discovered once with {@link ServiceLoader}, or given. */
final class ConnectorRegistry {

    private static final Logger LOG = LoggerFactory.getLogger(ConnectorRegistry.class);

    private static ConnectorRegistry discovered;

    private final Map<ConnectorConfigType.Role, Map<String, ConnectorConfigType<?>>> types =
            new EnumMap<>(ConnectorConfigType.Role.class);

    private ConnectorRegistry(Collection<? extends ConnectorConfigType<?>> all) {
        for (ConnectorConfigType.Role role : ConnectorConfigType.Role.values()) {
            types.put(role, new TreeMap<>());
        }
        for (ConnectorConfigType<?> type : all) {
            ConnectorConfigType<?> previous = types.get(type.role()).putIfAbsent(type.key(), type);
            if (previous != null && previous.getClass() != type.getClass()) {
                LOG.warn(
                        "{} connector '{}' is registered by both {} and {}; using the first",
                        type.role(),
                        type.key(),
                        previous.getClass().getName(),
                        type.getClass().getName());
            }
        }
    }

    /** The types registered in {@code META-INF/services}, loaded on first use and then cached. */
    static synchronized ConnectorRegistry discovered() {
        if (discovered == null) {
            List<ConnectorConfigType<?>> found = ServiceLoader.load(ConnectorConfigType.class).stream()
                    .<ConnectorConfigType<?>>map(provider -> (ConnectorConfigType<?>) provider.get())
                    .toList();
            discovered = new ConnectorRegistry(found);
            LOG.debug(
                    "connector sections: sources {}, sinks {}",
                    discovered.keys(ConnectorConfigType.Role.SOURCE),
                    discovered.keys(ConnectorConfigType.Role.SINK));
        }
        return discovered;
    }

    /** Exactly the given types. */
    static ConnectorRegistry of(Collection<? extends ConnectorConfigType<?>> types) {
        return new ConnectorRegistry(types);
    }

    Optional<ConnectorConfigType<?>> find(ConnectorConfigType.Role role, String key) {
        return Optional.ofNullable(types.get(role).get(key));
    }

    /** Every registered type. */
    List<ConnectorConfigType<?>> all() {
        return types.values().stream().flatMap(byKey -> byKey.values().stream()).toList();
    }

    /** The registered keys of a role, sorted. */
    List<String> keys(ConnectorConfigType.Role role) {
        return List.copyOf(types.get(role).keySet());
    }
}
