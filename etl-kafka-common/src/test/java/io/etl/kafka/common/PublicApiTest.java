package io.etl.kafka.common;

import io.etl.testkit.architecture.PublicApiRules;
import org.junit.jupiter.api.Test;

class PublicApiTest {

    @Test
    void apiPackagesExposeNoInternalTypes() {
        PublicApiRules.checkApiPackagesOf(KafkaSecurityConfig.class);
    }
}
