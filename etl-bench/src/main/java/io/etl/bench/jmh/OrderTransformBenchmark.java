package io.etl.bench.jmh;

import io.etl.bench.orders.BenchOrders;
import io.etl.bench.orders.OrderCodec;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The per-record CPU cost of the workload's logic, without Kafka: Jackson decode of a ~250-byte order
 * into a record with a {@code BigDecimal} amount, the test-order filter, the reshape and the Jackson
 * encode of the output. It bounds what any of the three contestants can reach on one core.
 *
 * <pre>{@code
 * java -cp etl-bench/target/etl-bench.jar org.openjdk.jmh.Main OrderTransformBenchmark
 * }</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgs = "-Xmx512m")
public class OrderTransformBenchmark {

    private static final int ORDERS = 1024;

    private final OrderCodec codec = new OrderCodec();
    private byte[][] orders;
    private int next;

    /** Pre-generates the orders so the generator is not measured. */
    @Setup
    public void setUp() {
        orders = new byte[ORDERS][];
        for (int i = 0; i < ORDERS; i++) {
            orders[i] = BenchOrders.jsonBytes(i);
        }
    }

    /** Decode, filter, reshape, encode one order. */
    @Benchmark
    public OrderCodec.Routed transform() {
        byte[] value = orders[next];
        next = (next + 1) & (ORDERS - 1);
        return codec.transform(value);
    }
}
