package io.etl.core.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The core's dependency rules. The rule that no API signature mentions an internal type is shared by every
 * module ({@code io.etl.testkit.architecture.PublicApiRules}); the core is checked against it from
 * etl-testkit's tests, since the core cannot depend on the testkit.
 */
class ArchitectureTest {

    private static final JavaClasses CORE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.etl.core");

    @Test
    void coreNeverDependsOnKafka() {
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.apache.kafka..")
                .because("connectors depend on the core SPI, never the reverse")
                .check(CORE);
    }

    @Test
    void onlyTheOpenTelemetryGlueTouchesTheOptionalApi() {
        noClasses()
                .that()
                .resideOutsideOfPackage("io.etl.core.internal.trace.otel..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.opentelemetry..")
                .because("opentelemetry-api is optional: only classes loaded after checking for it may use it")
                .check(CORE);
    }

    @Test
    void publicApiPackagesDoNotExposeInternals() {
        noClasses()
                .that()
                .resideOutsideOfPackage("io.etl.core.internal..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.etl.core.internal..")
                .allowEmptyShould(true)
                .because("API packages must stay free of internal types")
                .check(CORE.that(DescribedPredicate.not(
                        JavaClass.Predicates.resideInAnyPackage("io.etl.core", "io.etl.core.config"))));
    }
}
