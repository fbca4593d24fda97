package io.etl.schema.it;

import io.etl.core.PipelineResult;
import io.etl.core.config.PipelineConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.avro.Schema;

/**
 * The Avro pipeline of {@link SchemaRegistryPipelineIT} in a JVM of its own, so a test can SIGKILL it:
 * {@code AvroPipelineMain <pipeline.yaml>}. Runs until it fails or is killed.
 */
public final class AvroPipelineMain {

    private AvroPipelineMain() {}

    public static void main(String[] args) throws Exception {
        PipelineConfig config = PipelineConfig.parse(Files.readString(Path.of(args[0])));
        SchemaPipelines.Topics t = new SchemaPipelines.Topics(config.pipeline().name(), null, null, null, null);
        Schema reader = SchemaRegistryPipelineIT.V2;
        PipelineResult result =
                SchemaRegistryPipelineIT.avroToLedger(t, config, reader).run(config);
        System.out.println("pipeline ended: " + result);
        System.exit(result.status() == PipelineResult.Status.COMPLETED ? 0 : 1);
    }
}
