package io.etl.bench.avro;

import io.etl.core.record.RecordMeta;
import io.etl.kafka.common.FormatContext;
import io.etl.kafka.common.SchemaRegistryConfig;
import io.etl.kafka.source.Decoder;
import io.etl.schema.Avro;
import io.etl.schema.SchemaEncoder;
import io.etl.testkit.schema.SchemaRegistryServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.Locale;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;

/**
 * The Avro race's codec work alone, on one thread with no Kafka: decode a framed order, route it, encode it
 * framed, once through etl's {@code Avro.decoder(ORDER)} and {@code Avro.encoder(ROUTED)} and once by hand as
 * {@link AvroClientsLoop} does it. Rounds alternate who goes first; each prints the thread's CPU per record. It
 * tells whether a gap in the race lies in the schema-registry formats or elsewhere.
 *
 * <pre>{@code
 * java -cp etl-bench/target/etl-bench.jar io.etl.bench.avro.AvroCodecBench --rounds 10
 * }</pre>
 */
public final class AvroCodecBench {

    private static final int ORDERS = 20_000;
    private static final int PASSES = 50;

    private AvroCodecBench() {}

    /** The codec work of one contestant on one framed order: the encoded output, or null when dropped. */
    private interface Codec {
        byte[] apply(int i) throws Exception;
    }

    public static void main(String[] args) throws Exception {
        int rounds = 10;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--rounds")) {
                rounds = Integer.parseInt(args[++i]);
            } else {
                System.err.println("usage: AvroCodecBench [--rounds N]");
                System.exit(2);
            }
        }
        try (SchemaRegistryServer registry = SchemaRegistryServer.start()) {
            registry.register("orders-value", "AVRO", AvroOrders.ORDER.toString());
            int routedId = registry.register("routed-value", "AVRO", AvroOrders.ROUTED.toString());
            SchemaRegistryConfig config =
                    SchemaRegistryConfig.custom().url(registry.url()).build();
            SchemaEncoder<GenericRecord> producer = Avro.encoder(AvroOrders.ORDER);
            producer.open(context("sinks.producer.kafka", "orders", config));
            byte[][] framed = new byte[ORDERS][];
            RecordMeta[] metas = new RecordMeta[ORDERS];
            for (int i = 0; i < ORDERS; i++) {
                framed[i] = producer.encode(AvroOrders.order(i), meta(null)).value();
                metas[i] = meta(framed[i]);
            }
            Decoder<GenericRecord> decoder = Avro.decoder(AvroOrders.ORDER);
            decoder.open(context("source.orders.kafka", "orders", config));
            SchemaEncoder<GenericRecord> encoder = Avro.encoder(AvroOrders.ROUTED);
            encoder.open(context("sinks.routed.kafka", "routed", config));
            Codec etl = i -> {
                GenericRecord routed = AvroOrders.route(decoder.decode(framed[i], metas[i]));
                return routed == null ? null : encoder.encode(routed, metas[i]).value();
            };
            Codec byHand = byHand(framed, routedId);
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            long checksum = 0;
            for (int round = 1; round <= rounds; round++) {
                List<String> order = round % 2 == 1 ? List.of("etl", "loop") : List.of("loop", "etl");
                for (String who : order) {
                    Codec codec = who.equals("etl") ? etl : byHand;
                    long start = threads.getCurrentThreadCpuTime();
                    for (int pass = 0; pass < PASSES; pass++) {
                        for (int i = 0; i < ORDERS; i++) {
                            byte[] out = codec.apply(i);
                            checksum += out == null ? 0 : out.length;
                        }
                    }
                    double micros = (threads.getCurrentThreadCpuTime() - start) / 1000.0 / ((double) ORDERS * PASSES);
                    System.out.printf(Locale.ROOT, "round %d %s %.3f CPU µs/record%n", round, who, micros);
                }
            }
            System.out.println("checksum " + checksum);
        }
    }

    private static Codec byHand(byte[][] framed, int routedId) {
        GenericDatumReader<GenericRecord> reader =
                new GenericDatumReader<>(AvroOrders.ORDER, AvroOrders.ORDER, GenericData.get());
        GenericDatumWriter<GenericRecord> writer = new GenericDatumWriter<>(AvroOrders.ROUTED, GenericData.get());
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        byte[] header = {0, (byte) (routedId >>> 24), (byte) (routedId >>> 16), (byte) (routedId >>> 8), (byte) routedId
        };
        return new Codec() {
            private BinaryDecoder decoder;
            private BinaryEncoder encoder;

            @Override
            public byte[] apply(int i) throws IOException {
                byte[] value = framed[i];
                decoder = DecoderFactory.get().binaryDecoder(value, 5, value.length - 5, decoder);
                GenericRecord routed = AvroOrders.route(reader.read(null, decoder));
                if (routed == null) {
                    return null;
                }
                out.reset();
                out.writeBytes(header);
                encoder = EncoderFactory.get().directBinaryEncoder(out, encoder);
                writer.write(routed, encoder);
                encoder.flush();
                return out.toByteArray();
            }
        };
    }

    private static FormatContext context(String path, String topic, SchemaRegistryConfig config) {
        return new FormatContext("bench " + topic, path, List.of(topic), config, new SimpleMeterRegistry(), null);
    }

    private static RecordMeta meta(byte[] value) {
        return new RecordMeta("orders", 0, 0L, 0L, null, List.of(), value);
    }
}
