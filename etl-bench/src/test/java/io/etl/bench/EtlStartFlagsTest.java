package io.etl.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The race starts etl with the JVM settings the project's start commands and images give it, and no others. */
class EtlStartFlagsTest {

    private static final Path ROOT = Path.of("..");

    @Test
    void theStartCommandsAndTheDockerRecipeCarryTheFlagsTheRaceStartsEtlWith() throws IOException {
        String flags = String.join(" ", ProcessRace.ETL_JVM_FLAGS);
        for (String doc : List.of(
                "README.md",
                "docs/getting-started.md",
                "deploy/docker/Dockerfile",
                "etl-pipeline-archetype/src/main/resources/archetype-resources/README.md")) {
            assertThat(Files.readString(ROOT.resolve(doc)))
                    .as("%s starts etl as the race does", doc)
                    .contains(flags);
        }
    }

    @Test
    void theGeneratedProjectsImageCarriesEachOfThem() throws IOException {
        String pom =
                Files.readString(ROOT.resolve("etl-pipeline-archetype/src/main/resources/archetype-resources/pom.xml"));
        for (String flag : ProcessRace.ETL_JVM_FLAGS) {
            assertThat(pom).contains("<jvmFlag>" + flag + "</jvmFlag>");
        }
    }
}
