package io.etl.runtime;

import java.util.List;

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
 *   <tr><td>{@value #UNREACHABLE}</td><td>the start failed because no broker of a cluster could be reached (a host
 *       that does not resolve, every address refusing connections, no answer)</td><td></td>
 *       <td>not ready, and every problem is a cluster that could not be reached</td></tr>
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
    /**
     * A cluster could not be reached: every problem is at a section's {@code brokers} key (a host that does not
     * resolve, every address refusing connections, no answer within the bound), nothing else went wrong (run, check).
     */
    public static final int UNREACHABLE = 4;
    /** A second SIGTERM or SIGINT arrived while draining; the process exited without waiting (128 + SIGINT). */
    public static final int SECOND_SIGNAL = 130;

    private ExitCodes() {}

    /**
     * {@link #UNREACHABLE} when every one of the problems at {@code paths} (at least one) is at a {@code brokers} key
     * (the connectors report a cluster they cannot reach there), else {@link #FAILED}.
     */
    static int ofProblems(List<String> paths) {
        return !paths.isEmpty() && paths.stream().allMatch(p -> p.endsWith(".brokers")) ? UNREACHABLE : FAILED;
    }
}
