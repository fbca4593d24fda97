package io.etl.testkit.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.EvaluationResult;
import io.etl.core.Pipeline;
import io.etl.testkit.architecture.fixture.Leaks;
import io.etl.testkit.architecture.fixture.internal.Hidden;
import io.etl.testkit.driver.PipelineTestDriver;
import org.junit.jupiter.api.Test;

class PublicApiRulesTest {

    @Test
    void reportsEveryKindOfLeakAndNothingElse() {
        EvaluationResult result = PublicApiRules.NO_INTERNAL_TYPES_IN_API_SIGNATURES.evaluate(new ClassFileImporter()
                .importClasses(
                        Leaks.class,
                        Leaks.Extends.class,
                        Leaks.Implements.class,
                        Leaks.Field.class,
                        Leaks.Parameter.class,
                        Leaks.Bound.class,
                        Leaks.Clean.class,
                        Hidden.class));

        assertThat(result.getFailureReport().getDetails())
                .hasSize(5)
                .anySatisfy(d -> assertThat(d).contains("Leaks$Extends: extends " + Hidden.class.getName()))
                .anySatisfy(d -> assertThat(d).contains("Leaks$Implements: implements " + Hidden.class.getName()))
                .anySatisfy(d -> assertThat(d).contains("Leaks$Field: field hidden " + Hidden.class.getName()))
                .anySatisfy(d -> assertThat(d).contains("Leaks$Parameter: method take(1 parameters) takes"))
                .anySatisfy(d -> assertThat(d).contains("Leaks$Bound: type parameter T " + Hidden.class.getName()))
                .noneSatisfy(d -> assertThat(d).contains("Clean"));
    }

    /** The core's API and this artifact's own; the core cannot depend on the testkit, so it is checked here. */
    @Test
    void coreAndTestkitApiPackagesExposeNoInternalTypes() {
        JavaClasses classes = PublicApiRules.mainClasses("io.etl.core", "io.etl.testkit");
        assertThat(classes.contain(Pipeline.class))
                .as("the core's classes are imported")
                .isTrue();
        assertThat(classes.contain(PipelineTestDriver.class)).isTrue();

        PublicApiRules.NO_INTERNAL_TYPES_IN_API_SIGNATURES.check(classes);
    }
}
