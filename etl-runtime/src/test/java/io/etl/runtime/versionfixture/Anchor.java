package io.etl.runtime.versionfixture;

/** Marks the package whose {@code version.properties} the version tests read. */
public final class Anchor {

    private Anchor() {}
}
