package io.etl.core.internal.config;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.etl.core.config.DataSize;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Binds one node of the configuration tree to a record, strictly, and validates it. Every problem goes to
 * the collector with its full path; a section that cannot be bound at all yields null, so the other
 * sections are still bound and checked.
 */
final class SectionBinder {

    /** Shared and thread-safe once built: snake_case keys, unknown keys fail, enums case-insensitive. */
    static final ObjectMapper MAPPER = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_ENUMS)
            .addModule(new JavaTimeModule())
            .addModule(new SimpleModule("etl-config")
                    .addDeserializer(Duration.class, new DurationDeserializer())
                    .addDeserializer(DataSize.class, new DataSizeDeserializer())
                    .addDeserializer(Integer.class, whole(Integer.class))
                    .addDeserializer(int.class, whole(int.class))
                    .addDeserializer(Long.class, whole(Long.class))
                    .addDeserializer(long.class, whole(long.class)))
            .addHandler(new ProblemHandler())
            .build();

    @SuppressWarnings("unchecked")
    private static <T> JsonDeserializer<T> whole(Class<T> type) {
        return (JsonDeserializer<T>) (Object) new WholeNumberDeserializer(type);
    }

    private final ProblemCollector problems;
    private final Map<String, List<String>> variables;

    /**
     * @param problems  where problems go
     * @param variables variables behind interpolated values, by path (their values are never echoed)
     */
    SectionBinder(ProblemCollector problems, Map<String, List<String>> variables) {
        this.problems = problems;
        this.variables = variables;
    }

    /** Binds and validates {@code node} at {@code path}; null when it is absent or could not be bound. */
    <T> T bind(JsonNode node, Class<T> type, String path) {
        return bind(node, type, path, Set.of());
    }

    /**
     * Binds and validates {@code node} at {@code path}; {@code siblingKeys} are other valid keys at the same
     * level (offered as suggestions for misspelt keys). Null when absent or not bindable.
     */
    <T> T bind(JsonNode node, Class<T> type, String path, Set<String> siblingKeys) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        T value;
        try {
            value = MAPPER.readerFor(type)
                    .withAttribute(BindScope.class, new BindScope(path, problems, variables, siblingKeys))
                    .readValue(node);
        } catch (JsonMappingException e) {
            problems.add(KeyPaths.of(path, e.getPath()), ProblemHandler.describe(e));
            return null;
        } catch (IOException e) {
            problems.add(path, "cannot be read (" + e.getClass().getSimpleName() + ")");
            return null;
        }
        ConfigValidator.validate(value, path, problems);
        return value;
    }
}
