package io.etl.core.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.core.internal.config.Constraints.Violation;
import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import jakarta.validation.Valid;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConstraintsTest {

    record Limits(
            @NotNull @Min(1) @Max(10) Integer count,

            @DecimalMin(value = "0.0", inclusive = false) @DecimalMax("1.5")
            Double ratio,

            @Positive BigDecimal amount,
            @Size(min = 2, max = 3) String code,

            @Pattern(regexp = "[a-z]+", flags = Pattern.Flag.CASE_INSENSITIVE)
            String name,

            @AssertTrue Boolean enabled) {}

    record Server(
            @NotBlank String host,
            @Min(value = 1, message = "port {value} and up") Integer port) {}

    record Cluster(
            @NotEmpty List<@NotBlank String> topics,
            @Valid Server primary,
            List<@Valid Server> replicas,
            Map<String, @Valid Server> named) {}

    @Test
    void acceptsValuesWithinEveryConstraint() {
        Limits ok = new Limits(10, 1.5, new BigDecimal("0.01"), "abc", "Orders", true);

        assertThat(Constraints.check(ok)).isEmpty();
    }

    @Test
    void reportsEachBrokenConstraintWithItsStandardMessage() {
        Limits bad = new Limits(0, 0.0, BigDecimal.ZERO, "a", "orders-1", false);

        assertThat(Constraints.check(bad))
                .containsExactlyInAnyOrder(
                        new Violation("count", "must be greater than or equal to 1"),
                        new Violation("ratio", "must be greater than 0.0"),
                        new Violation("amount", "must be greater than 0"),
                        new Violation("code", "size must be between 2 and 3"),
                        new Violation("name", "must match \"[a-z]+\""),
                        new Violation("enabled", "must be true"));
    }

    @Test
    void leavesNullsToNotNullAloneAndTakesNaNForOutOfBounds() {
        assertThat(Constraints.check(new Limits(null, null, null, null, null, null)))
                .containsExactly(new Violation("count", "must not be null"));
        assertThat(Constraints.check(new Limits(11, Double.NaN, null, null, null, null)))
                .containsExactlyInAnyOrder(
                        new Violation("count", "must be less than or equal to 10"),
                        new Violation("ratio", "must be greater than 0.0"),
                        new Violation("ratio", "must be less than or equal to 1.5"));
    }

    @Test
    void checksElementsAndCascadesWithTheirPaths() {
        Cluster cluster = new Cluster(
                List.of("orders", " "),
                new Server("", 9092),
                List.of(new Server("b1", 9092), new Server("b2", 0)),
                Map.of("backup", new Server(null, 9092)));

        assertThat(Constraints.check(cluster))
                .containsExactlyInAnyOrder(
                        new Violation("topics[1]", "must not be blank"),
                        new Violation("primary.host", "must not be blank"),
                        new Violation("replicas[1].port", "port 1 and up"),
                        new Violation("named.backup.host", "must not be blank"));
    }

    @Test
    void checksOneValueAgainstAPropertysConstraintsOnly() {
        assertThat(Constraints.checkValue(Cluster.class, "topics", List.of()))
                .containsExactly(new Violation("topics", "must not be empty"));
        assertThat(Constraints.checkValue(Cluster.class, "topics", List.of("a", "")))
                .containsExactly(new Violation("topics[1]", "must not be blank"));
        assertThat(Constraints.checkValue(Cluster.class, "named", Map.of())).isEmpty();
        assertThatThrownBy(() -> Constraints.checkValue(Cluster.class, "nodes", 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'nodes'");
    }

    @Retention(RetentionPolicy.RUNTIME)
    @Constraint(validatedBy = {})
    @interface Even {
        String message() default "must be even";

        Class<?>[] groups() default {};

        Class<? extends Payload>[] payload() default {};
    }

    record Custom(@Even Integer value) {}

    record KeyConstraint(Map<@NotBlank String, Integer> counts) {}

    @Test
    void refusesAConstraintOnMapKeysRatherThanIgnoringIt() {
        assertThatThrownBy(() -> Constraints.check(new KeyConstraint(Map.of("a", 1))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(NotBlank.class.getName())
                .hasMessageContaining(KeyConstraint.class.getName() + ".counts");
    }

    @Test
    void refusesAConstraintItCannotCheckByName() {
        assertThatThrownBy(() -> Constraints.check(new Custom(2)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("@" + Even.class.getName())
                .hasMessageContaining(Custom.class.getName() + ".value");
    }
}
