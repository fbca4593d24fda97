package io.etl.kafka.source.it;

import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import java.nio.file.Path;

/**
 * Runs one of {@link Pipelines} from a YAML file until SIGTERM or an error, then exits with the run's exit
 * code: {@code java ... PipelineProcess <split|copy> <config.yaml>}.
 *
 * <p>The library leaves the process alone (no shutdown hook of its own), so this test launcher, like the
 * {@code etl-runtime} launcher, turns SIGTERM into a drain itself: here with a plain shutdown hook.
 */
public final class PipelineProcess {

    private PipelineProcess() {}

    public static void main(String[] args) {
        PipelineConfig config = PipelineConfig.load(Path.of(args[1]));
        RunningPipeline running = Pipelines.named(args[0], config).start(config);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            PipelineResult result =
                                    running.stopAndWait(config.pipeline().shutdownTimeout());
                            System.out.println("pipeline result: " + result);
                            System.out.flush();
                            Runtime.getRuntime().halt(result.exitCode());
                        },
                        "pipeline-process-stop"));
        PipelineResult result = running.result().join();
        System.out.println("pipeline result: " + result);
        System.exit(result.exitCode());
    }
}
