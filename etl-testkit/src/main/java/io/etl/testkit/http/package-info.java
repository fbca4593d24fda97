/** A real local HTTP service for tests of pipelines that call services: fixed latency, injected failures. */
package io.etl.testkit.http;
