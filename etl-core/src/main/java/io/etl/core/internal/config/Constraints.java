package io.etl.core.internal.config;

import jakarta.validation.Constraint;
import jakarta.validation.Valid;
import jakarta.validation.constraints.AssertFalse;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Negative;
import jakarta.validation.constraints.NegativeOrZero;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Null;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedArrayType;
import java.lang.reflect.AnnotatedParameterizedType;
import java.lang.reflect.AnnotatedType;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.IntPredicate;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Checks the standard Jakarta Bean Validation constraints ({@code jakarta.validation.constraints}: {@code @NotNull},
 * {@code @Min}, {@code @Pattern}, ...) and {@code @Valid} cascades that configuration records declare on their
 * components, element constraints such as {@code List<@NotBlank String>} included, with the messages Bean
 * Validation gives in English. The configuration needs no more than that, and checking it here spares every start
 * the class loading and bootstrap of a full Bean Validation provider. A constraint outside that set (a custom one, a
 * class-level one) is refused with its name rather than ignored.
 */
final class Constraints {

    /** One broken constraint: the key path below the checked object ({@code topics[1]}, {@code batch.max_records}). */
    record Violation(String path, String message) {}

    private static final String DEFAULT_MESSAGE_PREFIX = "{jakarta.validation.constraints.";

    private static final ClassValue<List<Property>> PROPERTIES = new ClassValue<>() {
        @Override
        protected List<Property> computeValue(Class<?> type) {
            return propertiesOf(type);
        }
    };

    private Constraints() {}

    /** Every constraint {@code bean} and the objects it cascades to break, in no particular order. */
    static List<Violation> check(Object bean) {
        List<Violation> found = new ArrayList<>();
        checkBean(bean, "", found);
        return found;
    }

    /** The constraints {@code value} would break as {@code type}'s {@code property} (no cascade). */
    static List<Violation> checkValue(Class<?> type, String property, Object value) {
        for (Property p : PROPERTIES.get(type)) {
            if (p.name.equals(property)) {
                List<Violation> found = new ArrayList<>();
                p.checkOwn(value, p.key, found);
                return found;
            }
        }
        for (Field field : instanceFields(type)) {
            if (field.getName().equals(property)) {
                return List.of(); // a property without constraints
            }
        }
        throw new IllegalArgumentException(type.getName() + " has no property '" + property + "'");
    }

    private static void checkBean(Object bean, String path, List<Violation> found) {
        for (Property p : PROPERTIES.get(bean.getClass())) {
            Object value = p.read(bean);
            String at = KeyPaths.join(path, p.key);
            p.checkOwn(value, at, found);
            if (p.cascade && value != null) {
                cascade(value, at, found);
            }
        }
    }

    /** Validates {@code value} (a bean, or the elements of a collection, map or array of beans) at {@code path}. */
    private static void cascade(Object value, String path, List<Violation> found) {
        if (value instanceof Collection<?>
                || value instanceof Map<?, ?>
                || value.getClass().isArray()) {
            forEachElement(value, path, (element, at) -> {
                if (element != null) {
                    checkBean(element, at, found);
                }
            });
        } else {
            checkBean(value, path, found);
        }
    }

    /** Visits the elements of a collection ({@code path[i]}), the values of a map ({@code path.key}), or an array. */
    private static void forEachElement(Object container, String path, ElementVisitor visitor) {
        if (container instanceof Map<?, ?> map) {
            map.forEach((k, v) -> visitor.visit(v, KeyPaths.join(path, "." + k)));
        } else if (container instanceof Iterable<?> iterable) {
            int i = 0;
            for (Object element : iterable) {
                visitor.visit(element, KeyPaths.index(path, i++));
            }
        } else if (container != null && container.getClass().isArray()) {
            for (int i = 0; i < Array.getLength(container); i++) {
                visitor.visit(Array.get(container, i), KeyPaths.index(path, i));
            }
        }
    }

    @FunctionalInterface
    private interface ElementVisitor {
        void visit(Object element, String path);
    }

    /**
     * One checked property: its Java name, its snake_case key, how to read it, its constraints, those of its
     * elements, and whether it cascades.
     */
    private record Property(
            String name,
            String key,
            Function<Object, Object> reader,
            List<Check> checks,
            List<Check> elementChecks,
            boolean cascade) {

        Object read(Object bean) {
            return reader.apply(bean);
        }

        void checkOwn(Object value, String path, List<Violation> found) {
            for (Check c : checks) {
                if (!c.valid.test(value)) {
                    found.add(new Violation(path, c.message));
                }
            }
            if (!elementChecks.isEmpty()) {
                forEachElement(value, path, (element, at) -> {
                    for (Check c : elementChecks) {
                        if (!c.valid.test(element)) {
                            found.add(new Violation(at, c.message));
                        }
                    }
                });
            }
        }
    }

    /** One constraint: what holds, and the message when it does not. */
    private record Check(Predicate<Object> valid, String message) {}

    private static List<Property> propertiesOf(Class<?> type) {
        refuseConstraints(type.getAnnotations(), type.getName());
        List<Property> properties = new ArrayList<>();
        for (Field field : instanceFields(type)) {
            Property p = propertyOf(type, field);
            if (p != null) {
                properties.add(p);
            }
        }
        return List.copyOf(properties);
    }

    /** The instance fields of {@code type} and of its superclasses below {@code Object} and {@code Record}. */
    private static List<Field> instanceFields(Class<?> type) {
        List<Field> fields = new ArrayList<>();
        for (Class<?> c = type; c != null && c != Object.class && c != Record.class; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                if (!Modifier.isStatic(field.getModifiers())) {
                    fields.add(field);
                }
            }
        }
        return fields;
    }

    private static Property propertyOf(Class<?> owner, Field field) {
        String where = owner.getName() + "." + field.getName();
        List<Check> checks = new ArrayList<>();
        boolean cascade = false;
        for (Annotation a : field.getDeclaredAnnotations()) {
            if (a instanceof Valid) {
                cascade = true;
            } else {
                addChecks(a, where, checks);
            }
        }
        List<Check> elementChecks = new ArrayList<>();
        AnnotatedType elementType = elementTypeOf(field.getAnnotatedType());
        refuseDeeperConstraints(field.getAnnotatedType(), true, where);
        if (elementType != null) {
            for (Annotation a : elementType.getAnnotations()) {
                if (a instanceof Valid) {
                    cascade = true;
                } else {
                    addChecks(a, where + " (elements)", elementChecks);
                }
            }
        }
        if (checks.isEmpty() && elementChecks.isEmpty() && !cascade) {
            return null;
        }
        return new Property(
                field.getName(),
                KeyPaths.snakeCase(field.getName()),
                readerOf(owner, field),
                checks,
                elementChecks,
                cascade);
    }

    /** The element type of a {@code List<E>}, {@code Set<E>}, {@code Map<K, V>} (V) or array; null for others. */
    private static AnnotatedType elementTypeOf(AnnotatedType type) {
        if (type instanceof AnnotatedParameterizedType parameterized) {
            AnnotatedType[] args = parameterized.getAnnotatedActualTypeArguments();
            return args.length == 0 ? null : args[args.length - 1];
        }
        if (type instanceof AnnotatedArrayType array) {
            return array.getAnnotatedGenericComponentType();
        }
        return null;
    }

    /**
     * Refuses constraints this checker would not apply: on a map's keys, or on type arguments nested deeper than the
     * elements ({@code List<List<@NotBlank String>>}). Only the elements (the last type argument, or an array's
     * component) of the outermost type may carry them, when {@code elementsChecked}.
     */
    private static void refuseDeeperConstraints(AnnotatedType type, boolean elementsChecked, String where) {
        AnnotatedType[] nested = type instanceof AnnotatedParameterizedType parameterized
                ? parameterized.getAnnotatedActualTypeArguments()
                : type instanceof AnnotatedArrayType array
                        ? new AnnotatedType[] {array.getAnnotatedGenericComponentType()}
                        : new AnnotatedType[0];
        for (int i = 0; i < nested.length; i++) {
            if (!elementsChecked || i < nested.length - 1) {
                refuseConstraints(
                        nested[i].getAnnotations(),
                        where + " (type argument " + nested[i].getType().getTypeName() + ")");
            }
            refuseDeeperConstraints(nested[i], false, where);
        }
    }

    private static Function<Object, Object> readerOf(Class<?> owner, Field field) {
        if (field.trySetAccessible()) {
            return bean -> {
                try {
                    return field.get(bean);
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException("cannot read " + field, e);
                }
            };
        }
        Method accessor;
        try {
            accessor = owner.getMethod(field.getName());
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("cannot read " + field + " to validate it", e);
        }
        return bean -> {
            try {
                return accessor.invoke(bean);
            } catch (IllegalAccessException | InvocationTargetException e) {
                throw new IllegalStateException("cannot read " + field + " to validate it", e);
            }
        };
    }

    /** Refuses constraints where this checker looks for none (on the type itself). */
    private static void refuseConstraints(Annotation[] annotations, String where) {
        for (Annotation a : annotations) {
            if (isConstraint(a.annotationType())) {
                throw unsupported(a, where);
            }
        }
    }

    private static boolean isConstraint(Class<? extends Annotation> type) {
        return type.isAnnotationPresent(Constraint.class);
    }

    /** The checks of constraint {@code a} (several for a repeated one); other annotations add nothing. */
    private static void addChecks(Annotation a, String where, List<Check> checks) {
        Annotation[] repeated = repeatedConstraints(a);
        if (repeated != null) {
            for (Annotation each : repeated) {
                addChecks(each, where, checks);
            }
            return;
        }
        if (!isConstraint(a.annotationType())) {
            return;
        }
        checks.add(checkOf(a, where));
    }

    /** The constraints held by a container annotation such as {@code @Min.List}; null when {@code a} is none. */
    private static Annotation[] repeatedConstraints(Annotation a) {
        if (isConstraint(a.annotationType())) {
            return null;
        }
        try {
            Method value = a.annotationType().getMethod("value");
            if (value.getReturnType().isArray()
                    && value.getReturnType().getComponentType().isAnnotation()
                    && isConstraint(value.getReturnType().getComponentType().asSubclass(Annotation.class))) {
                return (Annotation[]) value.invoke(a);
            }
        } catch (NoSuchMethodException e) {
            return null;
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("cannot read " + a, e);
        }
        return null;
    }

    private static Check checkOf(Annotation a, String where) {
        if (a instanceof NotNull n) {
            return check(v -> v != null, n.message(), "must not be null", a);
        }
        if (a instanceof Null n) {
            return check(v -> v == null, n.message(), "must be null", a);
        }
        if (a instanceof NotBlank n) {
            return check(
                    v -> v instanceof CharSequence s && !s.toString().trim().isEmpty(),
                    n.message(),
                    "must not be blank",
                    a);
        }
        if (a instanceof NotEmpty n) {
            return check(v -> v != null && sizeOf(v, a, where) > 0, n.message(), "must not be empty", a);
        }
        if (a instanceof Size s) {
            return check(
                    v -> {
                        if (v == null) {
                            return true;
                        }
                        int size = sizeOf(v, a, where);
                        return size >= s.min() && size <= s.max();
                    },
                    s.message(),
                    "size must be between {min} and {max}",
                    a);
        }
        if (a instanceof Min m) {
            return check(
                    comparing(BigDecimal.valueOf(m.value()), c -> c >= 0, a, where),
                    m.message(),
                    "must be greater than or equal to {value}",
                    a);
        }
        if (a instanceof Max m) {
            return check(
                    comparing(BigDecimal.valueOf(m.value()), c -> c <= 0, a, where),
                    m.message(),
                    "must be less than or equal to {value}",
                    a);
        }
        if (a instanceof DecimalMin m) {
            BigDecimal bound = new BigDecimal(m.value());
            return m.inclusive()
                    ? check(
                            comparing(bound, c -> c >= 0, a, where),
                            m.message(),
                            "must be greater than or equal to {value}",
                            a)
                    : check(comparing(bound, c -> c > 0, a, where), m.message(), "must be greater than {value}", a);
        }
        if (a instanceof DecimalMax m) {
            BigDecimal bound = new BigDecimal(m.value());
            return m.inclusive()
                    ? check(
                            comparing(bound, c -> c <= 0, a, where),
                            m.message(),
                            "must be less than or equal to {value}",
                            a)
                    : check(comparing(bound, c -> c < 0, a, where), m.message(), "must be less than {value}", a);
        }
        if (a instanceof Positive p) {
            return check(comparing(BigDecimal.ZERO, c -> c > 0, a, where), p.message(), "must be greater than 0", a);
        }
        if (a instanceof PositiveOrZero p) {
            return check(
                    comparing(BigDecimal.ZERO, c -> c >= 0, a, where),
                    p.message(),
                    "must be greater than or equal to 0",
                    a);
        }
        if (a instanceof Negative n) {
            return check(comparing(BigDecimal.ZERO, c -> c < 0, a, where), n.message(), "must be less than 0", a);
        }
        if (a instanceof NegativeOrZero n) {
            return check(
                    comparing(BigDecimal.ZERO, c -> c <= 0, a, where),
                    n.message(),
                    "must be less than or equal to 0",
                    a);
        }
        Check pattern = patternCheck(a, where);
        if (pattern != null) {
            return pattern;
        }
        if (a instanceof AssertTrue t) {
            return check(v -> v == null || Boolean.TRUE.equals(v), t.message(), "must be true", a);
        }
        if (a instanceof AssertFalse f) {
            return check(v -> v == null || Boolean.FALSE.equals(v), f.message(), "must be false", a);
        }
        throw unsupported(a, where);
    }

    /** The check of a {@code @Pattern}; null when {@code a} is another constraint. */
    private static Check patternCheck(Annotation a, String where) {
        // CHECKSTYLE.OFF: InlineFullyQualifiedName - the constraint besides java.util.regex.Pattern
        if (!(a instanceof jakarta.validation.constraints.Pattern p)) {
            return null;
        }
        int flags = 0;
        for (jakarta.validation.constraints.Pattern.Flag f : p.flags()) {
            flags |= f.getValue();
        }
        // CHECKSTYLE.ON: InlineFullyQualifiedName
        Pattern regex = Pattern.compile(p.regexp(), flags);
        return check(v -> v == null || matches(regex, v, a, where), p.message(), "must match \"{regexp}\"", a);
    }

    private static IllegalStateException unsupported(Annotation a, String where) {
        return new IllegalStateException("constraint @" + a.annotationType().getName() + " on " + where
                + " is not checked: configuration records may use the constraints of jakarta.validation.constraints"
                + " (and @Valid) on their components and elements");
    }

    /**
     * A check whose message is {@code message}, or {@code standard} when it is the constraint's default, with every
     * {@code {attribute}} replaced by the annotation's value of it.
     */
    private static Check check(Predicate<Object> valid, String message, String standard, Annotation a) {
        String text = message.startsWith(DEFAULT_MESSAGE_PREFIX) ? standard : message;
        return new Check(valid, interpolate(text, a));
    }

    private static String interpolate(String text, Annotation a) {
        StringBuilder out = new StringBuilder();
        int from = 0;
        int open;
        while ((open = text.indexOf('{', from)) >= 0) {
            int close = text.indexOf('}', open);
            if (close < 0) {
                break;
            }
            out.append(text, from, open);
            String attribute = text.substring(open + 1, close);
            out.append(attributeOf(a, attribute).orElse(text.substring(open, close + 1)));
            from = close + 1;
        }
        return out.append(text.substring(from)).toString();
    }

    /** The value of {@code a}'s {@code attribute} as text; empty when it has none of that name. */
    private static Optional<String> attributeOf(Annotation a, String attribute) {
        try {
            return Optional.of(
                    String.valueOf(a.annotationType().getMethod(attribute).invoke(a)));
        } catch (NoSuchMethodException e) {
            return Optional.empty();
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("cannot read " + a, e);
        }
    }

    /**
     * Whether a value, compared with {@code bound}, gives a result that {@code holds}: null passes (it is not
     * checked), a value that is not a number (NaN, unparsable text) fails.
     */
    private static Predicate<Object> comparing(BigDecimal bound, IntPredicate holds, Annotation a, String where) {
        return v -> {
            if (v == null) {
                return true;
            }
            Integer comparison = compare(v, bound, a, where);
            return comparison != null && holds.test(comparison);
        };
    }

    /** {@code value} compared with {@code bound}: negative, zero or positive; null when it is not a number. */
    private static Integer compare(Object value, BigDecimal bound, Annotation a, String where) {
        BigDecimal number;
        if (value instanceof BigDecimal d) {
            number = d;
        } else if (value instanceof BigInteger i) {
            number = new BigDecimal(i);
        } else if (value instanceof Long
                || value instanceof Integer
                || value instanceof Short
                || value instanceof Byte) {
            number = BigDecimal.valueOf(((Number) value).longValue());
        } else if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            if (Double.isNaN(d)) {
                return null;
            }
            if (Double.isInfinite(d)) {
                return d > 0 ? 1 : -1;
            }
            number = new BigDecimal(value.toString());
        } else if (value instanceof CharSequence s) {
            try {
                number = new BigDecimal(s.toString().trim());
            } catch (NumberFormatException e) {
                return null;
            }
        } else {
            throw notApplicable(a, where, value);
        }
        return number.compareTo(bound);
    }

    private static int sizeOf(Object value, Annotation a, String where) {
        if (value instanceof CharSequence s) {
            return s.length();
        }
        if (value instanceof Collection<?> c) {
            return c.size();
        }
        if (value instanceof Map<?, ?> m) {
            return m.size();
        }
        if (value.getClass().isArray()) {
            return Array.getLength(value);
        }
        throw notApplicable(a, where, value);
    }

    private static IllegalStateException notApplicable(Annotation a, String where, Object value) {
        return new IllegalStateException("constraint @" + a.annotationType().getSimpleName() + " on " + where
                + " does not apply to a " + value.getClass().getName());
    }

    private static boolean matches(Pattern regex, Object value, Annotation a, String where) {
        if (!(value instanceof CharSequence s)) {
            throw notApplicable(a, where, value);
        }
        return regex.matcher(s).matches();
    }
}
