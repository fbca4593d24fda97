package io.etl.runtime.it;

import io.etl.runtime.Main;
import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs a command of the runtime's command line in this JVM, as a user would type it, and keeps what it printed. */
final class Tools {

    private Tools() {}

    /** What a command printed and how it ended. */
    record Result(int exit, String out, String err) {}

    static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.execute(new PrintWriter(out), new PrintWriter(err), args);
        return new Result(exit, out.toString(), err.toString());
    }
}
