/**
 * Architecture rules the project's modules share in their tests: {@link io.etl.testkit.architecture.PublicApiRules}
 * keeps API packages' signatures free of internal types. Other projects built on the pipeline may apply them to
 * their own code.
 */
package io.etl.testkit.architecture;
