package io.etl.core.internal.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.deser.DeserializationProblemHandler;
import com.fasterxml.jackson.databind.deser.ValueInstantiator;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import io.etl.core.config.DataSize;
import io.etl.core.config.RenamedFrom;
import io.etl.core.config.Secrets;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Turns every Jackson complaint into a recorded problem with its full key path and lets binding go on:
 * unknown keys are skipped (a key the record marks as {@link RenamedFrom renamed} names its new key), bad
 * values become null (so the record's default applies and nothing else fails on them).
 *
 * <p>Values are echoed only for durations, sizes and enums, and only when neither the key looks secret
 * nor the value came from a variable.
 */
final class ProblemHandler extends DeserializationProblemHandler {

    @Override
    public boolean handleUnknownProperty(
            DeserializationContext ctxt,
            JsonParser p,
            JsonDeserializer<?> deserializer,
            Object beanOrClass,
            String propertyName)
            throws IOException {
        BindScope scope = scope(ctxt);
        JsonStreamContext context = p.getParsingContext();
        if (p.currentToken() == JsonToken.START_OBJECT || p.currentToken() == JsonToken.START_ARRAY) {
            context = context.getParent();
        }
        TreeSet<String> known = new TreeSet<>(scope.siblingKeys());
        Collection<Object> own = deserializer == null ? null : deserializer.getKnownPropertyNames();
        if (own != null) {
            own.forEach(name -> known.add(String.valueOf(name)));
        }
        String renamedTo = renamedTo(deserializer, propertyName);
        scope.problems()
                .add(
                        KeyPaths.of(scope.basePath(), context),
                        renamedTo != null
                                ? "unknown key (renamed to " + renamedTo + ")"
                                : Suggestions.unknownKey(propertyName, known));
        p.skipChildren();
        return true;
    }

    /** The key that replaced {@code name} in the bound record (see {@link RenamedFrom}), or null. */
    static String renamedTo(JsonDeserializer<?> deserializer, String name) {
        Class<?> type = deserializer == null ? null : deserializer.handledType();
        if (type == null || !type.isRecord()) {
            return null;
        }
        for (RecordComponent component : type.getRecordComponents()) {
            RenamedFrom renamed = component.getAnnotation(RenamedFrom.class);
            if (renamed != null && Arrays.asList(renamed.value()).contains(name)) {
                return KeyPaths.snakeCase(component.getName());
            }
        }
        return null;
    }

    @Override
    public Object handleWeirdStringValue(
            DeserializationContext ctxt, Class<?> targetType, String value, String failureMsg) {
        record(ctxt, targetType, value, failureMsg);
        return null;
    }

    @Override
    public Object handleWeirdNumberValue(
            DeserializationContext ctxt, Class<?> targetType, Number value, String failureMsg) {
        record(ctxt, targetType, String.valueOf(value), failureMsg);
        return null;
    }

    @Override
    public Object handleUnexpectedToken(
            DeserializationContext ctxt, JavaType targetType, JsonToken token, JsonParser p, String failureMsg)
            throws IOException {
        BindScope scope = scope(ctxt);
        scope.problems().add(currentPath(scope, p), "expected " + expected(targetType.getRawClass()));
        p.skipChildren();
        return null;
    }

    @Override
    public Object handleMissingInstantiator(
            DeserializationContext ctxt, Class<?> instClass, ValueInstantiator valueInsts, JsonParser p, String msg)
            throws IOException {
        BindScope scope = scope(ctxt);
        scope.problems().add(currentPath(scope, p), "expected " + expected(instClass));
        p.skipChildren();
        return null;
    }

    @Override
    public Object handleInstantiationProblem(
            DeserializationContext ctxt, Class<?> instClass, Object argument, Throwable t) {
        BindScope scope = scope(ctxt);
        Throwable cause = t;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        String path = currentPath(scope, ctxt.getParser());
        if (!scope.problems().touches(path)) {
            // a value type's own message names the value and what is allowed; the Java type would mean nothing
            boolean authored = cause instanceof IllegalArgumentException || cause instanceof IllegalStateException;
            scope.problems().add(path, authored && cause.getMessage() != null ? cause.getMessage() : "invalid value");
        }
        return null;
    }

    /** The message for a mapping failure that could not be handled in place (and so ended its section). */
    static String describe(JsonMappingException e) {
        if (e.getCause() instanceof InputCoercionException) {
            return "number out of range";
        }
        if (e instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null) {
            return "expected " + expected(mismatch.getTargetType());
        }
        return "invalid value";
    }

    /** What a value of {@code type} looks like, for "expected ..." messages. */
    static String expected(Class<?> type) {
        if (type == Integer.class
                || type == int.class
                || type == Long.class
                || type == long.class
                || type == Short.class
                || type == short.class
                || type == Byte.class
                || type == byte.class
                || type == BigInteger.class) {
            return "a whole number";
        }
        if (type == Double.class
                || type == double.class
                || type == Float.class
                || type == float.class
                || type == BigDecimal.class) {
            return "a number";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (CharSequence.class.isAssignableFrom(type)) {
            return "a string";
        }
        if (type == Duration.class) {
            return "a duration such as 30s";
        }
        if (type == DataSize.class) {
            return "a size such as 1MiB";
        }
        if (type.isEnum()) {
            return "one of " + enumValues(type);
        }
        if (Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "a list";
        }
        return "a mapping";
    }

    private static void record(DeserializationContext ctxt, Class<?> targetType, String value, String failureMsg) {
        BindScope scope = scope(ctxt);
        String path = currentPath(scope, ctxt.getParser());
        List<String> variables = scope.variables().get(path);
        boolean echoable = targetType.isEnum() || targetType == Duration.class || targetType == DataSize.class;
        String message;
        if (echoable) {
            String problem = targetType.isEnum() ? "is not one of " + enumValues(targetType) : failureMsg;
            if (variables != null) {
                message = "value of " + placeholders(variables) + " " + problem;
            } else if (mayEcho(path)) {
                message = "'" + abbreviate(value) + "' " + problem;
            } else {
                message = "value " + problem;
            }
        } else {
            String problem =
                    "out of range".equals(failureMsg) ? "number out of range" : "expected " + expected(targetType);
            message = problem + (variables == null ? "" : " (value of " + placeholders(variables) + ")");
        }
        scope.problems().add(path, message);
    }

    /** Whether a value at {@code path} may appear in a message: not when the key could hold a secret. */
    static boolean mayEcho(String path) {
        return !Secrets.isSecretKey(path) && !path.toLowerCase(Locale.ROOT).contains("key");
    }

    private static String currentPath(BindScope scope, JsonParser p) {
        return KeyPaths.of(scope.basePath(), p.getParsingContext());
    }

    private static String placeholders(List<String> variables) {
        return variables.stream().distinct().map(v -> "${" + v + "}").collect(Collectors.joining(", "));
    }

    private static String enumValues(Class<?> type) {
        return Arrays.stream(type.getEnumConstants())
                .map(c -> ((Enum<?>) c).name().toLowerCase(Locale.ROOT))
                .collect(Collectors.joining(", "));
    }

    private static String abbreviate(String value) {
        return value.length() <= 60 ? value : value.substring(0, 57) + "...";
    }

    private static BindScope scope(DeserializationContext ctxt) {
        Object scope = ctxt.getAttribute(BindScope.class);
        if (scope instanceof BindScope bindScope) {
            return bindScope;
        }
        throw new IllegalStateException("no BindScope attribute: bind through SectionBinder");
    }
}
