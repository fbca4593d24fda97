package io.etl.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.etl.core.config.PipelineConfig;
import io.etl.kafka.source.KafkaSourceConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The recipes under {@code deploy/} cannot be applied on the build machine (no cluster, no image
 * registry), so this test reads every manifest and checks it against the runtime they deploy: probe
 * paths and the HTTP port come from {@link HttpEndpoint}, the grace period must exceed the stop budget
 * of the shipped pipeline YAML, replica bounds must not exceed the input's partitions, and the pipeline
 * YAML must load through {@link PipelineConfig} with the environment the pods give it.
 */
class DeployRecipesTest {

    private static final Path DEPLOY = Path.of("..", "deploy").toAbsolutePath().normalize();
    private static final Path KUBERNETES = DEPLOY.resolve("kubernetes");
    private static final Path STATEFULSET = KUBERNETES.resolve("statefulset");
    private static final String PARTITIONS_ANNOTATION = "etl.io/input-partitions";
    private static final String SAMPLE_POD_NAME = "etl-pipeline-0";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    /** One deployable flavour: a kustomization directory and what it renders. */
    record Flavour(Path dir, List<JsonNode> resources) {

        JsonNode only(String kind) {
            List<JsonNode> found = resources.stream()
                    .filter(r -> kind.equals(r.path("kind").asText()))
                    .toList();
            assertThat(found).as("%s in %s", kind, dir).hasSize(1);
            return found.get(0);
        }

        JsonNode workload() {
            List<JsonNode> found = resources.stream()
                    .filter(r -> List.of("Deployment", "StatefulSet")
                            .contains(r.path("kind").asText()))
                    .toList();
            assertThat(found).as("workloads in %s", dir).hasSize(1);
            return found.get(0);
        }
    }

    @Test
    void everyManifestParsesAndEveryKustomizationListsFilesThatExist() throws IOException {
        List<Path> files = yamlFiles(KUBERNETES);
        assertThat(files).hasSizeGreaterThanOrEqualTo(8);
        for (Path file : files) {
            for (JsonNode doc : documents(file)) {
                assertThat(doc.path("apiVersion").asText())
                        .as("apiVersion of %s", file)
                        .isNotBlank();
                assertThat(doc.path("kind").asText()).as("kind of %s", file).isNotBlank();
            }
        }
        for (Path dir : List.of(KUBERNETES, STATEFULSET)) {
            JsonNode kustomization =
                    documents(dir.resolve("kustomization.yaml")).get(0);
            assertThat(kustomization.path("kind").asText()).isEqualTo("Kustomization");
            for (JsonNode resource : kustomization.path("resources")) {
                assertThat(dir.resolve(resource.asText()))
                        .as("resource of %s", dir)
                        .isRegularFile();
            }
        }
    }

    @Test
    void probesAndScrapeSettingsUseTheRuntimesEndpointsAndPort() throws IOException {
        for (Flavour flavour : flavours()) {
            JsonNode pod = flavour.workload().path("spec").path("template");
            JsonNode container = onlyContainer(pod);
            int port = httpPort(container);

            assertThat(argument(container, "--http-host"))
                    .as("bind address in %s", flavour.dir())
                    .isNotIn("127.0.0.1", "localhost");
            assertThat(port).as("HTTP port in %s", flavour.dir()).isEqualTo(HttpEndpoint.DEFAULT_PORT);
            assertThat(probe(container, "livenessProbe", port)).isEqualTo(HttpEndpoint.LIVE_PATH);
            assertThat(probe(container, "startupProbe", port)).isEqualTo(HttpEndpoint.LIVE_PATH);
            assertThat(probe(container, "readinessProbe", port)).isEqualTo(HttpEndpoint.READY_PATH);

            JsonNode annotations = pod.path("metadata").path("annotations");
            assertThat(annotations.path("prometheus.io/scrape").asText()).isEqualTo("true");
            assertThat(annotations.path("prometheus.io/port").asText()).isEqualTo(Integer.toString(port));
            assertThat(annotations.path("prometheus.io/path").asText()).isEqualTo(HttpEndpoint.METRICS_PATH);
        }
        JsonNode podMonitor = documents(KUBERNETES.resolve("podmonitor.yaml")).get(0);
        JsonNode endpoint = podMonitor.path("spec").path("podMetricsEndpoints").get(0);
        assertThat(endpoint.path("path").asText()).isEqualTo(HttpEndpoint.METRICS_PATH);
        assertThat(endpoint.path("port").asText()).isEqualTo("http");
        for (Flavour flavour : flavours()) {
            assertThat(selects(podMonitor.path("spec").path("selector"), flavour.workload()))
                    .isTrue();
        }
    }

    @Test
    void gracePeriodExceedsTheStopBudgetOfTheShippedConfiguration() throws IOException {
        for (Flavour flavour : flavours()) {
            JsonNode workload = flavour.workload();
            PipelineConfig config = pipelineConfig(flavour, workload);
            Duration budget = config.pipeline().shutdownTimeout();
            long grace = workload.path("spec")
                    .path("template")
                    .path("spec")
                    .path("terminationGracePeriodSeconds")
                    .asLong();

            assertThat(Duration.ofSeconds(grace))
                    .as("terminationGracePeriodSeconds in %s", flavour.dir())
                    .isGreaterThan(budget);
            assertThat(config.checkpoint().drainTimeout())
                    .as("the drain is a share of the stop budget")
                    .isLessThan(budget);
        }
    }

    @Test
    void pipelineYamlLoadsWithThePodsEnvironmentAndMembershipMatchesTheWorkload() throws IOException {
        for (Flavour flavour : flavours()) {
            JsonNode workload = flavour.workload();
            PipelineConfig config = pipelineConfig(flavour, workload);
            assertThat(config.sources()).containsOnlyKeys("input");
            assertThat(config.sinks()).containsOnlyKeys("output");
            KafkaSourceConfig source = config.source("input").connector(KafkaSourceConfig.class);

            if (workload.path("kind").asText().equals("StatefulSet")) {
                // stable pod names: static membership, one id per pod
                assertThat(source.groupInstanceId()).isEqualTo(SAMPLE_POD_NAME);
            } else {
                // a Deployment's pod names change on every rollout: a static id would strand partitions
                assertThat(source.groupInstanceId()).isNull();
            }
        }
    }

    @Test
    void replicaBoundsStayWithinTheInputPartitions() throws IOException {
        for (Flavour flavour : flavours()) {
            int partitions = Integer.parseInt(flavour.only("ConfigMap")
                    .path("metadata")
                    .path("annotations")
                    .path(PARTITIONS_ANNOTATION)
                    .asText());
            JsonNode workload = flavour.workload();
            if (workload.path("kind").asText().equals("StatefulSet")) {
                assertThat(workload.path("spec").path("replicas").asInt()).isBetween(1, partitions);
            } else {
                assertThat(workload.path("spec").has("replicas"))
                        .as("replicas of an autoscaled Deployment")
                        .isFalse();
                // readiness needs assigned partitions: a surge pod beyond the partition count never gets ready
                assertThat(workload.path("spec")
                                .path("strategy")
                                .path("rollingUpdate")
                                .path("maxSurge")
                                .asInt(-1))
                        .isZero();
                JsonNode scaled = flavour.only("ScaledObject").path("spec");
                assertThat(scaled.path("maxReplicaCount").asInt()).isBetween(1, partitions);
                assertThat(scaled.path("minReplicaCount").asInt())
                        .isBetween(1, scaled.path("maxReplicaCount").asInt());
            }
        }
    }

    @Test
    void scaledObjectWatchesTheLagOfTheGroupAndTopicThePipelineReads() throws IOException {
        Flavour flavour = flavours().get(0);
        JsonNode deployment = flavour.only("Deployment");
        JsonNode spec = flavour.only("ScaledObject").path("spec");
        KafkaSourceConfig source =
                pipelineConfig(flavour, deployment).source("input").connector(KafkaSourceConfig.class);

        assertThat(spec.path("scaleTargetRef").path("kind").asText()).isEqualTo("Deployment");
        assertThat(spec.path("scaleTargetRef").path("name").asText())
                .isEqualTo(deployment.path("metadata").path("name").asText());
        JsonNode trigger = spec.path("triggers").get(0);
        assertThat(trigger.path("type").asText()).isEqualTo("kafka");
        JsonNode metadata = trigger.path("metadata");
        assertThat(metadata.path("bootstrapServers").asText()).isEqualTo(source.brokers());
        assertThat(metadata.path("consumerGroup").asText()).isEqualTo(source.groupId());
        assertThat(source.topics()).containsExactly(metadata.path("topic").asText());
        assertThat(metadata.path("offsetResetPolicy").asText())
                .isEqualTo(source.autoOffsetReset().name().toLowerCase(Locale.ROOT));
        assertThat(metadata.path("allowIdleConsumers").asText()).isEqualTo("false");
    }

    @Test
    void disruptionBudgetAndServiceSelectTheWorkloadsPods() throws IOException {
        for (Flavour flavour : flavours()) {
            JsonNode pdb = flavour.only("PodDisruptionBudget").path("spec");
            assertThat(selects(pdb.path("selector"), flavour.workload()))
                    .as("PDB selector in %s", flavour.dir())
                    .isTrue();
            assertThat(pdb.path("maxUnavailable").asInt()).isEqualTo(1);
        }
        Flavour stateful = flavours().get(1);
        JsonNode service = stateful.only("Service");
        JsonNode statefulSet = stateful.only("StatefulSet");
        assertThat(statefulSet.path("spec").path("serviceName").asText())
                .isEqualTo(service.path("metadata").path("name").asText());
        assertThat(service.path("spec").path("ports").get(0).path("targetPort").asText())
                .isEqualTo("http");
        Map<String, String> podLabels = labels(
                statefulSet.path("spec").path("template").path("metadata").path("labels"));
        assertThat(podLabels).containsAllEntriesOf(labels(service.path("spec").path("selector")));
    }

    @Test
    void podsAndImageRunAsAnUnprivilegedUser() throws IOException {
        for (Flavour flavour : flavours()) {
            JsonNode podSecurity = flavour.workload()
                    .path("spec")
                    .path("template")
                    .path("spec")
                    .path("securityContext");
            assertThat(podSecurity.path("runAsNonRoot").asBoolean()).isTrue();
            assertThat(podSecurity.path("runAsUser").asInt()).isPositive();
        }
        String dockerfile = Files.readString(DEPLOY.resolve("docker/Dockerfile"));
        assertThat(instruction(dockerfile, "FROM")).matches(".*:17[-.a-z0-9]*");
        assertThat(instruction(dockerfile, "USER")).matches("[1-9][0-9]*(:[0-9]+)?");
        assertThat(instruction(dockerfile, "EXPOSE")).isEqualTo(Integer.toString(HttpEndpoint.DEFAULT_PORT));
        assertThat(instruction(dockerfile, "ENV"))
                .as("the image starts on the JVM's defaults plus the container's heap sizing")
                .contains("MaxRAMPercentage")
                .doesNotContain("SharedArchiveFile");
        assertThat(instruction(dockerfile, "CMD"))
                .contains("\"--http-port\", \"" + HttpEndpoint.DEFAULT_PORT + "\"")
                .contains("\"--config\", \"/etc/etl/pipeline.yaml\"");
    }

    @Test
    void configMapCarriesThePipelineYamlOfAnArchetypeProject() throws IOException {
        String generated = archetypePipelineYaml();
        String shipped = flavours()
                .get(0)
                .only("ConfigMap")
                .path("data")
                .path("pipeline.yaml")
                .asText();

        assertThat(YAML.readTree(shipped)).isEqualTo(YAML.readTree(generated));
    }

    @Test
    void theOptInArchivesTrainingRunIsACommandTheRuntimeRunsOfflineOnAGeneratedProjectsYaml(@TempDir Path dir)
            throws IOException {
        String dockerfile = Files.readString(DEPLOY.resolve("docker/class-archive.Dockerfile"));
        assertThat(instruction(dockerfile, "ENV"))
                .as("the image maps the archive its training run records, before the base image's flags")
                .contains("-XX:SharedArchiveFile=/app/pipeline.jsa ${JDK_JAVA_OPTIONS}");
        assertThat(dockerfile)
                .as("the training run writes to /app as root, the service runs unprivileged again")
                .containsPattern("(?s)RUN java .*\nUSER 10001:10001\n");
        Matcher training = Pattern.compile("-XX:ArchiveClassesAtExit=\\S+ -jar /app/pipeline\\.jar ([^\\n\\\\]+?) "
                        + "/app/training\\.yaml")
                .matcher(dockerfile);
        assertThat(training.find())
                .as("the training RUN of class-archive.Dockerfile")
                .isTrue();
        Path yaml = Files.writeString(dir.resolve("training.yaml"), archetypePipelineYaml());
        List<String> args = new ArrayList<>(List.of(training.group(1).split(" ")));
        args.add(yaml.toString());
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        // the image holds the generated project's one factory; this class path holds the tests', so hide those
        int exit = WithoutFactories.call(
                () -> Main.execute(new PrintWriter(out), new PrintWriter(err), args.toArray(String[]::new)));

        assertThat(exit).as("%s%s", out, err).isZero();
        assertThat(out.toString()).contains("ok: " + yaml);
    }

    @Test
    void alertsUseOnlyDocumentedMeters() throws IOException {
        JsonNode rules = documents(KUBERNETES.resolve("prometheusrule.yaml")).get(0);
        String metricsDoc = Files.readString(DEPLOY.resolveSibling("docs/metrics.md"));
        Pattern meter = Pattern.compile("etl_[a-z_]+");
        int alerts = 0;
        for (JsonNode group : rules.path("spec").path("groups")) {
            for (JsonNode rule : group.path("rules")) {
                String expr = rule.path("expr").asText();
                Matcher m = meter.matcher(expr);
                assertThat(m.find())
                        .as("alert %s uses an etl meter", rule.path("alert").asText())
                        .isTrue();
                do {
                    assertThat(metricsDoc)
                            .as(
                                    "meter %s of alert %s in docs/metrics.md",
                                    m.group(), rule.path("alert").asText())
                            .contains("`" + m.group());
                } while (m.find());
                alerts++;
            }
        }
        assertThat(alerts).isGreaterThanOrEqualTo(5);
    }

    // --- reading the manifests ---

    private static List<Flavour> flavours() throws IOException {
        return List.of(flavour(KUBERNETES), flavour(STATEFULSET));
    }

    private static Flavour flavour(Path dir) throws IOException {
        List<JsonNode> resources = new ArrayList<>();
        for (JsonNode resource :
                documents(dir.resolve("kustomization.yaml")).get(0).path("resources")) {
            resources.addAll(documents(dir.resolve(resource.asText())));
        }
        return new Flavour(dir, resources);
    }

    /** The ConfigMap's pipeline YAML, loaded with the container's environment as the runtime would. */
    private static PipelineConfig pipelineConfig(Flavour flavour, JsonNode workload) {
        JsonNode pod = workload.path("spec").path("template");
        JsonNode container = onlyContainer(pod);
        String configPath = argument(container, "--config");
        String mountPath = null;
        String volumeName = null;
        for (JsonNode mount : container.path("volumeMounts")) {
            if (configPath.startsWith(mount.path("mountPath").asText() + "/")) {
                mountPath = mount.path("mountPath").asText();
                volumeName = mount.path("name").asText();
            }
        }
        assertThat(volumeName)
                .as("a volume mounted where --config %s points", configPath)
                .isNotNull();
        String fileName = configPath.substring(mountPath.length() + 1);
        JsonNode volume = null;
        for (JsonNode v : pod.path("spec").path("volumes")) {
            if (v.path("name").asText().equals(volumeName)) {
                volume = v;
            }
        }
        assertThat(volume).isNotNull();
        JsonNode configMap = flavour.only("ConfigMap");
        assertThat(volume.path("configMap").path("name").asText())
                .isEqualTo(configMap.path("metadata").path("name").asText());
        String key = fileName;
        for (JsonNode item : volume.path("configMap").path("items")) {
            if (item.path("path").asText().equals(fileName)) {
                key = item.path("key").asText();
            }
        }
        String yaml = configMap.path("data").path(key).asText(null);
        assertThat(yaml).as("ConfigMap key %s", key).isNotNull();
        Map<String, String> env = environment(container);
        return PipelineConfig.parse(yaml, env::get);
    }

    private static Map<String, String> environment(JsonNode container) {
        Map<String, String> env = new HashMap<>();
        for (JsonNode variable : container.path("env")) {
            String name = variable.path("name").asText();
            if (variable.has("value")) {
                env.put(name, variable.path("value").asText());
            } else if ("metadata.name"
                    .equals(variable.path("valueFrom")
                            .path("fieldRef")
                            .path("fieldPath")
                            .asText())) {
                env.put(name, SAMPLE_POD_NAME);
            }
        }
        return env;
    }

    private static JsonNode onlyContainer(JsonNode podTemplate) {
        JsonNode containers = podTemplate.path("spec").path("containers");
        assertThat(containers.size()).isEqualTo(1);
        return containers.get(0);
    }

    private static int httpPort(JsonNode container) {
        String value = argument(container, "--http-port");
        return value == null ? HttpEndpoint.DEFAULT_PORT : Integer.parseInt(value);
    }

    /** The path a probe asks for, after checking its port resolves to the HTTP port. */
    private static String probe(JsonNode container, String name, int httpPort) {
        JsonNode get = container.path(name).path("httpGet");
        assertThat(get.isMissingNode()).as("%s is an HTTP probe", name).isFalse();
        JsonNode port = get.path("port");
        int resolved = port.isInt() ? port.asInt() : containerPort(container, port.asText());
        assertThat(resolved).as("port of %s", name).isEqualTo(httpPort);
        return get.path("path").asText();
    }

    private static int containerPort(JsonNode container, String name) {
        for (JsonNode port : container.path("ports")) {
            if (port.path("name").asText().equals(name)) {
                return port.path("containerPort").asInt();
            }
        }
        throw new AssertionError("no container port named " + name);
    }

    private static String argument(JsonNode container, String option) {
        JsonNode args = container.path("args");
        for (int i = 0; i + 1 < args.size(); i++) {
            if (args.get(i).asText().equals(option)) {
                return args.get(i + 1).asText();
            }
        }
        return null;
    }

    private static boolean selects(JsonNode selector, JsonNode workload) {
        Map<String, String> podLabels =
                labels(workload.path("spec").path("template").path("metadata").path("labels"));
        Map<String, String> wanted = labels(selector.path("matchLabels"));
        return !wanted.isEmpty() && podLabels.entrySet().containsAll(wanted.entrySet());
    }

    private static Map<String, String> labels(JsonNode node) {
        Map<String, String> labels = new HashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            labels.put(e.getKey(), e.getValue().asText());
        }
        return labels;
    }

    /** The pipeline.yaml a project generated from the archetype (artifactId etl-pipeline) starts with. */
    private static String archetypePipelineYaml() throws IOException {
        Path template =
                DEPLOY.resolveSibling("etl-pipeline-archetype/src/main/resources/archetype-resources/pipeline.yaml");
        return Files.readAllLines(template).stream()
                .filter(line -> !line.startsWith("#set"))
                .map(line -> line.replace("${d}", "$").replace("${artifactId}", "etl-pipeline"))
                .reduce("", (a, b) -> a + b + "\n");
    }

    private static String instruction(String dockerfile, String name) {
        Matcher m = Pattern.compile("^" + name + "\\s+(.+)$", Pattern.MULTILINE).matcher(dockerfile);
        assertThat(m.find()).as("%s in the Dockerfile", name).isTrue();
        return m.group(1).strip();
    }

    private static List<JsonNode> documents(Path file) throws IOException {
        try (var parser = YAML.getFactory().createParser(file.toFile())) {
            List<JsonNode> docs = new ArrayList<>();
            YAML.readValues(parser, JsonNode.class).forEachRemaining(doc -> {
                if (doc != null && !doc.isNull() && !doc.isMissingNode()) {
                    docs.add(doc);
                }
            });
            return docs;
        }
    }

    private static List<Path> yamlFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
    }
}
