package ${package};

/**
 * One record of the input topic, read from JSON such as {@code {"id": "42", "text": "hello"}}: fields the JSON has
 * and this record does not are ignored, and missing ones are {@code null}. The output is written as JSON of the same
 * shape. Give it the fields of your own records.
 *
 * @param id   the event's id
 * @param text what {@link AppPipeline#transform(Event)} works on
 */
public record Event(String id, String text) {
}
