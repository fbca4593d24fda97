package io.etl.core.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

class ArchitectureTest {

    private static final JavaClasses CORE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.etl.core");

    @Test
    void coreNeverDependsOnKafka() {
        noClasses().should().dependOnClassesThat().resideInAPackage("org.apache.kafka..")
                .because("connectors depend on the core SPI, never the reverse")
                .check(CORE);
    }

    @Test
    void onlyTheOpenTelemetryGlueTouchesTheOptionalApi() {
        noClasses().that().resideOutsideOfPackage("io.etl.core.internal.trace.otel..")
                .should().dependOnClassesThat().resideInAPackage("io.opentelemetry..")
                .because("opentelemetry-api is optional: only classes loaded after checking for it may use it")
                .check(CORE);
    }

    @Test
    void publicApiPackagesDoNotExposeInternals() {
        noClasses().that().resideOutsideOfPackage("io.etl.core.internal..")
                .should().dependOnClassesThat().resideInAPackage("io.etl.core.internal..")
                .allowEmptyShould(true)
                .because("API packages must stay free of internal types")
                .check(CORE.that(com.tngtech.archunit.base.DescribedPredicate.not(
                        com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage(
                                "io.etl.core", "io.etl.core.config"))));
    }
}
