package io.etl.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One exit-code table for {@code validate}, {@code check} and {@code run}, the same in both guides. */
class ExitCodesDocsTest {

    private static final Path DOCS = Path.of("..", "docs");

    /** The table whose header starts {@code | code | means |}, row by row. */
    private static List<String> table(String doc) throws IOException {
        List<String> lines = Files.readAllLines(DOCS.resolve(doc));
        int start = lines.indexOf(lines.stream()
                .filter(l -> l.startsWith("| code | means | `validate` | `check` | `run` |"))
                .findFirst()
                .orElseThrow(() -> new AssertionError(doc + " has no exit-code table")));
        return lines.subList(start, lines.size()).stream()
                .takeWhile(l -> l.startsWith("|"))
                .toList();
    }

    @Test
    void theRuntimeGuideAndTheOwnPipelineGuideShowTheSameTable() throws IOException {
        assertThat(table("your-own-pipeline.md")).isEqualTo(table("runtime.md"));
    }

    @Test
    void everyExitCodeHasARowAndEveryRowAnExitCode() throws Exception {
        List<Integer> codes = Arrays.stream(ExitCodes.class.getDeclaredFields())
                .filter(f -> Modifier.isStatic(f.getModifiers()) && f.getType() == int.class)
                .map(ExitCodesDocsTest::value)
                .sorted()
                .toList();
        List<Integer> rows = table("runtime.md").stream()
                .skip(2)
                .map(l -> Integer.parseInt(l.split("\\|")[1].strip()))
                .toList();

        assertThat(rows).isEqualTo(codes);
    }

    private static int value(Field f) {
        try {
            return f.getInt(null);
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }
}
