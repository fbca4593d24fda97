package io.etl.examples;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * An {@code etl-examples} command in a JVM of its own, as a user runs it against a cluster, its standard output
 * and error in files under {@code target/external-it}.
 *
 * @param process the child
 * @param outFile its standard output
 * @param errFile its standard error
 */
public record ExampleProcess(Process process, Path outFile, Path errFile) {

    /**
     * Starts {@code etl-examples ARGS...} with {@code env} replacing the variables of the same names (and the
     * {@code cleared} ones removed), logging to files named after {@code name}.
     */
    public static ExampleProcess start(String name, Map<String, String> env, List<String> cleared, String... args)
            throws IOException {
        Path dir = Files.createDirectories(Path.of("target", "external-it"));
        Path out = dir.resolve(name + ".out");
        Path err = dir.resolve(name + ".err");
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                classpath,
                EtlExamples.class.getName()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        Map<String, String> childEnv = pb.environment();
        childEnv.keySet().removeAll(cleared);
        childEnv.putAll(env);
        return new ExampleProcess(pb.start(), out, err);
    }

    /** SIGTERM, then the exit code. */
    public int stopAndWait() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("did not exit within 60 s of SIGTERM; stderr:\n" + err());
        }
        return process.exitValue();
    }

    /** What it wrote to its standard error so far. */
    public String err() {
        return read(errFile);
    }

    /** What it wrote to its standard output so far. */
    public String out() {
        return read(outFile);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }
}
