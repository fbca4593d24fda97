package io.etl.kafka.common.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.core.error.ConfigException;
import io.etl.core.error.ConfigProblem;
import org.junit.jupiter.api.Test;

class BootstrapAddressesTest {

    private static final String PATH = "source.in.kafka.brokers";

    @Test
    void wellFormedListsHaveNoProblems() {
        assertThat(BootstrapAddresses.problems("localhost:9092, kafka-1.example:19092,[::1]:9093", PATH))
                .isEmpty();
    }

    @Test
    void eachMalformedEntryIsAProblemAtTheBrokersKeyNamingIt() {
        assertThat(BootstrapAddresses.problems("localhost,kafka:0,kafka:x9,kafka:65536,,::1:9092", PATH))
                .extracting(ConfigProblem::toString)
                .containsExactly(
                        PATH + ": 'localhost' is not host:port (an IPv6 address goes in brackets: [::1]:9092)",
                        PATH + ": invalid port 0 in 'kafka:0': expected 1 to 65535",
                        PATH + ": invalid port 'x9' in 'kafka:x9': expected a number from 1 to 65535",
                        PATH + ": invalid port 65536 in 'kafka:65536': expected 1 to 65535",
                        PATH + ": has an empty entry; expected host:port[,host:port...]",
                        PATH + ": '::1:9092' is not host:port (an IPv6 address goes in brackets: [::1]:9092)");
    }

    @Test
    void noResolvableHostIsOneProblemPerHostWithTheCause() {
        assertThatThrownBy(() -> BootstrapAddresses.requireResolvable("a.invalid:9092,b.invalid:9092", PATH))
                .isInstanceOfSatisfying(
                        ConfigException.class,
                        e -> assertThat(e.problems())
                                .extracting(ConfigProblem::message)
                                .allSatisfy(m -> assertThat(m).contains("UnknownHostException"))
                                .anySatisfy(m ->
                                        assertThat(m).startsWith("cannot resolve host 'a.invalid' of 'a.invalid:9092'"))
                                .anySatisfy(m -> assertThat(m)
                                        .startsWith("cannot resolve host 'b.invalid' of 'b.invalid:9092'")));
    }

    @Test
    void oneResolvableHostIsEnough() {
        assertThatCode(() -> BootstrapAddresses.requireResolvable("a.invalid:9092,127.0.0.1:9092", PATH))
                .doesNotThrowAnyException();
    }
}
