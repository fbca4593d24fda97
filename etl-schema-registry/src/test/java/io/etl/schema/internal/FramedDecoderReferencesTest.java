package io.etl.schema.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.core.error.RetryableException;
import io.etl.core.record.RecordMeta;
import io.etl.kafka.common.FormatContext;
import io.etl.kafka.common.SchemaRegistryConfig;
import io.etl.testkit.schema.SchemaRegistryServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A registry failure while a decoder resolves the schemas a writer schema references is handled as one about the
 * writer schema's id. The registry cannot be made to fail between the two requests from outside, so a format that
 * resolves references as Avro's does lets the test act in between.
 */
class FramedDecoderReferencesTest {

    private static final String CUSTOMER = "{\"type\":\"record\",\"name\":\"Customer\",\"namespace\":"
            + "\"io.etl.fixtures\",\"fields\":[{\"name\":\"name\",\"type\":\"string\"}]}";
    private static final String ORDER = "{\"type\":\"record\",\"name\":\"Order\",\"namespace\":\"io.etl.fixtures\","
            + "\"fields\":[{\"name\":\"customer\",\"type\":\"io.etl.fixtures.Customer\"}]}";

    private final SchemaRegistryServer registry = SchemaRegistryServer.start();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private int id;

    @AfterEach
    void stop() {
        registry.close();
    }

    /** Reads the subjects a writer schema references, after {@code meanwhile}, from the writer as {@code seen}. */
    private static final class Referencing extends FramedDecoder<List<String>, List<String>> {
        private final Runnable meanwhile;
        private final UnaryOperator<SchemaText> seen;

        Referencing(Runnable meanwhile, UnaryOperator<SchemaText> seen) {
            super("Referencing");
            this.meanwhile = meanwhile;
            this.seen = seen;
        }

        @Override
        protected List<String> reader(int id, SchemaText writer) {
            meanwhile.run();
            return client().referencedSchemas(seen.apply(writer)).stream()
                    .map(SubjectVersion::subject)
                    .toList();
        }

        @Override
        protected List<String> read(List<String> reader, int id, byte[] bytes, int offset) {
            return reader;
        }
    }

    private Referencing opened(Runnable meanwhile, UnaryOperator<SchemaText> seen) {
        registry.register("customer", "AVRO", CUSTOMER);
        id = registry.register(
                "orders-value",
                "AVRO",
                ORDER,
                List.of(new SchemaRegistryServer.Reference("io.etl.fixtures.Customer", "customer", 1)));
        Referencing decoder = new Referencing(meanwhile, seen);
        decoder.open(new FormatContext(
                "source 'test'",
                "sources.test.kafka",
                List.of("orders"),
                SchemaRegistryConfig.custom().url(registry.url()).build(),
                meters,
                null));
        return decoder;
    }

    private List<String> decode(Referencing decoder) throws Exception {
        byte[] bytes = new byte[WireFormat.HEADER_SIZE];
        WireFormat.writeHeader(bytes, id);
        return decoder.decode(bytes, new RecordMeta("orders", 0, 0L, 0L, null, List.of(), bytes));
    }

    @Test
    void shouldAskForARetryWhenTheRegistryStopsBeforeTheReferencesAreRead() throws Exception {
        boolean[] first = {true};
        Referencing decoder = opened(
                () -> {
                    if (first[0]) {
                        first[0] = false;
                        registry.stop();
                    }
                },
                UnaryOperator.identity());

        assertThatThrownBy(() -> decode(decoder))
                .isInstanceOf(RetryableException.class)
                .hasMessageContaining("did not answer GET /subjects/customer/versions/1");

        registry.restart();
        assertThat(decode(decoder)).containsExactly("customer");
    }

    @Test
    void shouldNameTheIdAndTheReferenceTheRegistryDoesNotHave() {
        Referencing decoder = opened(
                () -> {},
                writer -> new SchemaText(
                        writer.type(),
                        writer.schema(),
                        List.of(new SchemaReference("io.etl.fixtures.Customer", "customer", 7))));

        assertThatThrownBy(() -> decode(decoder))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("schema id " + id + " references a schema that is not in the schema registry")
                .hasMessageContaining("'io.etl.fixtures.Customer' (subject 'customer', version 7)");
    }
}
