/**
 * A real Kafka broker for tests and demos, and the helpers tests need around it.
 *
 * <ul>
 *   <li>{@link io.etl.testkit.KafkaTestCluster}: the cluster and its factories (embedded in this JVM,
 *       forked JVMs, external, Testcontainers, or whatever the environment asks for).</li>
 *   <li>{@link io.etl.testkit.ForkedKafkaCluster}: broker JVMs a fault test can kill, stop, pause and
 *       restart.</li>
 *   <li>{@link io.etl.testkit.BrokerOptions}, {@link io.etl.testkit.BrokerSecurity}: how to start a
 *       broker; {@link io.etl.testkit.ClusterSecurity}: client properties and ACLs for a secured one.</li>
 *   <li>{@link io.etl.testkit.TcpProxy}: a proxy that holds, black-holes or resets a connection's traffic;
 *       {@link io.etl.testkit.BrokerProxies}: one in front of each broker, advertised by the broker itself.</li>
 *   <li>{@link io.etl.testkit.EmbeddedKafka} / {@link io.etl.testkit.KafkaClusterExtension}: JUnit 5
 *       integration (the only classes here that need JUnit).</li>
 * </ul>
 *
 * <p>Switches: {@code KAFKA_BROKERS} or {@code -Detl.test.kafka.brokers} (external cluster),
 * {@code -Detl.test.kafka=embedded|forked|testcontainers}, {@code -Detl.test.kafka.log=INFO}.
 */
package io.etl.testkit;
