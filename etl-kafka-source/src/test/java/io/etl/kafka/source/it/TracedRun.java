package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.core.Pipeline;
import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.record.TraceContext;
import io.etl.kafka.sink.KafkaMessage;
import io.etl.kafka.sink.KafkaSink;
import io.etl.kafka.source.KafkaSource;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * One run of the trace-context ITs: input records {@code r-<i>}, even ones with a traceparent of their own
 * trace (every fourth with a tracestate), odd ones without; every record goes to three sinks: {@code bytes}
 * (copies the input headers), {@code fresh} (a user encoder that builds a message without headers) and
 * {@code own} (a user encoder that sets its own traceparent).
 */
final class TracedRun {

    static final int RECORDS = 40;
    static final String OWN = "00-0af7651916cd43dd8448eb211c80319c-b9c7c989f97918e1-01";
    static final List<String> SINKS = List.of("bytes", "fresh", "own");

    final Map<String, TestRecord> inputs = new HashMap<>();
    final Map<String, Map<String, TestRecord>> outputs = new HashMap<>();

    private TracedRun() {}

    static String traceId(int i) {
        return String.format("%032x", 0x1000L + i);
    }

    static String spanId(int i) {
        return String.format("%016x", 0xabc000L + i);
    }

    static TestRecord input(int i) {
        TestRecord r = TestRecord.of("k" + i, "r-" + i);
        if (i % 2 == 0) {
            r = r.withHeader(TraceContext.TRACEPARENT, "00-" + traceId(i) + "-" + spanId(i) + "-01");
        }
        if (i % 4 == 0) {
            r = r.withHeader(TraceContext.TRACESTATE, "etl=t" + i);
        }
        return r.withHeader("region", "eu");
    }

    /** Produces the inputs, runs the pipeline until its group caught up, stops it and reads the three topics. */
    static TracedRun run(KafkaTestCluster kafka, String prefix) {
        RunTopics t = RunTopics.named(prefix);
        PipelineYaml yaml = t.createWithSinks(kafka, SINKS, 2);
        TracedRun run = new TracedRun();
        List<TestRecord> records = new ArrayList<>();
        for (int i = 0; i < RECORDS; i++) {
            TestRecord r = input(i);
            records.add(r);
            run.inputs.put(r.valueAsString(), r);
        }
        kafka.produce(t.input(), records);
        PipelineConfig config = yaml.parse();

        RunningPipeline running = pipeline(config).start(config);
        PipelineResult result = Delivery.runUntilCaughtUp(kafka, running, t.group(), t.input(), Duration.ofSeconds(60));
        assertThat(result.status()).as("result %s", result).isEqualTo(PipelineResult.Status.COMPLETED);
        for (String sink : SINKS) {
            Map<String, TestRecord> byValue = new HashMap<>();
            for (TestRecord r : kafka.readAll(t.topicOf(sink))) {
                byValue.put(r.valueAsString(), r);
            }
            assertThat(byValue).as("records on %s", sink).hasSize(RECORDS);
            run.outputs.put(sink, byValue);
        }
        return run;
    }

    private static Pipeline pipeline(PipelineConfig config) {
        return Pipeline.named("traced")
                .from(KafkaSource.from(config.source("orders")).bytes())
                .split(
                        "all",
                        s -> s.toAllMatching()
                                .branch(
                                        "bytes",
                                        v -> true,
                                        KafkaSink.from(config.sink("bytes")).bytes())
                                .branch("fresh", v -> true, userEncoded(config, "fresh", b -> b))
                                .branch(
                                        "own",
                                        v -> true,
                                        userEncoded(config, "own", b -> b.header(TraceContext.TRACEPARENT, OWN)))
                                .dropUnmatched());
    }

    /** Sink {@code name} with a user encoder: a message of the record's key and value, then {@code more}. */
    private static KafkaSink<byte[]> userEncoded(
            PipelineConfig config, String name, UnaryOperator<KafkaMessage.Builder> more) {
        return KafkaSink.from(config.sink(name))
                .<byte[]>with((v, meta) -> more.apply(
                                KafkaMessage.builder().key(meta.key()).value(v))
                        .build());
    }
}
