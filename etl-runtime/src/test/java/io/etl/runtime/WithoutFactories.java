package io.etl.runtime;

import java.io.IOException;
import java.net.URL;
import java.util.Collections;
import java.util.Enumeration;
import java.util.function.Supplier;

/** Runs code with a context class loader that hides every registered {@link PipelineFactory}, as a bare runtime jar. */
final class WithoutFactories extends ClassLoader {

    private static final String SERVICES = "META-INF/services/" + PipelineFactory.class.getName();

    private WithoutFactories(ClassLoader parent) {
        super(parent);
    }

    @Override
    public Enumeration<URL> getResources(String name) throws IOException {
        return SERVICES.equals(name) ? Collections.emptyEnumeration() : super.getResources(name);
    }

    /** {@code body}'s result, computed while the current thread's context class loader hides the factories. */
    static <T> T call(Supplier<T> body) {
        Thread thread = Thread.currentThread();
        ClassLoader original = thread.getContextClassLoader();
        thread.setContextClassLoader(new WithoutFactories(original));
        try {
            return body.get();
        } finally {
            thread.setContextClassLoader(original);
        }
    }
}
