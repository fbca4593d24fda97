/**
 * Configuration: YAML sections bound to validated records, and the extension point through which
 * connectors add their own typed sections.
 */
package io.etl.core.config;
