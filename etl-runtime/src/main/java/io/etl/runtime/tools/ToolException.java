package io.etl.runtime.tools;

import io.etl.runtime.ExitCodes;

/** Why a tool could not do what it was asked, and the exit code that says so; printed as one {@code error:} line. */
final class ToolException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int exitCode;

    ToolException(String message, int exitCode) {
        super(message);
        this.exitCode = exitCode;
    }

    /** A failure of the cluster or of the operation: exit {@link ExitCodes#FAILED}. */
    static ToolException failed(String message) {
        return new ToolException(message, ExitCodes.FAILED);
    }

    /** A wrong option or file: exit {@link ExitCodes#USAGE}. */
    static ToolException usage(String message) {
        return new ToolException(message, ExitCodes.USAGE);
    }

    int exitCode() {
        return exitCode;
    }
}
