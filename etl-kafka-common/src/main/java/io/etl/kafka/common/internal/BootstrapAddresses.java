package io.etl.kafka.common.internal;

import io.etl.core.error.ConfigException;
import io.etl.core.error.ConfigProblem;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The entries of a {@code brokers} list ({@code host:port[,host:port...]}, an IPv6 host in brackets), checked
 * before any Kafka client is made from them: offline, that each entry is a host and a port from 1 to 65535; at
 * start-up, that the hosts resolve. A Kafka client told of an entry it cannot use fails with a generic "failed to
 * create a client" and the cause two levels down; these checks name the entry, the host and the cause at the
 * section's {@code brokers} key.
 */
public final class BootstrapAddresses {

    private static final Logger LOG = LoggerFactory.getLogger(BootstrapAddresses.class);
    private static final int MAX_PORT = 65_535;

    private BootstrapAddresses() {}

    /**
     * What is wrong with the form of {@code brokers}, checked offline (no name is looked up).
     *
     * @param path the key path of the list, e.g. {@code source.in.kafka.brokers}
     */
    public static List<ConfigProblem> problems(String brokers, String path) {
        List<ConfigProblem> problems = new ArrayList<>();
        if (brokers == null || brokers.isBlank()) {
            return problems; // "must not be blank" is the binder's
        }
        for (String raw : brokers.split(",", -1)) {
            String entry = raw.trim();
            String problem = formProblem(entry);
            if (problem != null) {
                problems.add(new ConfigProblem(path, problem));
            }
        }
        return problems;
    }

    /**
     * Checks that at least one host of {@code brokers} resolves, as a Kafka client needs to start; a host that does
     * not while another does is logged at WARN (the client uses the others).
     *
     * @param path the key path of the list, e.g. {@code source.in.kafka.brokers}
     * @throws ConfigException at {@code path}, one problem per entry, when no entry can be used: each names the
     *     entry, the host and why (not a {@code host:port}, a port out of range, a host that does not resolve)
     */
    public static void requireResolvable(String brokers, String path) {
        List<ConfigProblem> unusable = new ArrayList<>();
        boolean usable = false;
        for (String raw : brokers.split(",", -1)) {
            String text = raw.trim();
            String problem = formProblem(text);
            if (problem != null) {
                unusable.add(new ConfigProblem(path, problem));
                continue;
            }
            String host = hostOf(text.substring(0, text.lastIndexOf(':')));
            try {
                InetAddress.getAllByName(host);
                usable = true;
            } catch (UnknownHostException | SecurityException e) {
                unusable.add(new ConfigProblem(
                        path, "cannot resolve host '" + host + "' of '" + text + "': " + KafkaErrors.describe(e)));
            }
        }
        if (!usable) {
            throw new ConfigException(unusable);
        }
        for (ConfigProblem p : unusable) {
            LOG.warn("{} (the other brokers are used)", p);
        }
    }

    /** Why {@code entry} is not a {@code host:port}, or null when it is one. */
    private static String formProblem(String entry) {
        if (entry.isEmpty()) {
            return "has an empty entry; expected host:port[,host:port...]";
        }
        int colon = entry.lastIndexOf(':');
        String host = colon < 0 ? entry : hostOf(entry.substring(0, colon));
        if (colon < 0 || host.isEmpty() || (host.contains(":") && !entry.startsWith("["))) {
            return "'" + entry + "' is not host:port (an IPv6 address goes in brackets: [::1]:9092)";
        }
        String port = entry.substring(colon + 1);
        int value;
        try {
            value = Integer.parseInt(port);
        } catch (NumberFormatException e) {
            return "invalid port '" + port + "' in '" + entry + "': expected a number from 1 to " + MAX_PORT;
        }
        if (value < 1 || value > MAX_PORT) {
            return "invalid port " + value + " in '" + entry + "': expected 1 to " + MAX_PORT;
        }
        return null;
    }

    private static String hostOf(String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }
}
