package guinote.kit;

import guinote.kit.Protocol.EngineInfo;
import guinote.kit.Protocol.Err;
import guinote.kit.Protocol.Failure;
import guinote.kit.Protocol.Request;
import guinote.kit.Protocol.UnknownField;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The optional command {@code batch} (capability {@code batch}), answered for any {@link Game}: you
 * should not need to edit this file.
 *
 * <p>A harness that replays many actions ({@code guinote-conformance compare}) asks for them in one
 * request instead of one apply, legal and state at a time: over a pipe that is many times faster.
 * hello declares the capability ({@link #declared}) and {@link #answer} answers the request with the
 * game's own {@code apply}, {@code legal} and {@code state} (docs/checking/protocol.md, "batch";
 * adapters/schemas/batch.*.json):
 *
 * <ul>
 *   <li>{@code before}: the legal actions and the fields asked ({@code fields}) before the first action;
 *   <li>one step per action, in order: what apply answers for it (accepted with its events, or refused
 *       with its code, rule and message), then the legal actions and the fields after it
 *       ({@code step_fields[i]} when the request has it, else {@code fields});
 *   <li>a refused action leaves the game as it was, and the next action is still applied;
 *   <li>a field {@code state} does not know ({@link UnknownField}) is left out of every {@code state}
 *       and listed once in {@code unknown_fields};
 *   <li>any other failure (an exception of the game) fails the whole request with
 *       {@code engine_error}: the harness then finds the failing action by asking one at a time.
 * </ul>
 *
 * <p>Every value is written to JSON as soon as the game gives it ({@link Json.Raw}): a later action
 * must not change what an earlier step answered, even when the game hands out a list it goes on
 * changing.
 */
final class Batch {
    private Batch() {}

    /** The engine as hello describes it: its capabilities and {@code batch}, which this loop answers. */
    static EngineInfo declared(EngineInfo engine) {
        if (engine.capabilities().contains(Protocol.Capability.BATCH)) {
            return engine;
        }
        List<String> capabilities = new ArrayList<>(engine.capabilities());
        capabilities.add(Protocol.Capability.BATCH);
        return new EngineInfo(engine.name(), engine.version(), engine.language(), engine.profiles(), engine.flags(),
                List.copyOf(capabilities));
    }

    /** The members of the answer to a {@code batch} request on {@code game} (beside id and ok). */
    static Map<String, Object> answer(Game game, Request request) {
        Object actionsValue = request.members().get("actions");
        if (!(actionsValue instanceof List) || !((List<?>) actionsValue).stream().allMatch(a -> a instanceof Map)) {
            throw new Failure(Err.BAD_REQUEST, "batch needs an \"actions\" list of action objects");
        }
        List<?> actions = (List<?>) actionsValue;
        List<String> fields = Protocol.strings(request.members().get("fields"));
        if (fields == null) {
            throw new Failure(Err.BAD_REQUEST, "batch needs a \"fields\" list of field names");
        }
        List<List<String>> stepFields = null;
        Object stepValue = request.members().get("step_fields");
        if (stepValue != null) {
            stepFields = new ArrayList<>();
            if (stepValue instanceof List) {
                for (Object names : (List<?>) stepValue) {
                    stepFields.add(Protocol.strings(names));
                }
            }
            if (!(stepValue instanceof List) || stepFields.size() != actions.size() || stepFields.contains(null)) {
                throw new Failure(Err.BAD_REQUEST, "batch \"step_fields\" needs one list of field names per action");
            }
        }
        List<String> unknown = new ArrayList<>();
        Map<String, Object> before = snapshot(game, fields, unknown);
        List<Map<String, Object>> steps = new ArrayList<>();
        for (int number = 0; number < actions.size(); number++) {
            Object outcome = game.apply(actions.get(number)).toJson();
            Map<String, Object> step = new LinkedHashMap<>();
            for (Map.Entry<?, ?> member : ((Map<?, ?>) outcome).entrySet()) {
                step.put((String) member.getKey(), new Json.Raw(Json.write(member.getValue())));
            }
            step.putAll(snapshot(game, stepFields == null ? fields : stepFields.get(number), unknown));
            steps.add(step);
        }
        for (String name : unknown) { // a field found unknown late is left out everywhere
            ((Map<?, ?>) before.get("state")).remove(name);
            for (Map<String, Object> step : steps) {
                ((Map<?, ?>) step.get("state")).remove(name);
            }
        }
        Map<String, Object> reply = new LinkedHashMap<>();
        reply.put("before", before);
        reply.put("steps", steps);
        if (!unknown.isEmpty()) {
            reply.put("unknown_fields", unknown);
        }
        return reply;
    }

    /** The legal actions and the fields {@code names} now, written; a field found unknown joins {@code unknown}. */
    private static Map<String, Object> snapshot(Game game, List<String> names, List<String> unknown) {
        Map<String, Object> state = new LinkedHashMap<>();
        for (String name : names) {
            if (unknown.contains(name)) {
                continue;
            }
            try {
                state.put(name, new Json.Raw(Json.write(game.state(name))));
            } catch (UnknownField notAField) {
                unknown.add(name);
            }
        }
        Map<String, Object> snapshot = new LinkedHashMap<>();
        snapshot.put("legal", new Json.Raw(Json.write(game.legal())));
        snapshot.put("state", state);
        return snapshot;
    }
}
