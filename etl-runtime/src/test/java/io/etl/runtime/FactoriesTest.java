package io.etl.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.core.Pipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.runtime.internal.Factories;
import io.etl.runtime.it.CopyPipelineFactory;
import java.util.List;
import org.junit.jupiter.api.Test;

class FactoriesTest {

    private record Named(String name) implements PipelineFactory {
        @Override
        public Pipeline create(PipelineConfig config) {
            throw new UnsupportedOperationException();
        }
    }

    @Test
    void theOnlyFactoryIsChosenWithoutAName() {
        Named only = new Named("a");
        assertThat(Factories.of(List.of(only)).select(null)).isSameAs(only);
    }

    @Test
    void aNameChoosesAmongSeveral() {
        Named b = new Named("b");
        assertThat(Factories.of(List.of(new Named("a"), b)).select("b")).isSameAs(b);
    }

    @Test
    void severalFactoriesWithoutANameIsAnErrorListingThem() {
        assertThatThrownBy(() ->
                        Factories.of(List.of(new Named("a"), new Named("b"))).select(null))
                .isInstanceOf(Factories.SelectionException.class)
                .hasMessageContaining("a, b")
                .hasMessageContaining("--pipeline");
    }

    @Test
    void anUnknownNameIsAnErrorListingTheNamesFound() {
        assertThatThrownBy(() ->
                        Factories.of(List.of(new Named("a"), new Named("b"))).select("c"))
                .isInstanceOf(Factories.SelectionException.class)
                .hasMessage("unknown pipeline 'c'; found: a, b");
    }

    @Test
    void noFactoryIsAnErrorSayingHowToRegisterOne() {
        assertThatThrownBy(() -> Factories.of(List.of()).select(null))
                .isInstanceOf(Factories.SelectionException.class)
                .hasMessageContaining("META-INF/services/io.etl.runtime.PipelineFactory");
    }

    @Test
    void twoFactoriesWithOneNameAreAnError() {
        assertThatThrownBy(() -> Factories.of(List.of(new Named("a"), new Named("a"))))
                .isInstanceOf(Factories.SelectionException.class)
                .hasMessageContaining("two pipeline factories are named 'a'");
    }

    @Test
    void discoveryFindsTheFactoriesRegisteredOnTheClassPath() {
        Factories found = Factories.discover(getClass().getClassLoader());
        assertThat(found.names()).contains(CopyPipelineFactory.NAME, FailingFactory.NAME);
    }
}
