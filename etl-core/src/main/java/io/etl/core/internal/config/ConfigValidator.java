package io.etl.core.internal.config;

import io.etl.core.error.ConfigProblem;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import jakarta.validation.ValidatorFactory;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.hibernate.validator.HibernateValidator;
import org.hibernate.validator.messageinterpolation.ParameterMessageInterpolator;

/**
 * Bean Validation of bound records; each violation becomes a problem with its full YAML path in
 * snake_case. The factory is built once, on first use ({@link ParameterMessageInterpolator}: no EL needed,
 * messages in English).
 */
final class ConfigValidator {

    private ConfigValidator() {}

    /**
     * Validates {@code bean} (bound at {@code basePath}) and records every violation, except those about a
     * value that already has a problem.
     */
    static void validate(Object bean, String basePath, ProblemCollector problems) {
        if (bean == null) {
            return;
        }
        Set<ConstraintViolation<Object>> violations = Holder.VALIDATOR.validate(bean);
        violations.stream()
                .map(v -> new String[] {KeyPaths.of(basePath, v.getPropertyPath()), v.getMessage()})
                .sorted(Comparator.comparing((String[] pm) -> pm[0]).thenComparing(pm -> pm[1]))
                .filter(pm -> !problems.touches(pm[0]))
                .forEach(pm -> problems.add(pm[0], pm[1]));
    }

    /**
     * The problems {@code value} would have as {@code type}'s {@code property}, each at the property's
     * snake_case path ({@code topics[1]} for an element).
     */
    static List<ConfigProblem> validateValue(Class<?> type, String property, Object value) {
        @SuppressWarnings({"unchecked", "rawtypes"})
        Set<ConstraintViolation<Object>> violations =
                (Set) Holder.VALIDATOR.validateValue((Class) type, property, value);
        return violations.stream()
                .map(v -> new ConfigProblem(KeyPaths.of("", v.getPropertyPath()), v.getMessage()))
                .sorted(Comparator.comparing(ConfigProblem::path).thenComparing(ConfigProblem::message))
                .toList();
    }

    private static final class Holder {

        /**
         * Hibernate Validator logs through JBoss Logging, which prefers Log4j 2 whenever its API is on the
         * class path (a broker or another library may bring it) and then starts a whole Log4j 2 runtime
         * (~700 classes) next to the SLF4J binding etl logs with. Unless the application chose a provider,
         * send those few lines to SLF4J as well.
         */
        private static final String JBOSS_LOGGING_PROVIDER = "org.jboss.logging.provider";

        static {
            if (System.getProperty(JBOSS_LOGGING_PROVIDER) == null) {
                System.setProperty(JBOSS_LOGGING_PROVIDER, "slf4j");
            }
        }

        static final ValidatorFactory FACTORY = Validation.byProvider(HibernateValidator.class)
                .configure()
                .ignoreXmlConfiguration()
                .messageInterpolator(new ParameterMessageInterpolator(Set.of(Locale.ENGLISH), Locale.ENGLISH, false))
                .buildValidatorFactory();

        static final Validator VALIDATOR = FACTORY.getValidator();
    }
}
