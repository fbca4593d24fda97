package io.etl.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.Pipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.config.PipelineSection;
import io.etl.core.error.ErrorPolicy;
import io.etl.testkit.driver.PipelineTestDriver;
import io.etl.testkit.driver.TestSink;
import io.etl.testkit.driver.TestSource;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** How each part of a definition shows in the text and in the Mermaid flowchart. */
class TopologyTest {

    private final PipelineTestDriver driver = PipelineTestDriver.create();

    @Test
    void aPlainChainShowsEveryOperatorWithItsOwnOrInheritedPolicy() {
        TestSource<String> in = driver.source("in", 1, ErrorPolicy.DEAD_LETTER);
        TestSink<Integer> out = driver.sink("out");
        Pipeline pipeline = Pipeline.named("parse")
                .from(in)
                .filter("non-empty", s -> !s.isEmpty())
                .map("parse", Integer::parseInt)
                .onError(ErrorPolicy.DEAD_LETTER)
                .flatMap("twice", i -> List.of(i, i))
                .to(out)
                .build();

        Topology topology = Topology.of(pipeline, PipelineConfig.defaults());

        assertThat(topology.text()).isEqualTo("""
                        pipeline 'parse'
                          source 'in'  (on_error: dead_letter)
                          -> filter 'non-empty'  (on_error: fail, from pipeline.on_error)
                          -> map 'parse'  (on_error: dead_letter)
                          -> flatMap 'twice'  (on_error: fail, from pipeline.on_error)
                          -> sink 'out'  (on_error: skip)
                          dead letters -> nowhere: the pipeline cannot start without a dead_letter section  \
                        (from source 'in', map 'parse')
                        """);
        assertThat(topology.mermaid()).isEqualTo("""
                        flowchart LR
                            n0[/"source in"/]
                            n1["filter non-empty"]
                            n2["map parse"]
                            n3["flatMap twice"]
                            n4[("sink out")]
                            n5[("dead letters")]
                            n0 --> n1
                            n1 --> n2
                            n2 --> n3
                            n3 --> n4
                            n0 -.->|dead_letter| n5
                            n2 -.->|dead_letter| n5
                        """);
    }

    @Test
    void aKeyedSplitShowsTheKeysOfEachBranch() {
        TestSource<String> in = driver.source("in", 1);
        TestSink<String> eu = driver.sink("eu");
        TestSink<String> americas = driver.sink("americas");
        Pipeline pipeline = Pipeline.named("route")
                .from(in)
                .split(
                        "by-region",
                        v -> v.substring(0, 2),
                        s -> s.branch("eu", "eu", eu)
                                .branch("americas", List.of("us", "ca"), americas)
                                .dropUnmatched())
                .build();

        Topology topology = Topology.of(pipeline, PipelineConfig.custom().build());

        assertThat(topology.text()).isEqualTo("""
                        pipeline 'route'
                          source 'in'  (on_error: fail)
                          -> split 'by-region', branch by key  (on_error: fail, from pipeline.on_error)
                               branch 'eu' for keys [eu] -> sink 'eu'  (on_error: skip)
                               branch 'americas' for keys [us, ca] -> sink 'americas'  (on_error: skip)
                               otherwise -> dropped
                          dead letters: none (no stage has policy dead_letter)
                        """);
        assertThat(topology.mermaid()).contains("-->|eu|", "-->|americas|");
    }

    @Test
    void aSplitShowsItsBranchesOneNodePerSinkAndWhatIsDropped() {
        TestSource<String> in = driver.source("in", 1);
        TestSink<String> shared = driver.sink("shared");
        TestSink<String> refused =
                driver.sink("refused", PipelineTestDriver.DEFAULT_POOL.withOnError(ErrorPolicy.DEAD_LETTER));
        Pipeline pipeline = Pipeline.named("route")
                .deadLetter((meta, value, error) -> CompletableFuture.completedFuture(null))
                .from(in)
                .split(
                        "by-prefix",
                        s -> s.toAllMatching()
                                .branch("a", v -> v.startsWith("a"), shared)
                                .branch("b", v -> v.startsWith("b"), shared)
                                .branch("c", v -> v.startsWith("c"), refused)
                                .dropUnmatched())
                .build();
        PipelineConfig config = PipelineConfig.custom()
                .pipeline(PipelineSection.custom()
                        .onError(ErrorPolicy.DEAD_LETTER)
                        .build())
                .build();

        Topology topology = Topology.of(pipeline, config);

        assertThat(topology.text()).isEqualTo("""
                        pipeline 'route'
                          source 'in'  (on_error: fail)
                          -> split 'by-prefix', every matching branch  (on_error: dead_letter, from pipeline.on_error)
                               branch 'a' -> sink 'shared'  (on_error: skip)
                               branch 'b' -> sink 'shared'  (on_error: skip)
                               branch 'c' -> sink 'refused'  (on_error: dead_letter)
                               otherwise -> dropped
                          dead letters -> a handler in code  (from split 'by-prefix', sink 'refused')
                        """);
        assertThat(topology.mermaid())
                .contains("n2[(\"sink shared\")]", "n1 -->|a| n2", "n1 -->|b| n2", "n4((\"dropped\"))")
                .contains("n5[(\"dead letters<br/>a handler in code\")]", "n3 -.->|dead_letter| n5");
    }

    @Test
    void aQuoteInANameCannotEndAMermaidLabel() {
        TestSource<String> in = driver.source("in", 1);
        Pipeline pipeline = Pipeline.named("quotes")
                .from(in)
                .map("say \"hi\" | bye", s -> s)
                .to(driver.<String>sink("out"))
                .build();

        assertThat(Topology.of(pipeline, PipelineConfig.defaults()).mermaid())
                .contains("n1[\"map say #quot;hi#quot; #124; bye\"]");
    }
}
