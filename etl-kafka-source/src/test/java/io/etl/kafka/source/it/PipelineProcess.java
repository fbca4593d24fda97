package io.etl.kafka.source.it;

import io.etl.core.PipelineResult;
import io.etl.core.config.PipelineConfig;
import java.nio.file.Path;

/**
 * Runs one of {@link Pipelines} from a YAML file until SIGTERM or an error, then exits with the run's exit
 * code: {@code java ... PipelineProcess <split|copy> <config.yaml>}.
 */
public final class PipelineProcess {

    private PipelineProcess() {
    }

    public static void main(String[] args) {
        PipelineConfig config = PipelineConfig.load(Path.of(args[1]));
        PipelineResult result = Pipelines.named(args[0], config).run(config);
        System.out.println("pipeline result: " + result);
        System.exit(result.exitCode());
    }
}
