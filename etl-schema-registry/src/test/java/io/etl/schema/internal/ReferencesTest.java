package io.etl.schema.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReferencesTest {

    /** Version 1 of {@code subject}, whose schema has {@code references}. */
    private static SubjectVersion schema(String subject, SchemaReference... references) {
        return new SubjectVersion(subject, 1, 0, new SchemaText(SchemaText.AVRO, "{}", List.of(references)));
    }

    private static SchemaReference to(String subject) {
        return new SchemaReference("io.etl." + subject, subject, 1);
    }

    @Test
    void shouldListTheDeepestFirstAndEachVersionOnce() {
        Map<String, SubjectVersion> versions = Map.of(
                "order", schema("order", to("customer"), to("address")),
                "customer", schema("customer", to("address"), to("country")),
                "address", schema("address", to("country")),
                "country", schema("country"));
        List<String> asked = new ArrayList<>();

        List<SubjectVersion> ordered = References.inDependencyOrder(List.of(to("order"), to("address")), r -> {
            asked.add(r.subject());
            return versions.get(r.subject());
        });

        assertThat(ordered)
                .extracting(SubjectVersion::subject)
                .containsExactly("country", "address", "customer", "order");
        assertThat(asked).containsExactlyInAnyOrder("order", "customer", "address", "country");
    }

    @Test
    void shouldNameTheVersionsOfACycle() {
        Map<String, SubjectVersion> versions = Map.of(
                "order", schema("order", to("customer")),
                "customer", schema("customer", to("address")),
                "address", schema("address", to("customer")));

        assertThatThrownBy(() -> References.inDependencyOrder(List.of(to("order")), r -> versions.get(r.subject())))
                .isInstanceOf(RegistryException.class)
                .hasMessageContaining("'customer' version 1 -> 'address' version 1 -> 'customer' version 1");
    }
}
