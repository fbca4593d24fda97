package io.etl.runtime;

/**
 * The exit codes of {@code etl} commands, one table for every command (docs/runtime.md shows it too).
 *
 * <table>
 *   <caption>exit codes</caption>
 *   <tr><th>code</th><th>run</th><th>validate</th><th>check</th></tr>
 *   <tr><td>{@value #OK}</td><td>stopped by SIGTERM/SIGINT and drained: everything written and committed</td>
 *       <td>the file is valid</td><td>the clusters are ready for the pipeline</td></tr>
 *   <tr><td>{@value #FAILED}</td><td>the pipeline failed, or batches were abandoned at the drain deadline</td>
 *       <td>the file has problems</td><td>not ready</td></tr>
 *   <tr><td>{@value #USAGE}</td><td>usage or configuration error: nothing was started</td><td>usage error</td><td>usage or configuration error</td></tr>
 *   <tr><td>{@value #STOP_BUDGET_EXCEEDED}</td><td>the stop did not finish within {@code pipeline.shutdown_timeout}</td>
 *       <td></td><td></td></tr>
 *   <tr><td>{@value #SECOND_SIGNAL}</td><td>a second SIGTERM/SIGINT while draining: exited at once</td><td></td><td></td></tr>
 * </table>
 */
public final class ExitCodes {

    /** Success: drained cleanly (run), valid (validate), ready (check). */
    public static final int OK = 0;
    /** The pipeline failed or did not drain everything (run); the file has problems (validate); not ready (check). */
    public static final int FAILED = 1;
    /** A usage or configuration error: bad option, unknown pipeline, invalid YAML, an {@code --http-port} in use. */
    public static final int USAGE = 2;
    /** The stop (drain, final commit, closing the clients) outlasted {@code pipeline.shutdown_timeout}. */
    public static final int STOP_BUDGET_EXCEEDED = 3;
    /** A second SIGTERM or SIGINT arrived while draining; the process exited without waiting (128 + SIGINT). */
    public static final int SECOND_SIGNAL = 130;

    private ExitCodes() {}
}
