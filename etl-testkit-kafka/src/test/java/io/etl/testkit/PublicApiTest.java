package io.etl.testkit;

import io.etl.testkit.architecture.PublicApiRules;
import org.junit.jupiter.api.Test;

class PublicApiTest {

    @Test
    void apiPackagesExposeNoInternalTypes() {
        PublicApiRules.checkApiPackagesOf(KafkaTestCluster.class);
    }
}
