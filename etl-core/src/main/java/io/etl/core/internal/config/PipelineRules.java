package io.etl.core.internal.config;

import io.etl.core.config.DeliveryGuarantee;
import io.etl.core.config.Durations;
import io.etl.core.config.PipelineConfig;
import io.etl.core.config.PipelineSection;
import io.etl.core.error.ConfigProblem;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The rules that tie the sections of a {@link PipelineConfig} together, which no single record's constraints can
 * say: the drain fits inside the stop budget, in exactly-once mode a transaction outlives a checkpoint
 * interval, and several loops are for at-least-once delivery only. The loader applies them to a file it bound, {@link PipelineConfig}'s constructor to one built in code.
 */
public final class PipelineRules {

    static final String SHUTDOWN_TIMEOUT = "pipeline.shutdown_timeout";
    static final String DRAIN_TIMEOUT = "checkpoint.drain_timeout";
    static final String TRANSACTION_TIMEOUT = "pipeline.transaction_timeout";
    static final String CHECKPOINT_INTERVAL = "checkpoint.interval";
    static final String THREADS = "pipeline.threads";
    static final String DELIVERY = "pipeline.delivery";

    private PipelineRules() {}

    /** Every rule {@code config} breaks, each at the key to change. */
    public static List<ConfigProblem> problems(PipelineConfig config) {
        return problems(config, key -> false);
    }

    /**
     * Every rule {@code config} breaks, each at the key to change, leaving out a rule about a key that
     * {@code alreadyWrong} says has a problem of its own (its bound value is a default, not what was written).
     */
    static List<ConfigProblem> problems(PipelineConfig config, Predicate<String> alreadyWrong) {
        List<ConfigProblem> problems = new ArrayList<>(3);
        if (!alreadyWrong.test(SHUTDOWN_TIMEOUT) && !alreadyWrong.test(DRAIN_TIMEOUT)) {
            stopBudget(config, problems);
        }
        if (!alreadyWrong.test(TRANSACTION_TIMEOUT) && !alreadyWrong.test(CHECKPOINT_INTERVAL)) {
            transactionTimeout(config, problems);
        }
        if (!alreadyWrong.test(THREADS) && !alreadyWrong.test(DELIVERY)) {
            threads(config, problems);
        }
        return problems;
    }

    /**
     * A transactional producer runs one transaction at a time, and a transaction commits the offsets of one
     * consumer: loops that each need their own producer and transactional id are not supported, so exactly-once
     * runs one loop per instance and scales out by instances.
     */
    private static void threads(PipelineConfig config, List<ConfigProblem> problems) {
        PipelineSection p = config.pipeline();
        if (p.threads() > 1 && p.delivery() == DeliveryGuarantee.EXACTLY_ONCE) {
            problems.add(new ConfigProblem(
                    THREADS,
                    "is " + p.threads() + " but " + DELIVERY + " is exactly_once, which runs one loop per instance"
                            + " (its transactional producer cannot be shared by the loops' transactions): set "
                            + THREADS + " to 1 and run more instances"));
        }
    }

    /** The drain is part of the stop: {@code checkpoint.drain_timeout} must leave room inside the budget. */
    private static void stopBudget(PipelineConfig config, List<ConfigProblem> problems) {
        Duration budget = config.pipeline().shutdownTimeout();
        Duration drain = config.checkpoint().drainTimeout();
        if (budget.compareTo(drain) <= 0) {
            problems.add(new ConfigProblem(
                    SHUTDOWN_TIMEOUT,
                    "is " + Durations.format(budget) + " but must be greater than "
                            + DRAIN_TIMEOUT + " (" + Durations.format(drain) + "), which has to fit inside it with time"
                            + " left to commit and close the clients"));
        }
    }

    /**
     * In exactly-once mode a transaction stays open for a checkpoint interval and then for the wait on its
     * last acknowledgements: the brokers' transaction timeout must be longer, or they abort every transaction.
     */
    private static void transactionTimeout(PipelineConfig config, List<ConfigProblem> problems) {
        PipelineSection p = config.pipeline();
        if (p.delivery() != DeliveryGuarantee.EXACTLY_ONCE) {
            return;
        }
        Duration timeout = p.transactionTimeout();
        Duration interval = config.checkpoint().interval();
        if (timeout.compareTo(interval.multipliedBy(2)) < 0) {
            problems.add(
                    new ConfigProblem(
                            TRANSACTION_TIMEOUT,
                            "is " + Durations.format(timeout) + " but must be at least twice "
                                    + CHECKPOINT_INTERVAL + " (" + Durations.format(interval)
                                    + "): a transaction stays open for an interval and"
                                    + " then while its last outputs are acknowledged, and the brokers abort it once the timeout passes"));
        }
    }
}
