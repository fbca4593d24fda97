package io.etl.testkit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Gives a JUnit 5 test class a Kafka cluster: one per test class by default, or one per JVM with
 * {@code shared = true}. The cluster is {@link KafkaTestCluster#fromEnvironment(BrokerOptions)}: the
 * embedded broker unless {@code KAFKA_BROKERS} or {@code -Detl.test.kafka} says otherwise.
 *
 * <pre>{@code
 * @EmbeddedKafka(shared = true)
 * class OrdersIT {
 *     @Test
 *     void copiesOrders(KafkaTestCluster kafka) {        // parameter injection
 *         kafka.createTopic("orders", 3);
 *         ...
 *     }
 * }
 * }</pre>
 *
 * <p>Fields of type {@link KafkaTestCluster} (static or not) that are {@code null} are injected too.
 * The cluster is closed after the class (or, when shared, at the end of the test run). Classes that
 * ask for a shared cluster with the same {@link #brokerProperties()} get the same one.
 *
 * @see KafkaClusterExtension
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(KafkaClusterExtension.class)
public @interface EmbeddedKafka {

    /** @return whether to share one cluster with every other class asking for a shared one */
    boolean shared() default false;

    /** @return extra broker properties, each {@code key=value}, e.g. {@code auto.create.topics.enable=false} */
    String[] brokerProperties() default {};
}
