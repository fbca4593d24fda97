package io.etl.testkit.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.domain.JavaTypeVariable;
import com.tngtech.archunit.core.domain.properties.HasModifiers;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The ArchUnit rule every module's architecture test applies: no signature a user can see in an API package
 * (a public type's supertypes and type parameters, its public and protected fields, methods and
 * constructors: parameters, return types, thrown exceptions, generic arguments included) mentions a type of
 * an {@code internal} package. There are no exemptions: a leak is fixed by making the leaking member
 * internal or by giving the internal type an API-side interface.
 *
 * <pre>{@code
 * PublicApiRules.checkApiPackagesOf(KafkaSink.class);
 * }</pre>
 *
 * <p>Needs {@code com.tngtech.archunit:archunit} on the test class path (an optional dependency of this
 * artifact).
 */
public final class PublicApiRules {

    /** The rule; check it against a module's main classes ({@link #mainClasses}). */
    public static final ArchRule NO_INTERNAL_TYPES_IN_API_SIGNATURES = ArchRuleDefinition.classes()
            .that(visibleApiTypes())
            .should(mentionNoInternalTypeInTheirSignatures())
            .allowEmptyShould(false)
            .because("users compile against API packages only; an internal type there cannot change freely");

    private PublicApiRules() {}

    /**
     * Checks the rule against a module's main classes: those of {@code apiType}'s package and its
     * sub-packages. {@code apiType}, a type the module publishes there, must be among them, so that a wrong
     * package or an empty import fails rather than passing unchecked.
     */
    public static void checkApiPackagesOf(Class<?> apiType) {
        JavaClasses classes = mainClasses(apiType.getPackageName());
        if (!classes.contain(apiType)) {
            throw new AssertionError("the main classes of " + apiType.getPackageName() + " do not include "
                    + apiType.getName() + "; is it a test class?");
        }
        NO_INTERNAL_TYPES_IN_API_SIGNATURES.check(classes);
    }

    /** The production classes of {@code packages} and their sub-packages, tests excluded. */
    public static JavaClasses mainClasses(String... packages) {
        return new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(packages);
    }

    /** Whether {@code type} lives in an {@code internal} package (or below one). */
    static boolean isInternal(JavaClass type) {
        String name = type.getBaseComponentType().getPackageName();
        return name.endsWith(".internal") || name.contains(".internal.");
    }

    private static DescribedPredicate<JavaClass> visibleApiTypes() {
        return DescribedPredicate.describe(
                "are visible types of API packages", type -> !isInternal(type) && visible(type));
    }

    private static boolean visible(JavaClass type) {
        for (Optional<JavaClass> c = Optional.of(type);
                c.isPresent();
                c = c.get().getEnclosingClass()) {
            Set<JavaModifier> modifiers = c.get().getModifiers();
            boolean nested = c.get().getEnclosingClass().isPresent();
            if (!modifiers.contains(JavaModifier.PUBLIC) && !(nested && modifiers.contains(JavaModifier.PROTECTED))) {
                return false;
            }
        }
        return !type.isAnonymousClass() && !type.isLocalClass();
    }

    private static boolean visible(HasModifiers member) {
        Set<JavaModifier> modifiers = member.getModifiers();
        return (modifiers.contains(JavaModifier.PUBLIC) || modifiers.contains(JavaModifier.PROTECTED))
                && !modifiers.contains(JavaModifier.SYNTHETIC)
                && !modifiers.contains(JavaModifier.BRIDGE);
    }

    private static ArchCondition<JavaClass> mentionNoInternalTypeInTheirSignatures() {
        return new ArchCondition<>("mention no internal type in their public signatures") {
            @Override
            public void check(JavaClass type, ConditionEvents events) {
                List<String> leaks = new ArrayList<>();
                type.getSuperclass().ifPresent(s -> leak(leaks, "extends", s));
                type.getInterfaces().forEach(i -> leak(leaks, "implements", i));
                type.getTypeParameters().forEach(p -> leak(leaks, "type parameter " + p.getName(), p));
                for (JavaField field : type.getFields()) {
                    if (visible(field)) {
                        leak(leaks, "field " + field.getName(), field.getType());
                    }
                }
                for (JavaCodeUnit unit : type.getCodeUnits()) {
                    if (!visible(unit)) {
                        continue;
                    }
                    String where = (unit.isConstructor() ? "constructor" : "method " + unit.getName()) + "("
                            + unit.getRawParameterTypes().size() + " parameters)";
                    leak(leaks, where + " returns", unit.getReturnType());
                    unit.getParameterTypes().forEach(p -> leak(leaks, where + " takes", p));
                    unit.getThrowsClause().getTypes().forEach(t -> leak(leaks, where + " throws", t));
                    unit.getTypeParameters().forEach(p -> leak(leaks, where + " type parameter " + p.getName(), p));
                }
                for (String leak : leaks) {
                    events.add(SimpleConditionEvent.violated(type, type.getName() + ": " + leak));
                }
            }
        };
    }

    private static void leak(List<String> leaks, String where, JavaType signatureType) {
        Set<JavaClass> involved = signatureType instanceof JavaTypeVariable<?> variable
                ? boundsOf(variable)
                : signatureType.getAllInvolvedRawTypes();
        involved.stream()
                .filter(PublicApiRules::isInternal)
                .map(JavaClass::getName)
                .sorted()
                .distinct()
                .forEach(name -> leaks.add(where + " " + name));
    }

    private static Set<JavaClass> boundsOf(JavaTypeVariable<?> variable) {
        Set<JavaClass> bounds = new HashSet<>();
        variable.getUpperBounds().forEach(b -> bounds.addAll(b.getAllInvolvedRawTypes()));
        return bounds;
    }
}
