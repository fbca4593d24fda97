package io.etl.core.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SuggestionsTest {

    @Test
    void suggestsTheClosestKnownKeyForATypo() {
        assertThat(Suggestions.closest("max_mesage_bytes", List.of("topic", "max_message_bytes")))
                .contains("max_message_bytes");
        assertThat(Suggestions.closest("sink", List.of("source", "sinks"))).contains("sinks");
    }

    @Test
    void suggestsNothingForAnUnrelatedKey() {
        assertThat(Suggestions.closest("compression", List.of("topic", "brokers")))
                .isEmpty();
        assertThat(Suggestions.unknownKey("compression", List.of("topic", "brokers")))
                .isEqualTo("unknown key (expected one of: brokers, topic)");
    }
}
