package io.etl.core.internal.runtime;

import static io.etl.core.PipelineState.BACKPRESSURED;
import static io.etl.core.PipelineState.DRAINING;
import static io.etl.core.PipelineState.FAILED;
import static io.etl.core.PipelineState.RUNNING;
import static io.etl.core.PipelineState.STARTING;
import static io.etl.core.PipelineState.STOPPED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etl.core.PipelineState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The moves a pipeline's state may make, and what happens to every other. */
class PipelineStateMachineTest {

    /** The legal moves, written out: the table the state machine must hold. */
    private static final Set<List<PipelineState>> LEGAL = Set.of(
            List.of(STARTING, RUNNING),
            List.of(STARTING, BACKPRESSURED),
            List.of(STARTING, DRAINING),
            List.of(STARTING, FAILED),
            List.of(RUNNING, BACKPRESSURED),
            List.of(RUNNING, DRAINING),
            List.of(BACKPRESSURED, RUNNING),
            List.of(BACKPRESSURED, DRAINING),
            List.of(DRAINING, STOPPED),
            List.of(DRAINING, FAILED));

    /** A way to reach each state from {@code STARTING} by legal moves. */
    private static final Map<PipelineState, List<PipelineState>> PATH = Map.of(
            STARTING, List.of(),
            RUNNING, List.of(RUNNING),
            BACKPRESSURED, List.of(RUNNING, BACKPRESSURED),
            DRAINING, List.of(DRAINING),
            STOPPED, List.of(DRAINING, STOPPED),
            FAILED, List.of(DRAINING, FAILED));

    static Stream<Arguments> everyMoveToAnotherState() {
        return Arrays.stream(PipelineState.values())
                .flatMap(from -> Arrays.stream(PipelineState.values())
                        .filter(to -> to != from)
                        .map(to -> Arguments.of(from, to)));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("everyMoveToAnotherState")
    void isLegalHoldsExactlyTheTable(PipelineState from, PipelineState to) {
        assertThat(PipelineStateMachine.isLegal(from, to)).isEqualTo(LEGAL.contains(List.of(from, to)));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("everyMoveToAnotherState")
    void aLegalMoveIsMadeAndToldAndAnyOtherThrowsNamingBothStates(PipelineState from, PipelineState to) {
        PipelineStateMachine machine = machineIn(from);
        List<String> told = listen(machine);

        if (LEGAL.contains(List.of(from, to))) {
            machine.transition(to);

            assertThat(machine.current()).isEqualTo(to);
            assertThat(told).containsExactly(from + "->" + to);
        } else {
            assertThatThrownBy(() -> machine.transition(to))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("pipeline 'p': illegal state transition from " + from + " to " + to);
            assertThat(machine.current()).isEqualTo(from);
            assertThat(told).isEmpty();
        }
    }

    @Test
    void aMoveToTheCurrentStateChangesNothingAndTellsNoOne() {
        for (PipelineState state : PipelineState.values()) {
            PipelineStateMachine machine = machineIn(state);
            List<String> told = listen(machine);

            machine.transition(state);

            assertThat(machine.current()).isEqualTo(state);
            assertThat(told).isEmpty();
        }
    }

    @Test
    void flowingMovesBetweenRunningAndBackpressured() {
        PipelineStateMachine machine = machineIn(STARTING);
        List<String> told = listen(machine);

        machine.flowing(false);
        machine.flowing(true);
        machine.flowing(true);
        machine.flowing(false);

        assertThat(told).containsExactly("STARTING->RUNNING", "RUNNING->BACKPRESSURED", "BACKPRESSURED->RUNNING");
    }

    @Test
    void flowingGivesWayToAStopThatAlreadyBegan() {
        for (PipelineState stopping : List.of(DRAINING, STOPPED, FAILED)) {
            PipelineStateMachine machine = machineIn(stopping);
            List<String> told = listen(machine);

            machine.flowing(false);
            machine.flowing(true);

            assertThat(machine.current()).isEqualTo(stopping);
            assertThat(told).isEmpty();
        }
    }

    @Test
    void drainMovesOnlyAPipelineThatNeitherDrainsNorEnded() {
        for (PipelineState state : PipelineState.values()) {
            PipelineStateMachine machine = machineIn(state);

            boolean moved = machine.drain();

            boolean mayDrain = state == STARTING || state == RUNNING || state == BACKPRESSURED;
            assertThat(moved).as("drain from %s", state).isEqualTo(mayDrain);
            assertThat(machine.current()).isEqualTo(mayDrain ? DRAINING : state);
        }
    }

    @Test
    void aFailingListenerDoesNotStopTheOthersNorTheMove() {
        PipelineStateMachine machine = machineIn(STARTING);
        machine.addListener((from, to) -> {
            throw new IllegalArgumentException("listener broke");
        });
        List<String> told = listen(machine);

        machine.transition(RUNNING);

        assertThat(machine.current()).isEqualTo(RUNNING);
        assertThat(told).containsExactly("STARTING->RUNNING");
    }

    private static PipelineStateMachine machineIn(PipelineState state) {
        PipelineStateMachine machine = new PipelineStateMachine("p");
        PATH.get(state).forEach(machine::transition);
        assertThat(machine.current()).isEqualTo(state);
        return machine;
    }

    private static List<String> listen(PipelineStateMachine machine) {
        List<String> told = new ArrayList<>();
        machine.addListener((from, to) -> told.add(from + "->" + to));
        return told;
    }
}
