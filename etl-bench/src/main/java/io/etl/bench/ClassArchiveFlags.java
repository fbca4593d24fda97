package io.etl.bench;

import java.nio.file.Path;

/**
 * The JVM flags that record a class archive in a training run and map it in later starts, for the JVM that runs
 * this code: what {@code --appcds} gives every contestant alike ({@link ProcessRace#train}).
 *
 * <p>From JDK 25 on, a training run records an ahead-of-time cache ({@code -XX:AOTCacheOutput}, JEP 514): the
 * classes loaded and linked, and the method profiles of the run (JEP 515), so that the JIT compilers of a later
 * start begin with the training run's profiles instead of gathering their own. Before JDK 25 it records a dynamic
 * CDS archive ({@code -XX:ArchiveClassesAtExit}): the classes only. Either file is mapped with
 * {@code -XX:SharedArchiveFile}, so a start command need not know which JDK recorded it; an archive serves only the
 * JVM build that recorded it.
 */
final class ClassArchiveFlags {

    /** The first JDK whose training run records an AOT cache with method profiles in one step. */
    static final int FIRST_AOT_CACHE_FEATURE = 25;

    private ClassArchiveFlags() {}

    /** The flag that makes this JVM's training run write {@code archive} as it exits. */
    static String recordAtExit(Path archive) {
        return recordAtExit(Runtime.version().feature(), archive);
    }

    /** The flag that makes a JVM of feature release {@code feature} write {@code archive} as it exits. */
    static String recordAtExit(int feature, Path archive) {
        return (feature >= FIRST_AOT_CACHE_FEATURE ? "-XX:AOTCacheOutput=" : "-XX:ArchiveClassesAtExit=") + archive;
    }

    /** The flag that maps {@code archive}, whichever of the two kinds it is. */
    static String map(Path archive) {
        return "-XX:SharedArchiveFile=" + archive;
    }

    /** Whether {@code flag} maps or records an archive, so that a start given it must not get another. */
    static boolean namesArchive(String flag) {
        return flag.startsWith("-XX:SharedArchiveFile=")
                || flag.startsWith("-XX:ArchiveClassesAtExit=")
                || flag.startsWith("-XX:AOTCache=")
                || flag.startsWith("-XX:AOTCacheOutput=")
                || flag.startsWith("-XX:AOTMode=");
    }

    /** What this JVM's training run records, for messages: {@code "AOT cache"} or {@code "class archive"}. */
    static String kind() {
        return Runtime.version().feature() >= FIRST_AOT_CACHE_FEATURE ? "AOT cache" : "class archive";
    }
}
