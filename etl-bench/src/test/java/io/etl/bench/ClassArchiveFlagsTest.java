package io.etl.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ClassArchiveFlagsTest {

    private static final Path ARCHIVE = Path.of("target", "app.jsa");

    @Test
    void jdksBefore25RecordADynamicArchiveAnd25OnAnAotCacheWithProfiles() {
        assertThat(ClassArchiveFlags.recordAtExit(17, ARCHIVE)).isEqualTo("-XX:ArchiveClassesAtExit=" + ARCHIVE);
        assertThat(ClassArchiveFlags.recordAtExit(24, ARCHIVE)).isEqualTo("-XX:ArchiveClassesAtExit=" + ARCHIVE);
        assertThat(ClassArchiveFlags.recordAtExit(25, ARCHIVE)).isEqualTo("-XX:AOTCacheOutput=" + ARCHIVE);
        assertThat(ClassArchiveFlags.recordAtExit(26, ARCHIVE)).isEqualTo("-XX:AOTCacheOutput=" + ARCHIVE);
    }

    @Test
    void everyFlagThatMapsOrRecordsAnArchiveIsRecognisedAndOthersAreNot() {
        assertThat(ClassArchiveFlags.namesArchive(ClassArchiveFlags.map(ARCHIVE)))
                .isTrue();
        assertThat(ClassArchiveFlags.namesArchive(ClassArchiveFlags.recordAtExit(17, ARCHIVE)))
                .isTrue();
        assertThat(ClassArchiveFlags.namesArchive(ClassArchiveFlags.recordAtExit(25, ARCHIVE)))
                .isTrue();
        assertThat(ClassArchiveFlags.namesArchive("-XX:AOTCache=app.aot")).isTrue();
        assertThat(ClassArchiveFlags.namesArchive("-XX:AOTMode=record")).isTrue();
        assertThat(ClassArchiveFlags.namesArchive("-Xshare:off")).isFalse();
        assertThat(ClassArchiveFlags.namesArchive("-Xmx256m")).isFalse();
    }
}
