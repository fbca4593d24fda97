package io.etl.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.etl.bench.impl.Contestant;
import io.etl.bench.impl.RaceTopics;
import java.time.Duration;
import java.util.Map;

/**
 * The forked JVM of one contestant: a warm-up run (discarded) then the timed run, each on topics the
 * parent prepared; prints the timed result as one line {@code RESULT {json}} on stdout and exits 0, or
 * exits 1 with the failure on stderr.
 *
 * <pre>{@code
 * java -Xmx512m -cp etl-bench.jar io.etl.bench.RaceWorker etl 127.0.0.1:9092 warm-prefix 20000 prefix 200000
 * }</pre>
 */
public final class RaceWorker {

    /** The prefix of the line carrying the result. */
    public static final String RESULT_PREFIX = "RESULT ";

    private RaceWorker() {}

    /**
     * Arguments: implementation, bootstrap servers, warm-up prefix, warm-up records, prefix, records
     * [, timeout seconds]. A warm-up prefix of {@code -} skips the warm-up.
     */
    public static void main(String[] args) {
        try {
            Contestant contestant = Contestant.parse(args[0]);
            String bootstrap = args[1];
            Duration timeout = Duration.ofSeconds(args.length > 6 ? Long.parseLong(args[6]) : 600);
            RaceRunner runner = new RaceRunner(bootstrap, Map.of());
            if (!"-".equals(args[2])) {
                runner.run(contestant.implementation(), RaceTopics.of(args[2]), Integer.parseInt(args[3]), timeout);
                System.gc(); // start the timed run from a comparable heap
            }
            RunResult result =
                    runner.run(contestant.implementation(), RaceTopics.of(args[4]), Integer.parseInt(args[5]), timeout);
            System.out.println(RESULT_PREFIX + new ObjectMapper().writeValueAsString(result));
            System.out.flush();
            System.exit(0);
        } catch (Throwable t) {
            t.printStackTrace();
            System.exit(1);
        }
    }
}
