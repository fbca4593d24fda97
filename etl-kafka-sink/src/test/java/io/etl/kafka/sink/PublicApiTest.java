package io.etl.kafka.sink;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import io.etl.testkit.architecture.PublicApiRules;
import org.junit.jupiter.api.Test;

class PublicApiTest {

    @Test
    void apiPackagesExposeNoInternalTypes() {
        JavaClasses classes = PublicApiRules.mainClasses("io.etl.kafka.sink");
        assertThat(classes.contain(KafkaSink.class)).isTrue();

        PublicApiRules.NO_INTERNAL_TYPES_IN_API_SIGNATURES.check(classes);
    }
}
