package io.etl.core.internal.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Substitutes placeholders inside every scalar string of a parsed YAML tree (keys are left alone):
 * <ul>
 *   <li>{@code ${VAR}}: the variable; a problem when it is unset,</li>
 *   <li>{@code ${VAR:-default}}: the default when the variable is unset or empty,</li>
 *   <li>{@code ${VAR-default}}: the default only when the variable is unset,</li>
 *   <li>{@code ${VAR:?message}} ({@code ${VAR?message}}): a problem with the message when the variable is
 *       unset or empty (only unset),</li>
 *   <li>{@code $${}: a literal {@code ${}.</li>
 * </ul>
 * A default may itself contain placeholders. Problems name the variable and the key path, never a value.
 * A key whose value has a problem is removed (a list element becomes null), so its default applies and
 * binding adds no second problem for it.
 */
final class Interpolator {

    static final String FORMS =
            "use ${NAME}, ${NAME:-default}, ${NAME-default} or ${NAME:?message}" + " (write $${ for a literal ${)";

    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private final Function<String, String> env;
    private final ProblemCollector problems;
    private final Map<String, List<String>> variablesByPath = new LinkedHashMap<>();

    Interpolator(Function<String, String> env, ProblemCollector problems) {
        this.env = env;
        this.problems = problems;
    }

    /** Substitutes in place inside {@code root} and returns it (or its replacement when it is a scalar). */
    JsonNode interpolate(JsonNode root) {
        JsonNode result = visit(root, "");
        return result == null ? NullNode.getInstance() : result;
    }

    /** The variables each substituted value came from, by key path; such values must never be echoed. */
    Map<String, List<String>> variablesByPath() {
        return variablesByPath;
    }

    private JsonNode visit(JsonNode node, String path) {
        if (node instanceof ObjectNode object) {
            Map<String, JsonNode> replaced = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> field : object.properties()) {
                JsonNode value = visit(field.getValue(), KeyPaths.join(path, field.getKey()));
                if (value != field.getValue()) {
                    replaced.put(field.getKey(), value);
                }
            }
            replaced.forEach((key, value) -> {
                if (value == null) {
                    object.remove(key);
                } else {
                    object.set(key, value);
                }
            });
            return object;
        }
        if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                JsonNode element = array.get(i);
                JsonNode value = visit(element, KeyPaths.index(path, i));
                if (value != element) {
                    array.set(i, value == null ? NullNode.getInstance() : value);
                }
            }
            return array;
        }
        if (node != null && node.isTextual() && node.textValue().indexOf('$') >= 0) {
            List<String> variables = new ArrayList<>();
            String value = substitute(node.textValue(), path, variables);
            if (!variables.isEmpty()) {
                variablesByPath.put(path, List.copyOf(variables));
            }
            return value == null ? null : TextNode.valueOf(value);
        }
        return node;
    }

    /**
     * {@code text} with every placeholder substituted, or null after recording a problem at {@code path}.
     * Names of the variables consulted are added to {@code variables}.
     */
    String substitute(String text, String path, List<String> variables) {
        StringBuilder out = new StringBuilder(text.length());
        int i = 0;
        while (i < text.length()) {
            if (text.startsWith("$${", i)) {
                out.append("${");
                i += 3;
            } else if (text.startsWith("${", i)) {
                int end = closingBrace(text, i + 2);
                if (end < 0) {
                    problems.add(path, "unterminated ${ placeholder; " + FORMS);
                    return null;
                }
                String value = resolve(text.substring(i + 2, end), path, variables);
                if (value == null) {
                    return null;
                }
                out.append(value);
                i = end + 1;
            } else {
                out.append(text.charAt(i));
                i++;
            }
        }
        return out.toString();
    }

    private static int closingBrace(String text, int from) {
        int depth = 1;
        int j = from;
        while (j < text.length()) {
            if (text.startsWith("$${", j)) {
                j += 3;
            } else if (text.startsWith("${", j)) {
                depth++;
                j += 2;
            } else if (text.charAt(j) == '}') {
                if (--depth == 0) {
                    return j;
                }
                j++;
            } else {
                j++;
            }
        }
        return -1;
    }

    private String resolve(String body, String path, List<String> variables) {
        Matcher name = NAME.matcher(body);
        if (!name.lookingAt()) {
            problems.add(path, "malformed placeholder: a variable name must start with a letter or '_'; " + FORMS);
            return null;
        }
        String variable = name.group();
        String operator = body.substring(name.end());
        variables.add(variable);
        String value = env.apply(variable);
        boolean unset = value == null;
        boolean unsetOrEmpty = unset || value.isEmpty();
        if (operator.isEmpty()) {
            if (unset) {
                problems.add(path, "environment variable " + variable + " is not set");
                return null;
            }
            return value;
        }
        if (operator.startsWith(":-")) {
            return unsetOrEmpty ? substitute(operator.substring(2), path, variables) : value;
        }
        if (operator.startsWith("-")) {
            return unset ? substitute(operator.substring(1), path, variables) : value;
        }
        if (operator.startsWith(":?") || operator.startsWith("?")) {
            boolean colon = operator.startsWith(":");
            if (colon ? unsetOrEmpty : unset) {
                String message = operator.substring(colon ? 2 : 1).strip();
                problems.add(
                        path,
                        "environment variable " + variable + " is " + (colon ? "not set or empty" : "not set")
                                + (message.isEmpty() ? "" : ": " + message));
                return null;
            }
            return value;
        }
        problems.add(path, "malformed placeholder for " + variable + "; " + FORMS);
        return null;
    }
}
