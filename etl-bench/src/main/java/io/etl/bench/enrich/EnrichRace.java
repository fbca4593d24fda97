package io.etl.bench.enrich;

import io.etl.bench.Forks;
import io.etl.bench.ProcStat;
import io.etl.bench.ProcessCpu;
import io.etl.examples.enrich.CustomerService;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.http.TestHttpService;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The enrich race: orders keyed by customer, each needing one call to a local HTTP service that answers after a
 * fixed latency ({@link CustomerService}, the JDK's {@code HttpServer} with {@code TCP_NODELAY}), all contestants
 * calling it through the same client ({@code CustomerClient}, the JDK's {@code HttpClient}). Each contestant is a JVM
 * of its own with identical flags, clocked from the fork until every order is written and the input's end offsets
 * are committed; CPU per record is read from {@code /proc}.
 *
 * <pre>{@code
 * java -cp etl-bench/target/etl-bench.jar io.etl.bench.enrich.EnrichRace --records 200000 --runs 3 \
 *     --parallel-consumer-kafka-clients etl-bench/target/kafka-clients-3.9.1.jar
 * }</pre>
 *
 * <p>Options: {@code --records N} (200,000), {@code --partitions P} (6), {@code --keys K} (1,000), {@code --latency-ms
 * L} (20), {@code --concurrency C} (200: the async stages' and parallel-consumer's), {@code --runs R} (1),
 * {@code --only a,b} (contestants), {@code --jvm-arg ARG} (every contestant; default
 * {@link #DEFAULT_JVM_ARGS}), {@code --parallel-consumer-kafka-clients JAR} (required with parallel-consumer, which
 * runs only on kafka-clients 3.x: that jar goes first on its classpath). The broker is {@code KAFKA_BROKERS} when
 * set, else one embedded in this JVM; the service runs in this JVM.
 */
public final class EnrichRace {

    /**
     * Every contestant, in the order of a first run. The first two are the machine's limits rather than contestants:
     * {@code calls-alone} the calls and the JSON work without Kafka ({@link CallsAlone}), {@code kafka-clients-async}
     * the same work as the least a Kafka-to-Kafka loop must do ({@link ClientsAsyncEnrich}).
     */
    static final List<String> CONTESTANTS = List.of(
            "calls-alone",
            "kafka-clients-async",
            "etl-map",
            "etl-async",
            "etl-concurrent",
            "parallel-consumer",
            "kafka-streams");

    /**
     * Every contestant's flags unless {@code --jvm-arg} says otherwise. The common pool's parallelism is set because
     * on a machine of two CPUs the JVM gives that pool one thread, and {@code CompletableFuture} then starts a thread
     * for every default asynchronous task, as the JDK {@code HttpClient.sendAsync} schedules one per response: the
     * setting every user of that client on such a machine needs, given to all alike.
     */
    static final List<String> DEFAULT_JVM_ARGS =
            List.of("-Xmx512m", "-XX:+UseSerialGC", "-Djava.util.concurrent.ForkJoinPool.common.parallelism=2");

    private EnrichRace() {}

    /** The race's settings. */
    record Options(
            int records,
            int partitions,
            int keys,
            int latencyMillis,
            int concurrency,
            int runs,
            List<String> contestants,
            List<String> jvmArgs,
            String parallelConsumerKafkaClients) {

        static Options parse(String... args) {
            int records = 200_000;
            int partitions = 6;
            int keys = 1_000;
            int latency = 20;
            int concurrency = 200;
            int runs = 1;
            List<String> only = CONTESTANTS;
            List<String> jvmArgs = new ArrayList<>();
            String pcKafkaClients = null;
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--records" -> records = Integer.parseInt(args[++i]);
                    case "--partitions" -> partitions = Integer.parseInt(args[++i]);
                    case "--keys" -> keys = Integer.parseInt(args[++i]);
                    case "--latency-ms" -> latency = Integer.parseInt(args[++i]);
                    case "--concurrency" -> concurrency = Integer.parseInt(args[++i]);
                    case "--runs" -> runs = Integer.parseInt(args[++i]);
                    case "--only" -> only = Arrays.asList(args[++i].split(","));
                    case "--jvm-arg" -> jvmArgs.add(args[++i]);
                    case "--parallel-consumer-kafka-clients" -> pcKafkaClients = args[++i];
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
            for (String c : only) {
                if (!CONTESTANTS.contains(c)) {
                    throw new IllegalArgumentException("unknown contestant " + c + "; one of " + CONTESTANTS);
                }
            }
            if (only.contains("parallel-consumer") && pcKafkaClients == null) {
                throw new IllegalArgumentException("parallel-consumer 0.5.3.3 runs only on kafka-clients 3.x"
                        + " (4.x removed classes it loads): give the kafka-clients 3.9.1 jar with"
                        + " --parallel-consumer-kafka-clients JAR, or leave it out with --only");
            }
            if (jvmArgs.isEmpty()) {
                jvmArgs.addAll(DEFAULT_JVM_ARGS);
            }
            return new Options(records, partitions, keys, latency, concurrency, runs, only, jvmArgs, pcKafkaClients);
        }
    }

    /** One contestant's run. */
    record Result(
            String contestant,
            int run,
            long records,
            double seconds,
            double secondsAfterFirstCall,
            ProcessCpu cpu,
            long calls,
            long deadLetters,
            double load) {

        double perSecond() {
            return records / seconds;
        }

        /** The steady rate: every order over the time from the service's first call to the end. */
        double perSecondAfterFirstCall() {
            return records / secondsAfterFirstCall;
        }
    }

    public static void main(String[] args) throws Exception {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println("usage: EnrichRace [--records N] [--partitions P] [--keys K] [--latency-ms L]"
                    + " [--concurrency C] [--runs R] [--only a,b] [--jvm-arg ARG]..."
                    + " [--parallel-consumer-kafka-clients JAR]");
            System.exit(2);
            return;
        }
        List<Result> results = new ArrayList<>();
        try (KafkaTestCluster kafka = KafkaTestCluster.fromEnvironment();
                TestHttpService service = CustomerService.start(Duration.ofMillis(options.latencyMillis()))) {
            for (int run = 1; run <= options.runs(); run++) {
                List<String> order = new ArrayList<>(options.contestants());
                // alternate the order so that no contestant always runs first on a cold broker
                if (run % 2 == 0) {
                    Collections.reverse(order);
                }
                for (String contestant : order) {
                    Result r = runOne(kafka, service, contestant, run, options);
                    results.add(r);
                    System.out.println(row(r, options));
                }
            }
        }
        System.out.println();
        System.out.printf(
                Locale.ROOT,
                "enrich race: %d orders, %d partitions, %d keys, %d ms per call, concurrency %d, flags %s%n",
                options.records(),
                options.partitions(),
                options.keys(),
                options.latencyMillis(),
                options.concurrency(),
                String.join(" ", options.jvmArgs()));
        System.out.println(
                "| contestant | run | records/s | % of bound | records/s after first call | % of bound after first call"
                        + " | seconds | CPU µs/record | without JIT compilers | calls | dead letters | load |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|");
        results.forEach(r -> System.out.println(row(r, options)));
    }

    /** {@code concurrency ÷ latency}; one call at a time per partition for the sequential contestants. */
    static double bound(String contestant, Options options) {
        int inFlight = switch (contestant) {
            case "etl-map" -> options.partitions();
            case "kafka-streams" -> options.partitions();
            default -> options.concurrency();
        };
        return inFlight * 1000.0 / options.latencyMillis();
    }

    private static String row(Result r, Options options) {
        return String.format(
                Locale.ROOT,
                "| %s | %d | %.0f | %.0f %% | %.0f | %.0f %% | %.2f | %.1f | %.1f | %d | %d | %.2f |",
                r.contestant(),
                r.run(),
                r.perSecond(),
                100 * r.perSecond() / bound(r.contestant(), options),
                r.perSecondAfterFirstCall(),
                100 * r.perSecondAfterFirstCall() / bound(r.contestant(), options),
                r.seconds(),
                r.cpu().microsPerRecord(r.records()),
                r.cpu().withoutCompilersMicrosPerRecord(r.records()),
                r.calls(),
                r.deadLetters(),
                r.load());
    }

    static Result runOne(KafkaTestCluster kafka, TestHttpService service, String contestant, int run, Options options)
            throws IOException, InterruptedException {
        if (contestant.equals("calls-alone")) {
            return runCallsAlone(service, run, options);
        }
        EnrichTopics topics = new EnrichTopics("enrich-race-" + run + "-" + contestant + "-"
                + UUID.randomUUID().toString().substring(0, 6));
        for (String topic : topics.all()) {
            kafka.createTopic(topic, topic.equals(topics.deadLetters()) ? 1 : options.partitions());
        }
        kafka.produce(topics.input(), options.records(), i -> EnrichOrdersInput.order(i, options.keys()));
        long callsBefore = service.requests();

        List<String> command = javaCommand(options);
        String classPath = System.getProperty("java.class.path");
        if (contestant.equals("parallel-consumer")) {
            // its kafka-clients first: its classes shadow the 4.x ones of etl's classpath in that JVM only
            classPath = options.parallelConsumerKafkaClients() + File.pathSeparator + classPath;
        }
        command.addAll(List.of(
                "-cp",
                classPath,
                EnrichContestantMain.class.getName(),
                contestant,
                kafka.bootstrapServers(),
                topics.prefix(),
                service.uri().toString(),
                Integer.toString(options.concurrency())));
        File log = File.createTempFile("enrich-race-" + contestant, ".log");
        long start = System.nanoTime();
        FirstCall firstCall = new FirstCall(service, callsBefore, start);
        Process process = Forks.withLog(command, log, Map.of());
        try {
            // an order whose calls kept failing is accounted for on the dead-letter topic, not the output
            while (kafka.committedTotal(topics.group()) < options.records()
                    || kafka.endTotal(topics.output()) + kafka.endTotal(topics.deadLetters()) < options.records()) {
                if (!process.isAlive()) {
                    throw new IllegalStateException(contestant + " exited early; its log: " + log);
                }
                if (System.nanoTime() - start > TimeUnit.MINUTES.toNanos(30)) {
                    throw new IllegalStateException(contestant + " did not finish in 30 minutes; its log: " + log);
                }
                firstCall.check();
                Thread.sleep(50);
            }
            long end = System.nanoTime();
            return new Result(
                    contestant,
                    run,
                    options.records(),
                    (end - start) / 1e9,
                    firstCall.secondsUntil(end),
                    ProcessCpu.of(process.pid()),
                    service.requests() - callsBefore,
                    kafka.endTotal(topics.deadLetters()),
                    ProcStat.loadAverage());
        } finally {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    /**
     * The CPU limit without Kafka: {@link CallsAlone} forked with the contestants' flags, clocked from the fork to its
     * exit.
     */
    private static Result runCallsAlone(TestHttpService service, int run, Options options)
            throws IOException, InterruptedException {
        List<String> command = javaCommand(options);
        command.addAll(List.of(
                "-cp",
                System.getProperty("java.class.path"),
                CallsAlone.class.getName(),
                service.uri().toString(),
                Integer.toString(options.records()),
                Integer.toString(options.keys()),
                Integer.toString(options.concurrency())));
        File log = File.createTempFile("enrich-race-calls-alone", ".log");
        long callsBefore = service.requests();
        long start = System.nanoTime();
        FirstCall firstCall = new FirstCall(service, callsBefore, start);
        Process process = Forks.withLog(command, log, Map.of());
        try {
            // CPU is read while the process is still there to be read: just before it ends, by its exit
            long cpu = 0;
            long compilers = 0;
            for (int tick = 0; !process.waitFor(20, TimeUnit.MILLISECONDS); tick++) {
                firstCall.check();
                cpu = Math.max(cpu, ProcStat.cpuMillis(process.pid()));
                if (tick % 25 == 0) {
                    // every half second: the compilers' share hardly moves once the run is going, and reading
                    // every thread's stat 50 times a second would load the machine being measured
                    compilers = Math.max(compilers, ProcStat.compilerCpuMillis(process.pid()));
                }
                if (System.nanoTime() - start > TimeUnit.MINUTES.toNanos(30)) {
                    throw new IllegalStateException("calls-alone did not finish in 30 minutes; its log: " + log);
                }
            }
            long end = System.nanoTime();
            if (process.exitValue() != 0) {
                throw new IllegalStateException("calls-alone failed; its log: " + log);
            }
            return new Result(
                    "calls-alone",
                    run,
                    options.records(),
                    (end - start) / 1e9,
                    firstCall.secondsUntil(end),
                    new ProcessCpu(cpu, compilers),
                    service.requests() - callsBefore,
                    0,
                    ProcStat.loadAverage());
        } finally {
            process.destroyForcibly();
        }
    }

    /**
     * When the service first saw a call of the running contestant, as the harness's polling notices it: the start of
     * its steady rate, once its JVM has started, joined the group and fetched.
     */
    private static final class FirstCall {

        private final TestHttpService service;
        private final long callsBefore;
        private final long start;
        private boolean seen;
        private long at;

        FirstCall(TestHttpService service, long callsBefore, long start) {
            this.service = service;
            this.callsBefore = callsBefore;
            this.start = start;
        }

        void check() {
            if (!seen && service.requests() > callsBefore) {
                seen = true;
                at = System.nanoTime();
            }
        }

        /** Seconds from the first call to {@code end}; from the fork when no poll saw a call before the end. */
        double secondsUntil(long end) {
            return (end - (seen ? at : start)) / 1e9;
        }
    }

    private static List<String> javaCommand(Options options) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(options.jvmArgs());
        return command;
    }
}
