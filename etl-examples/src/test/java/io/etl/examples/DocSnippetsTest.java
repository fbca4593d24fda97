package io.etl.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps the code in the docs identical to compiled code. A fenced block right after
 * {@code <!-- snippet: io/etl/examples/split/KafkaToKafkaSplit.java#pipeline -->} must equal, line for line,
 * the region between {@code // tag::pipeline[]} and {@code // end::pipeline[]} of that file under
 * {@code etl-examples/src/main/java}, with the region's common indentation removed. A path that is not
 * there is taken from the repository root (the archetype's templates mark regions with {@code ## tag::x[]}).
 */
class DocSnippetsTest {

    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final Path SOURCES = ROOT.resolve("etl-examples/src/main/java");
    private static final Pattern MARKER = Pattern.compile("<!--\\s*snippet:\\s*(\\S+)#(\\S+)\\s*-->");

    record Snippet(Path doc, int line, String file, String tag, List<String> body) {}

    @Test
    void everySnippetInTheDocsMatchesItsSource() throws IOException {
        List<Snippet> snippets = snippets();
        assertThat(snippets).as("snippets found in README.md and docs/").isNotEmpty();
        for (Snippet s : snippets) {
            Path source = SOURCES.resolve(s.file());
            List<String> region = region(Files.exists(source) ? source : ROOT.resolve(s.file()), s.tag());
            assertThat(s.body())
                    .as("%s:%d quotes %s#%s", ROOT.relativize(s.doc()), s.line(), s.file(), s.tag())
                    .containsExactlyElementsOf(region);
        }
    }

    @Test
    void theReadmeAndTheDslGuideQuoteTheExample() throws IOException {
        assertThat(snippets())
                .extracting(s -> ROOT.relativize(s.doc()).toString() + " " + s.tag())
                .contains("README.md pipeline", "docs/getting-started.md pipeline");
    }

    static List<Snippet> snippets() throws IOException {
        List<Path> docs = new ArrayList<>();
        docs.add(ROOT.resolve("README.md"));
        try (Stream<Path> files = Files.list(ROOT.resolve("docs"))) {
            files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        List<Snippet> out = new ArrayList<>();
        for (Path doc : docs) {
            List<String> lines = Files.readAllLines(doc);
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = MARKER.matcher(lines.get(i));
                if (!m.find()) {
                    continue;
                }
                int open = i + 1;
                if (open >= lines.size() || !lines.get(open).startsWith("```")) {
                    fail("%s:%d: a snippet marker must be followed by a fenced code block", doc, i + 1);
                }
                List<String> body = new ArrayList<>();
                int j = open + 1;
                while (j < lines.size() && !lines.get(j).startsWith("```")) {
                    body.add(lines.get(j));
                    j++;
                }
                out.add(new Snippet(doc, i + 1, m.group(1), m.group(2), body));
                i = j;
            }
        }
        return out;
    }

    static List<String> region(Path file, String tag) throws IOException {
        List<String> lines = Files.readAllLines(file);
        int start = -1;
        int end = -1;
        for (int i = 0; i < lines.size(); i++) {
            String t = lines.get(i).strip();
            // "##" marks a region in the archetype's templates: a Velocity comment, gone from generated code
            if (t.equals("// tag::" + tag + "[]") || t.equals("## tag::" + tag + "[]")) {
                start = i + 1;
            } else if (t.equals("// end::" + tag + "[]") || t.equals("## end::" + tag + "[]")) {
                end = i;
            }
        }
        if (start < 0 || end < start) {
            fail("%s has no region %s", file, tag);
        }
        List<String> region = lines.subList(start, end);
        int indent = region.stream()
                .filter(l -> !l.isBlank())
                .mapToInt(l -> l.length() - l.stripLeading().length())
                .min()
                .orElse(0);
        return region.stream().map(l -> l.isBlank() ? "" : l.substring(indent)).toList();
    }
}
