package io.etl.kafka.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The public package must not leak kafka-clients (or internal) types into signatures. */
class PublicApiTest {

    private static final List<Class<?>> PUBLIC_TYPES = List.of(KafkaSink.class, KafkaSinkBuilder.class,
            KafkaSinkConfig.class, KafkaMessage.class, KafkaMessage.Builder.class, MessageEncoder.class,
            Change.class, TopicSpec.class, Compression.class);

    @Test
    void publicSignaturesExposeNoKafkaClientsTypes() {
        List<String> leaks = new ArrayList<>();
        for (Class<?> type : PUBLIC_TYPES) {
            for (Method m : type.getDeclaredMethods()) {
                if (!Modifier.isPublic(m.getModifiers())) {
                    continue;
                }
                List<Type> types = new ArrayList<>(List.of(m.getGenericParameterTypes()));
                types.add(m.getGenericReturnType());
                types.addAll(List.of(m.getGenericExceptionTypes()));
                for (Type t : types) {
                    String name = t.getTypeName();
                    if (name.contains("org.apache.kafka") || name.contains(".internal.")) {
                        leaks.add(type.getSimpleName() + "." + m.getName() + ": " + name);
                    }
                }
            }
            if (type.isRecord()) {
                for (RecordComponent c : type.getRecordComponents()) {
                    if (c.getGenericType().getTypeName().contains("org.apache.kafka")) {
                        leaks.add(type.getSimpleName() + "." + c.getName());
                    }
                }
            }
        }
        assertThat(leaks).isEmpty();
    }

    @Test
    void everyPublicTypeOfThePackageIsListed() throws Exception {
        // a new public type must be added above so the check covers it
        var loader = getClass().getClassLoader();
        var root = java.nio.file.Path.of(loader.getResource("io/etl/kafka/sink/KafkaSink.class").toURI()).getParent();
        try (var files = java.nio.file.Files.list(root)) {
            List<String> classes = files.map(p -> p.getFileName().toString())
                    .filter(f -> f.endsWith(".class") && !f.equals("package-info.class"))
                    .map(f -> f.substring(0, f.length() - ".class".length()))
                    .toList();
            for (String c : classes) {
                Class<?> type = Class.forName("io.etl.kafka.sink." + c);
                if (Modifier.isPublic(type.getModifiers())) {
                    assertThat(PUBLIC_TYPES).as(c).contains(type);
                }
            }
        }
    }
}
