package io.etl.schema.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The order in which a schema's references are parsed: depth first, the schemas a referenced schema references
 * before it, each (subject, version) once, so one parser has seen every type a schema names before it reads it.
 */
final class References {

    private References() {}

    /** A version of a subject. */
    private record Key(String subject, int version) {
        @Override
        public String toString() {
            return "'" + subject + "' version " + version;
        }
    }

    /**
     * The schemas {@code references} name, and the ones those name, deepest first.
     *
     * @param fetch the referenced schema of one reference
     * @throws RegistryException when the references form a cycle (naming its subjects and versions), or whatever
     *                           {@code fetch} throws
     */
    static List<SubjectVersion> inDependencyOrder(
            List<SchemaReference> references, Function<SchemaReference, SubjectVersion> fetch) {
        if (references.isEmpty()) {
            return List.of();
        }
        Map<Key, SubjectVersion> resolved = new LinkedHashMap<>();
        visit(references, fetch, resolved, new ArrayList<>());
        return List.copyOf(resolved.values());
    }

    private static void visit(
            List<SchemaReference> references,
            Function<SchemaReference, SubjectVersion> fetch,
            Map<Key, SubjectVersion> resolved,
            List<Key> path) {
        for (SchemaReference reference : references) {
            Key key = new Key(reference.subject(), reference.version());
            if (resolved.containsKey(key)) {
                continue;
            }
            int start = path.indexOf(key);
            if (start >= 0) {
                List<Key> cycle = new ArrayList<>(path.subList(start, path.size()));
                cycle.add(key);
                throw new RegistryException(
                        "the schema registry's references form a cycle: "
                                + cycle.stream().map(Key::toString).collect(Collectors.joining(" -> ")),
                        200,
                        0,
                        false,
                        null);
            }
            path.add(key);
            SubjectVersion referenced = fetch.apply(reference);
            visit(referenced.schema().references(), fetch, resolved, path);
            path.remove(path.size() - 1);
            resolved.put(key, referenced);
        }
    }
}
