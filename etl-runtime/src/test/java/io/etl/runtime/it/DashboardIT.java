package io.etl.runtime.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etl.core.Pipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.error.ErrorPolicy;
import io.etl.core.record.RecordMeta;
import io.etl.kafka.sink.KafkaMessage;
import io.etl.kafka.sink.KafkaSink;
import io.etl.kafka.source.KafkaSource;
import io.etl.runtime.ExitCodes;
import io.etl.runtime.HttpEndpoint;
import io.etl.runtime.PipelineFactory;
import io.etl.runtime.PipelineService;
import io.etl.runtime.StopSignal;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Grafana dashboard in {@code deploy/grafana} queries only what a running pipeline serves: every metric name in
 * its expressions appears in the runtime's {@code /metrics}, with every label the expression groups or filters by.
 */
@EmbeddedKafka(shared = true)
class DashboardIT {

    static KafkaTestCluster kafka;

    private static final Path DASHBOARD = Path.of("..", "deploy", "grafana", "etl-pipeline.json");
    private static final Pattern METRIC = Pattern.compile("\\b((?:etl|jvm|process|system)_[a-z0-9_]+)");
    private static final Pattern BY = Pattern.compile("\\bby \\(([^)]*)\\)");
    private static final Pattern MATCHER = Pattern.compile("([a-z_]+)\\s*(?:=~|!=|=)\\s*\"");
    /** Added by Prometheus when it scrapes, not by the pipeline. */
    private static final Set<String> SCRAPE_LABELS = Set.of("instance", "job");

    /** Copies {@code in} to {@code out}, dead-letters "poison", skips "skip-me", filters empty values. */
    static final class Checked implements PipelineFactory {
        @Override
        public String name() {
            return "checked";
        }

        @Override
        public Pipeline create(PipelineConfig config) {
            return Pipeline.named("checked")
                    .from(KafkaSource.from(config.source("in")).string())
                    .filter("non-empty", v -> v != null && !v.isEmpty())
                    .map("check", v -> {
                        if (v.equals("poison")) {
                            throw new IllegalArgumentException("poison");
                        }
                        return v;
                    })
                    .onError(ErrorPolicy.DEAD_LETTER)
                    .map("trim", v -> {
                        if (v.equals("skip-me")) {
                            throw new IllegalStateException("skipped");
                        }
                        return v.strip();
                    })
                    .onError(ErrorPolicy.SKIP)
                    .to(KafkaSink.from(config.sink("out"))
                            .with((String v, RecordMeta meta) ->
                                    KafkaMessage.of(meta.key(), v.getBytes(StandardCharsets.UTF_8))))
                    .build();
        }
    }

    @Test
    void everyMetricAndLabelTheDashboardQueriesIsServedByARunningPipeline() throws Exception {
        List<String> expressions = expressions();
        assertThat(expressions).as("expressions in %s", DASHBOARD).hasSizeGreaterThan(20);

        CopyTopics t = CopyTopics.random();
        String dlq = "dlq-" + t.uid();
        kafka.createTopic(t.input(), 2);
        kafka.createTopic(t.output(), 2);
        kafka.createTopic(dlq, 1);
        List<TestRecord> input = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            input.add(TestRecord.of("k" + i, "v" + i));
        }
        input.add(TestRecord.of("k-poison", "poison"));
        input.add(TestRecord.of("k-skip", "skip-me"));
        input.add(TestRecord.of("k-empty", ""));
        kafka.produce(t.input(), input);
        PipelineConfig config =
                PipelineConfig.parse(CopyYaml.of(t.uid(), kafka.bootstrapServers(), t.input(), t.output())
                        .with(CopyYaml.Section.SOURCE, "statistics_interval: 1s")
                        .with(CopyYaml.Section.SINK, "statistics_interval: 1s")
                        .with(CopyYaml.Section.TOP, """
                        dead_letter:
                          kafka:
                            brokers: "%s"
                            topic: %s
                        """.formatted(kafka.bootstrapServers(), dlq))
                        .render());

        StopSignal stop = StopSignal.manual();
        CompletableFuture<String> base = new CompletableFuture<>();
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        PipelineService service = PipelineService.of(new Checked(), config)
                .httpHost("127.0.0.1")
                .httpPort(port)
                .stopSignal(stop)
                .err(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))
                .onListening(http -> base.complete("http://" + http.address()));
        CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(service::run);
        try {
            String metricsUrl = base.get(60, TimeUnit.SECONDS) + HttpEndpoint.METRICS_PATH;
            HttpClient http = HttpClient.newHttpClient();
            // every record accounted for, the clients' statistics refreshed, a commit confirmed
            await().atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> {
                        String scrape = get(http, metricsUrl);
                        return kafka.committedTotal(t.group()) == input.size()
                                && scrape.contains("etl_records_dead_lettered_total{")
                                && scrape.contains("etl_kafka_source_fetch_manager_records_lag{")
                                && scrape.contains("etl_kafka_sink_record_send_total{")
                                && scrape.contains("etl_kafka_source_commits_total{");
                    });
            // a service that has run for a while has collected garbage at least once; the GC meters hear of it
            // from the JVM's notifications, a moment later
            System.gc();
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> get(http, metricsUrl).contains("jvm_gc_pause_seconds_sum{"));
            Map<String, Set<String>> served = series(get(http, metricsUrl));

            List<String> missing = new ArrayList<>();
            for (String expr : expressions) {
                Set<String> metrics = new LinkedHashSet<>();
                Matcher m = METRIC.matcher(expr);
                while (m.find()) {
                    metrics.add(m.group(1));
                }
                for (String metric : metrics) {
                    if (!served.containsKey(metric)) {
                        missing.add(metric + " (in " + expr + ")");
                    }
                }
                for (String label : labels(expr)) {
                    boolean found = metrics.stream()
                            .anyMatch(metric ->
                                    served.getOrDefault(metric, Set.of()).contains(label));
                    if (!found && !SCRAPE_LABELS.contains(label)) {
                        missing.add("label " + label + " on " + metrics + " (in " + expr + ")");
                    }
                }
            }
            assertThat(missing).as("queried by the dashboard but not served").isEmpty();
        } finally {
            stop.request("test");
        }
        assertThat(exit.get(60, TimeUnit.SECONDS)).isEqualTo(ExitCodes.OK);
    }

    /** Every {@code expr} of every panel, stat and time series alike, and the queries of the variables. */
    private static List<String> expressions() throws Exception {
        JsonNode dashboard = new ObjectMapper().readTree(Files.readString(DASHBOARD));
        List<String> out = new ArrayList<>();
        for (JsonNode panel : dashboard.path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                out.add(target.path("expr").asText());
            }
        }
        for (JsonNode variable : dashboard.path("templating").path("list")) {
            if (variable.has("definition")) {
                out.add(variable.path("definition").asText());
            }
        }
        return out;
    }

    /** The labels an expression groups by or filters on. */
    private static Set<String> labels(String expr) {
        Set<String> out = new HashSet<>();
        Matcher by = BY.matcher(expr);
        while (by.find()) {
            for (String label : by.group(1).split(",")) {
                out.add(label.strip());
            }
        }
        Matcher matcher = MATCHER.matcher(expr);
        while (matcher.find()) {
            out.add(matcher.group(1));
        }
        return out;
    }

    /** Metric name to the label names its series carry, from a Prometheus text scrape. */
    private static Map<String, Set<String>> series(String scrape) {
        Map<String, Set<String>> out = new HashMap<>();
        Pattern line = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{([^}]*)\\})? ");
        Pattern label = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"");
        for (String l : scrape.split("\n")) {
            Matcher m = line.matcher(l);
            if (l.startsWith("#") || !m.find()) {
                continue;
            }
            Set<String> labels = out.computeIfAbsent(m.group(1), k -> new HashSet<>());
            if (m.group(3) != null) {
                Matcher lm = label.matcher(m.group(3));
                while (lm.find()) {
                    labels.add(lm.group(1));
                }
            }
        }
        return out;
    }

    private static String get(HttpClient http, String url) throws Exception {
        return http.send(
                        HttpRequest.newBuilder(URI.create(url))
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
    }
}
