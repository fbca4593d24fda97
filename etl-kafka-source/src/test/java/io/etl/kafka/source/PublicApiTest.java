package io.etl.kafka.source;

import io.etl.testkit.architecture.PublicApiRules;
import org.junit.jupiter.api.Test;

class PublicApiTest {

    @Test
    void apiPackagesExposeNoInternalTypes() {
        PublicApiRules.checkApiPackagesOf(KafkaSource.class);
    }
}
