package io.etl.kafka.sink.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class ReusedJsonGeneratorsTest {

    record Order(String id, BigDecimal amount, Instant ts, List<String> tags, Map<String, Object> extra) {}

    /** Its getter fails after the generator has opened the object. */
    record Broken(String id) {
        public String getFailing() {
            throw new IllegalStateException("broken getter");
        }
    }

    /** Serializes itself by encoding its inner value through the same writer first. */
    @JsonSerialize(using = Nested.Writer.class)
    record Nested(Order inner) {
        static final class Writer extends JsonSerializer<Nested> {
            @Override
            public void serialize(Nested value, JsonGenerator gen, SerializerProvider serializers) throws IOException {
                gen.writeString(new String(Encoders.toJson(value.inner())));
            }
        }
    }

    private static final ReusedJsonGenerators GENERATORS = new ReusedJsonGenerators(Encoders.JSON);

    private static byte[] reused(Object value) throws IOException {
        return GENERATORS.write(Encoders.JSON.writerFor(value.getClass()), value);
    }

    private static byte[] fresh(Object value) throws IOException {
        return Encoders.JSON.writerFor(value.getClass()).writeValueAsBytes(value);
    }

    private static Order order(int i) {
        Map<String, Object> extra = new LinkedHashMap<>();
        extra.put("n", i);
        extra.put("note", "é\"\n".repeat(i % 3));
        return new Order(
                "o-" + i,
                new BigDecimal("12.345").multiply(BigDecimal.valueOf(i)),
                Instant.ofEpochSecond(i),
                List.of("a", "b"),
                extra);
    }

    @Test
    void writesExactlyWhatWriteValueAsBytesWritesValueAfterValue() throws IOException {
        for (int i = 0; i < 50; i++) {
            Order o = order(i);
            assertThat(reused(o)).isEqualTo(fresh(o));
        }
        String large = "x".repeat(300_000); // grows the buffer past its first blocks
        assertThat(reused(Map.of("big", large))).isEqualTo(fresh(Map.of("big", large)));
        assertThat(reused("text")).isEqualTo(fresh("text"));
        assertThat(reused(List.of(1, 2))).isEqualTo(fresh(List.of(1, 2)));
        assertThat(reused(order(7))).isEqualTo(fresh(order(7)));
    }

    @Test
    void aValueThatFailsHalfwayLeavesNothingBehindForTheNext() throws IOException {
        assertThat(reused(order(1))).isEqualTo(fresh(order(1)));
        assertThatThrownBy(() -> reused(new Broken("b-1"))).hasStackTraceContaining("broken getter");
        assertThat(reused(order(2))).isEqualTo(fresh(order(2)));
    }

    @Test
    void aSerializerThatEncodesAnotherValueGetsItsOwnGenerator() throws IOException {
        Nested nested = new Nested(order(3));
        assertThat(Encoders.toJson(nested)).isEqualTo(fresh(nested));
        assertThat(new String(Encoders.toJson(nested))).contains("o-3");
        assertThat(Encoders.toJson(order(4))).isEqualTo(fresh(order(4)));
    }

    @Test
    void threadsDoNotShareAGenerator() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Callable<Boolean>> tasks = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int base = t * 1000;
                tasks.add(() -> {
                    for (int i = base; i < base + 500; i++) {
                        if (!Arrays.equals(reused(order(i)), fresh(order(i)))) {
                            return false;
                        }
                    }
                    return true;
                });
            }
            for (Future<Boolean> f : pool.invokeAll(tasks)) {
                assertThat(f.get()).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
