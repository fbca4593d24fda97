package io.etl.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TestRecordTest {

    @Test
    void recordsWithEqualBytesAreEqual() {
        TestRecord a = TestRecord.of("k", "v").withHeader("h", "1");
        TestRecord b = TestRecord.of("k", "v").withHeader("h", "1");
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        assertThat(a).isNotEqualTo(TestRecord.of("k", "v").withHeader("h", "2"));
    }

    @Test
    void keepsHeadersInInsertionOrderAndTheLastValueOfARepeatedName() {
        TestRecord r = TestRecord.of("k", "v")
                .withHeader("b", "1")
                .withHeader("a", "2")
                .withHeader("b", "3");
        assertThat(r.headers().keySet()).containsExactly("b", "a");
        assertThat(r.headerAsString("b")).isEqualTo("3");
        assertThatThrownBy(() -> r.headers().put("c", new byte[0])).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void aRecordToProduceLetsTheProducerChooseThePartition() {
        TestRecord r = TestRecord.of((String) null, null);
        assertThat(r.partition()).isEqualTo(-1);
        assertThat(r.keyAsString()).isNull();
        assertThat(r.toPartition(2).partition()).isEqualTo(2);
    }

    @Test
    void superUserIsNotAlsoAnOrdinaryUser() {
        assertThatThrownBy(() -> BrokerSecurity.saslScram().user("admin", "x").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("admin");
    }
}
