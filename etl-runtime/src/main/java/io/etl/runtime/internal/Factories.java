package io.etl.runtime.internal;

import io.etl.runtime.PipelineFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/** Finds {@link PipelineFactory} implementations on the class path and picks the one to run. */
public final class Factories {

    private final Map<String, PipelineFactory> byName;

    private Factories(Map<String, PipelineFactory> byName) {
        this.byName = byName;
    }

    /** Factories registered with {@link ServiceLoader} in {@code loader}. */
    public static Factories discover(ClassLoader loader) {
        List<PipelineFactory> found = new ArrayList<>();
        try {
            ServiceLoader.load(PipelineFactory.class, loader).forEach(found::add);
        } catch (ServiceConfigurationError e) {
            throw new SelectionException("a registered pipeline factory cannot be loaded: " + e.getMessage());
        }
        return of(found);
    }

    /** These factories; two with one name are an error naming both classes. */
    public static Factories of(List<? extends PipelineFactory> factories) {
        Map<String, PipelineFactory> byName = new LinkedHashMap<>();
        for (PipelineFactory f : factories) {
            PipelineFactory other = byName.putIfAbsent(f.name(), f);
            if (other != null) {
                throw new SelectionException("two pipeline factories are named '" + f.name() + "': "
                        + other.getClass().getName() + " and " + f.getClass().getName());
            }
        }
        return new Factories(byName);
    }

    /** The names found, in discovery order. */
    public List<String> names() {
        return List.copyOf(byName.keySet());
    }

    /**
     * The factory named {@code name}, or the only one when {@code name} is null.
     *
     * @throws SelectionException when none is found, the name is unknown, or several exist and none was named
     */
    public PipelineFactory select(String name) {
        if (byName.isEmpty()) {
            throw new SelectionException("no pipeline factory found on the class path: register an implementation"
                    + " of " + PipelineFactory.class.getName() + " in META-INF/services/"
                    + PipelineFactory.class.getName() + " of your pipeline jar");
        }
        if (name == null) {
            if (byName.size() == 1) {
                return byName.values().iterator().next();
            }
            throw new SelectionException("several pipelines found (" + String.join(", ", byName.keySet())
                    + "): choose one with --pipeline NAME");
        }
        PipelineFactory f = byName.get(name);
        if (f == null) {
            throw new SelectionException(
                    "unknown pipeline '" + name + "'; found: " + String.join(", ", byName.keySet()));
        }
        return f;
    }

    /** Why no factory could be chosen; a usage error. */
    public static final class SelectionException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        SelectionException(String message) {
            super(message);
        }
    }
}
