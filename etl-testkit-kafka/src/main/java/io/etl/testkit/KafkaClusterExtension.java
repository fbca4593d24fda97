package io.etl.testkit;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestInstancePostProcessor;

/**
 * The JUnit 5 extension behind {@link EmbeddedKafka}; usable directly with
 * {@code @ExtendWith(KafkaClusterExtension.class)} for a per-class cluster with default options.
 *
 * <p>It resolves parameters of type {@link KafkaTestCluster} and fills {@code null} fields of that
 * type. Nested test classes share their outermost class's cluster.
 */
public final class KafkaClusterExtension implements BeforeAllCallback, TestInstancePostProcessor, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(KafkaClusterExtension.class);

    /** Created by JUnit. */
    public KafkaClusterExtension() {}

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        KafkaTestCluster cluster = cluster(context);
        for (Class<?> c = context.getRequiredTestClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            inject(c, null, cluster, true);
        }
    }

    @Override
    public void postProcessTestInstance(Object testInstance, ExtensionContext context) throws Exception {
        KafkaTestCluster cluster = cluster(context);
        for (Class<?> c = testInstance.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            inject(c, testInstance, cluster, false);
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == KafkaTestCluster.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext)
            throws ParameterResolutionException {
        return cluster(extensionContext);
    }

    private static void inject(Class<?> type, Object instance, KafkaTestCluster cluster, boolean statics)
            throws IllegalAccessException {
        for (Field field : type.getDeclaredFields()) {
            if (field.getType() != KafkaTestCluster.class
                    || Modifier.isFinal(field.getModifiers())
                    || Modifier.isStatic(field.getModifiers()) != statics) {
                continue;
            }
            field.setAccessible(true);
            if (field.get(instance) == null) {
                field.set(instance, cluster);
            }
        }
    }

    private static KafkaTestCluster cluster(ExtensionContext context) {
        Optional<EmbeddedKafka> annotation = annotation(context);
        boolean shared = annotation.map(EmbeddedKafka::shared).orElse(false);
        BrokerOptions options = options(annotation);
        ExtensionContext owner = shared ? context.getRoot() : outermostClassContext(context);
        String key = (shared ? "shared:" : "class:") + options.brokerProperties();
        return owner.getStore(NAMESPACE)
                .computeIfAbsent(
                        key, k -> new ClusterResource(KafkaTestCluster.fromEnvironment(options)), ClusterResource.class)
                .cluster;
    }

    private static Optional<EmbeddedKafka> annotation(ExtensionContext context) {
        for (Optional<ExtensionContext> c = Optional.of(context);
                c.isPresent();
                c = c.get().getParent()) {
            Optional<Class<?>> testClass = c.get().getTestClass();
            for (Class<?> t = testClass.orElse(null); t != null; t = t.getEnclosingClass()) {
                EmbeddedKafka found = t.getAnnotation(EmbeddedKafka.class);
                if (found != null) {
                    return Optional.of(found);
                }
            }
        }
        return Optional.empty();
    }

    private static BrokerOptions options(Optional<EmbeddedKafka> annotation) {
        BrokerOptions.Builder builder = BrokerOptions.builder();
        annotation
                .map(a -> Arrays.asList(a.brokerProperties()))
                .orElse(List.of())
                .forEach(kv -> {
                    int eq = kv.indexOf('=');
                    if (eq <= 0) {
                        throw new IllegalArgumentException(
                                "@EmbeddedKafka brokerProperties entry '" + kv + "' is not key=value");
                    }
                    builder.brokerProperty(
                            kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
                });
        return builder.build();
    }

    private static ExtensionContext outermostClassContext(ExtensionContext context) {
        ExtensionContext c = context;
        while (c.getParent().isPresent() && c.getParent().get().getTestClass().isPresent()) {
            c = c.getParent().get();
        }
        return c;
    }

    /** Closed by JUnit when its store closes (end of class, or end of run for the root store). */
    private static final class ClusterResource implements AutoCloseable {
        private final KafkaTestCluster cluster;

        private ClusterResource(KafkaTestCluster cluster) {
            this.cluster = cluster;
        }

        @Override
        public void close() {
            cluster.close();
        }
    }
}
