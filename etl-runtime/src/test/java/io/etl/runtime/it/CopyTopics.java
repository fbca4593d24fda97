package io.etl.runtime.it;

import java.util.UUID;

/** The names one copy-pipeline test uses: {@code in-<uid>}, {@code out-<uid>} and the group {@code group-<uid>}. */
record CopyTopics(String uid, String input, String output) {

    /** New names, with a random {@code uid}. */
    static CopyTopics random() {
        String uid = UUID.randomUUID().toString().substring(0, 8);
        return new CopyTopics(uid, "in-" + uid, "out-" + uid);
    }

    /** The consumer group {@link CopyYaml} gives the source. */
    String group() {
        return "group-" + uid;
    }
}
