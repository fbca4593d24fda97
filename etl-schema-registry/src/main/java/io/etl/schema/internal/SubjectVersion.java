package io.etl.schema.internal;

/**
 * One version of a subject.
 *
 * @param subject the subject
 * @param version its version number
 * @param id      the schema's global id
 * @param schema  the schema
 */
public record SubjectVersion(String subject, int version, int id, SchemaText schema) {}
