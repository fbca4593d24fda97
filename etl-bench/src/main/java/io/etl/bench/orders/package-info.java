/**
 * The race's workload: a deterministic order generator and the order transform shared by the two
 * baselines (the etl implementation uses the example's own {@code Order}/{@code RoutedOrder}).
 */
package io.etl.bench.orders;
