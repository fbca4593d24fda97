package io.etl.archetype;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What a release would publish, read from the repository the build installed for {@link ArchetypeIT}
 * ({@code target/it-repository}, the same files {@code mvn install} or {@code deploy} would write): POMs
 * flattened, jars naming their module, and a BOM that lists every published library.
 */
class PublishedArtifactsIT {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path ETL = Path.of(System.getProperty("it.repository", "target/it-repository"), "io", "etl");
    private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");
    private static final Pattern BOM_ENTRY = Pattern.compile("<artifactId>([^<]+)</artifactId>");

    @Test
    void installedPomsHaveNoParentAndNoUnresolvedProperty() throws IOException {
        List<Path> poms = files(".pom").stream()
                .filter(p -> !p.getFileName().toString().startsWith("etl-parent-"))
                .toList();
        assertThat(poms)
                .extracting(p -> p.getFileName().toString())
                .anyMatch(n -> n.startsWith("etl-core-"))
                .anyMatch(n -> n.startsWith("etl-runtime-"))
                .anyMatch(n -> n.startsWith("etl-bom-"));
        for (Path pom : poms) {
            String text = Files.readString(pom);
            assertThat(text)
                    .as("%s", pom.getFileName())
                    .doesNotContain("${")
                    .doesNotContain("<parent>")
                    .contains("<licenses>", "<scm", "<developers>", "<url>");
        }
    }

    @Test
    void everyLibraryJarNamesItsModuleAfterItsArtifact() throws IOException {
        List<Path> jars = files(".jar").stream()
                .filter(p -> !p.getFileName().toString().contains("archetype"))
                .toList();
        assertThat(jars).isNotEmpty();
        for (Path jar : jars) {
            String artifactId = jar.getParent().getParent().getFileName().toString();
            try (JarFile file = new JarFile(jar.toFile())) {
                assertThat(file.getManifest().getMainAttributes().getValue("Automatic-Module-Name"))
                        .as("Automatic-Module-Name of %s", jar.getFileName())
                        .isEqualTo("io." + artifactId.replace('-', '.'));
            }
        }
    }

    @Test
    void bomListsExactlyTheLibrariesThatArePublished() throws IOException {
        Set<String> published = new TreeSet<>();
        Matcher modules = MODULE.matcher(Files.readString(ROOT.resolve("pom.xml")));
        while (modules.find()) {
            String pom = Files.readString(ROOT.resolve(modules.group(1)).resolve("pom.xml"));
            boolean library = !pom.contains("<packaging>") || pom.contains("<packaging>jar</packaging>");
            if (library && !pom.contains("<maven.deploy.skip>true</maven.deploy.skip>")) {
                published.add(modules.group(1));
            }
        }
        String bom = Files.readString(ROOT.resolve("etl-bom/pom.xml"));
        String managed = bom.substring(bom.indexOf("<dependencyManagement>"), bom.indexOf("</dependencyManagement>"));
        Set<String> listed = new TreeSet<>();
        Matcher entries = BOM_ENTRY.matcher(managed);
        while (entries.find()) {
            listed.add(entries.group(1));
        }

        Matcher version = Pattern.compile("<artifactId>etl-bom</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(bom);
        assertThat(version.find()).isTrue();
        assertThat(version.group(1))
                .as("etl-bom has no parent: its version is kept by hand")
                .isEqualTo(System.getProperty("etl.version"));
        assertThat(published).contains("etl-core", "etl-runtime", "etl-testkit");
        assertThat(listed).isEqualTo(published);
        assertThat(ROOT.resolve("LICENSE")).content().contains("Apache License", "Version 2.0");
    }

    private static List<Path> files(String suffix) throws IOException {
        try (Stream<Path> paths = Files.walk(ETL)) {
            return new ArrayList<>(paths.filter(p -> p.getFileName().toString().endsWith(suffix))
                    .sorted()
                    .toList());
        }
    }
}
