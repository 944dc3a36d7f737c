package guinote.kit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The messages of GCP/2, the Guiñote conformance protocol (docs/checking/protocol.md), as Java types.
 *
 * <p>The names here are the protocol's own, taken from the JSON Schemas (adapters/schemas/) and the
 * vocabulary (adapters/vocabulary.py): command names, error codes, reason codes, event types,
 * action types and hand-end reasons. Use the constants rather than string literals, so a typo is a
 * compile error and not a failed scenario. Nothing here knows the rules: that is {@link Game}.
 */
public final class Protocol {
    private Protocol() {}

    /** The protocol version this kit is written for (hello answers it). */
    public static final int VERSION = 2;

    /** Command names ({@code cmd} of a request). {@code batch} is optional (capability batch). */
    public static final class Cmd {
        private Cmd() {}

        public static final String HELLO = "hello";
        public static final String START = "start";
        public static final String LEGAL = "legal";
        public static final String APPLY = "apply";
        public static final String STATE = "state";
        public static final String OBSERVE = "observe";
        public static final String END = "end";
        public static final String STOP = "stop";
        public static final String BATCH = "batch";
    }

    /** Error codes of a failed request (common.json#/$defs/error). A refused move is not an error. */
    public static final class Err {
        private Err() {}

        public static final String UNSUPPORTED_PROTOCOL = "unsupported_protocol";
        public static final String UNSUPPORTED = "unsupported";
        public static final String BAD_SETUP = "bad_setup";
        public static final String UNKNOWN_GAME = "unknown_game";
        public static final String UNKNOWN_FIELD = "unknown_field";
        public static final String BAD_REQUEST = "bad_request";
        public static final String ENGINE_ERROR = "engine_error";
    }

    /** Capability names (hello's engine.capabilities). */
    public static final class Capability {
        private Capability() {}

        public static final String POSITIONS = "positions";
        public static final String OBSERVATIONS = "observations";
        public static final String REASON_CODES = "reason_codes";
        public static final String MATCH = "match";
        public static final String AUTOMATIC_DRAW = "automatic_draw";
        public static final String OWN_SHUFFLE = "own_shuffle";
        public static final String BATCH = "batch";

        /** reason_codes_&lt;area&gt;: the suite's reason codes for the rules of one area only. */
        public static String reasonCodes(String area) {
            return "reason_codes_" + area;
        }
    }

    /** Action types (vocabulary ACTION_TYPES). */
    public static final class ActionType {
        private ActionType() {}

        public static final String PLAY = "play";
        public static final String CANTE = "cante";
        public static final String EXCHANGE = "exchange";
        public static final String DRAW = "draw";
        public static final String CLAIM = "claim";
        public static final String TUTE = "tute";
        public static final String DEAL = "deal";
        public static final List<String> ALL = List.of(PLAY, CANTE, EXCHANGE, DRAW, CLAIM, TUTE, DEAL);
    }

    /** Event types (vocabulary EVENT_TYPES). An engine's own event types are free but never compared. */
    public static final class EventType {
        private EventType() {}

        public static final String CARD_PLAYED = "card_played";
        public static final String TRICK_WON = "trick_won";
        public static final String CARDS_DRAWN = "cards_drawn";
        public static final String ARRASTRE_BEGINS = "arrastre_begins";
        public static final String CANTE = "cante";
        public static final String EXCHANGE = "exchange";
        public static final String ULTIMAS = "ultimas";
        public static final String RENUNCIO = "renuncio";
        public static final String CLAIM = "claim";
        public static final String TUTE = "tute";
        public static final String HAND_OVER = "hand_over";
        public static final String DE_VUELTAS = "de_vueltas";
        public static final String POINT_WON = "point_won";
        public static final String COTO_WON = "coto_won";
        public static final String MATCH_WON = "match_won";
        public static final String HAND_DEALT = "hand_dealt";
    }

    /**
     * Reason codes of a refused action (vocabulary REASON_CODES; the rule each enforces is in the
     * comment). Compared only with the capability reason_codes (or reason_codes_&lt;area&gt;).
     */
    public static final class Reason {
        private Reason() {}

        public static final String NOT_YOUR_TURN = "NOT_YOUR_TURN"; // PLAY-02 / RENUNCIO-04
        public static final String CARD_NOT_IN_HAND = "CARD_NOT_IN_HAND"; // PLAY-02
        public static final String MUST_DRAW_FIRST = "MUST_DRAW_FIRST"; // PLAY-09
        public static final String NOTHING_TO_DRAW = "NOTHING_TO_DRAW"; // PLAY-08
        public static final String MUST_FOLLOW_SUIT = "MUST_FOLLOW_SUIT"; // ARR-01
        public static final String MUST_BEAT = "MUST_BEAT"; // ARR-02 / ARR-10
        public static final String MUST_TRUMP = "MUST_TRUMP"; // ARR-03
        public static final String MUST_OVERTRUMP = "MUST_OVERTRUMP"; // ARR-04
        public static final String CANTE_NO_WON_TRICK = "CANTE_NO_WON_TRICK"; // CANTE-05
        public static final String CANTE_SUIT_ALREADY_SUNG = "CANTE_SUIT_ALREADY_SUNG"; // CANTE-11
        public static final String CANTE_NO_PAIR = "CANTE_NO_PAIR"; // CANTE-19
        public static final String CANTE_ONE_PER_TRICK = "CANTE_ONE_PER_TRICK"; // CANTE-10
        public static final String CANTE_FORTY_FIRST = "CANTE_FORTY_FIRST"; // CANTE-12
        public static final String TUTE_NOT_PLAYED = "TUTE_NOT_PLAYED"; // CANTE-21
        public static final String TUTE_NOT_HELD = "TUTE_NOT_HELD"; // CANTE-22
        public static final String EXCHANGE_NO_MUESTRA = "EXCHANGE_NO_MUESTRA"; // SEVEN-06
        public static final String EXCHANGE_MUESTRA_NOT_ELIGIBLE = "EXCHANGE_MUESTRA_NOT_ELIGIBLE"; // SEVEN-02 / SEVEN-09
        public static final String EXCHANGE_CARD_NOT_HELD = "EXCHANGE_CARD_NOT_HELD"; // SEVEN-01
        public static final String EXCHANGE_NO_WON_TRICK = "EXCHANGE_NO_WON_TRICK"; // SEVEN-03 / -04 / -05
        public static final String EXCHANGE_WINDOW_CLOSED = "EXCHANGE_WINDOW_CLOSED"; // SEVEN-03
        public static final String CLAIM_NOT_ALLOWED = "CLAIM_NOT_ALLOWED"; // VUELTAS-05
        public static final String CLAIM_NOT_NOW = "CLAIM_NOT_NOW"; // VUELTAS-05
        public static final String CLAIM_NOT_TRICK_WINNER = "CLAIM_NOT_TRICK_WINNER"; // VUELTAS-05
        public static final String HAND_OVER = "HAND_OVER"; // SCORE-02
        public static final String HAND_IN_PROGRESS = "HAND_IN_PROGRESS"; // PRE-10
        public static final String MATCH_OVER = "MATCH_OVER"; // MATCH-05
        public static final String NO_SUCH_SEAT = "NO_SUCH_SEAT"; // PRE-01
        /**
         * Not in the vocabulary: the code protocol.md says the reference gives a malformed action (an
         * unknown type, a seat that is not a number). Any code is accepted as a refusal.
         */
        public static final String BAD_ACTION = "BAD_ACTION";
        /**
         * Not in the vocabulary either: the skeleton's code for an action type its simplified rules
         * never allow (cante, exchange, claim, tute). Replace it with the vocabulary's code once the rule
         * is written.
         */
        public static final String NOT_LEGAL = "NOT_LEGAL";
    }

    /** Why a hand ended (vocabulary HAND_END_REASONS: hand_over.reason and the hand_reason field). */
    public static final class HandReason {
        private HandReason() {}

        public static final String OVER_100 = "over_100";
        public static final String VUELTAS = "vueltas";
        public static final String THIRTY_MALAS_LOSE = "thirty_malas_lose";
        public static final String THIRTY_MALAS_CANNOT_WIN = "thirty_malas_cannot_win";
        public static final String THIRTY_MALAS_VUELTAS = "thirty_malas_vueltas";
        public static final String VUELTAS_REACHED_101 = "vueltas_reached_101";
        public static final String CLAIM_CORRECT = "claim_correct";
        public static final String CLAIM_FALSE = "claim_false";
        public static final String TUTE = "tute";
        public static final String RENUNCIO = "renuncio";
    }

    // ------------------------------------------------------------------------------- failures

    /** A failed request: the loop answers {@code {"ok": false, "error": code, "message": ...}}. */
    public static class Failure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public final String code;
        /** The flag=value pairs (or capabilities) missing, for the error {@code unsupported}. */
        public final List<String> unsupported;

        public Failure(String code, String message) {
            this(code, message, List.of());
        }

        public Failure(String code, String message, List<String> unsupported) {
            super(message);
            this.code = code;
            this.unsupported = List.copyOf(unsupported);
        }
    }

    /** Thrown by the Game constructor for an impossible or malformed deal (error bad_setup). */
    public static final class BadSetup extends Failure {
        private static final long serialVersionUID = 1L;

        public BadSetup(String message) {
            super(Err.BAD_SETUP, message);
        }
    }

    /** Thrown by state/observe for a name that is not a field, or a seat or side that does not exist. */
    public static final class UnknownField extends Failure {
        private static final long serialVersionUID = 1L;

        public UnknownField(String field) {
            super(Err.UNKNOWN_FIELD, "no state field " + Json.write(field));
        }
    }

    /** A part of the engine not written yet: answered engine_error "not implemented: ...". */
    public static final class NotImplementedYet extends Failure {
        private static final long serialVersionUID = 1L;

        public NotImplementedYet(String what) {
            super(Err.ENGINE_ERROR, "not implemented: " + what);
        }
    }

    // ------------------------------------------------------------------------------- requests

    /**
     * A request that could be read: an object with an integer id and a command name. The members
     * are read through the accessors, which answer bad_request for a missing or mistyped member.
     */
    public record Request(long id, String cmd, Map<String, Object> members) {
        /** A required string member. */
        public String string(String name) {
            Object value = members.get(name);
            if (!(value instanceof String)) {
                throw new Failure(Err.BAD_REQUEST, cmd + " needs a string member \"" + name + "\"");
            }
            return (String) value;
        }

        /** A required integer member (an integral JSON number: 1 is one, 1.0 is not). */
        public long integer(String name) {
            Object value = members.get(name);
            if (!(value instanceof Long)) {
                throw new Failure(Err.BAD_REQUEST, cmd + " needs an integer member \"" + name + "\"");
            }
            return (Long) value;
        }

        /** A required object member. */
        @SuppressWarnings("unchecked")
        public Map<String, Object> object(String name) {
            Object value = members.get(name);
            if (!(value instanceof Map)) {
                throw new Failure(Err.BAD_REQUEST, cmd + " needs an object member \"" + name + "\"");
            }
            return (Map<String, Object>) value;
        }
    }

    // -------------------------------------------------------------------------------- actions

    /**
     * An action in the vocabulary's JSON form (common.json#/$defs/action). Only the members its type
     * uses are set; the others are null and left out of the JSON.
     */
    public record Action(String type, Integer seat, String card, String suit, String rank, List<String> deck)
            implements Json.Writable {
        public static Action play(int seat, String card) {
            return new Action(ActionType.PLAY, seat, card, null, null, null);
        }

        public static Action draw() {
            return new Action(ActionType.DRAW, null, null, null, null, null);
        }

        public static Action cante(int seat, String suit) {
            return new Action(ActionType.CANTE, seat, null, suit, null, null);
        }

        public static Action exchange(int seat) {
            return new Action(ActionType.EXCHANGE, seat, null, null, null, null);
        }

        public static Action claim(int seat) {
            return new Action(ActionType.CLAIM, seat, null, null, null, null);
        }

        public static Action tute(int seat, String rank) {
            return new Action(ActionType.TUTE, seat, null, null, rank, null);
        }

        /** The deal of the next hand as {@code legal} lists it: an empty deck means any order. */
        public static Action dealAnyOrder() {
            return new Action(ActionType.DEAL, null, null, null, null, List.of());
        }

        @Override
        public Object toJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("type", type);
            putIfSet(json, "seat", seat);
            putIfSet(json, "card", card);
            putIfSet(json, "suit", suit);
            putIfSet(json, "rank", rank);
            putIfSet(json, "deck", deck);
            return json;
        }
    }

    private static void putIfSet(Map<String, Object> json, String name, Object value) {
        if (value != null) {
            json.put(name, value);
        }
    }

    // --------------------------------------------------------------------------------- events

    /** An event of an accepted action: its type and its members (common.json#/$defs/event). */
    public record Event(String type, Map<String, Object> members) implements Json.Writable {
        public static Event cardPlayed(int seat, String card) {
            return of(EventType.CARD_PLAYED, "seat", seat, "card", card);
        }

        /** The cards of the trick, in playing order (compared in any order). */
        public static Event trickWon(int seat, int side, int points, List<String> cards) {
            return of(EventType.TRICK_WON, "seat", seat, "side", side, "points", points, "cards", List.copyOf(cards));
        }

        /** One {@link Draw} per seat, in drawing order. */
        public static Event cardsDrawn(List<Draw> draws) {
            return of(EventType.CARDS_DRAWN, "draws", List.copyOf(draws));
        }

        public static Event arrastreBegins() {
            return of(EventType.ARRASTRE_BEGINS);
        }

        public static Event cante(int seat, int side, String suit, int value) {
            return of(EventType.CANTE, "seat", seat, "side", side, "suit", suit, "value", value);
        }

        public static Event exchange(int seat, String gave, String took) {
            return of(EventType.EXCHANGE, "seat", seat, "gave", gave, "took", took);
        }

        public static Event ultimas(int side, int points) {
            return of(EventType.ULTIMAS, "side", side, "points", points);
        }

        /** winner: the side that won the point, or null (de vueltas). One entry per side in the lists. */
        public static Event handOver(Integer winner, String reason, List<Integer> scores, List<Integer> totals,
                List<Integer> cardPoints) {
            return of(EventType.HAND_OVER, "winner", winner, "reason", reason, "scores", List.copyOf(scores),
                    "totals", List.copyOf(totals), "card_points", List.copyOf(cardPoints));
        }

        public static Event handDealt(int dealer, int mano, String muestra) {
            return of(EventType.HAND_DEALT, "dealer", dealer, "mano", mano, "muestra", muestra);
        }

        /** An event from its type and name, value pairs (a null value is written as JSON null). */
        public static Event of(String type, Object... namesAndValues) {
            Map<String, Object> members = new LinkedHashMap<>();
            for (int i = 0; i < namesAndValues.length; i += 2) {
                members.put((String) namesAndValues[i], namesAndValues[i + 1]);
            }
            return new Event(type, members);
        }

        @Override
        public Object toJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("type", type);
            json.putAll(members);
            return json;
        }
    }

    /** One card drawn: written as the pair {@code [seat, card]}. */
    public record Draw(int seat, String card) implements Json.Writable {
        @Override
        public Object toJson() {
            return List.of(seat, card);
        }
    }

    // -------------------------------------------------------------------------------- answers

    /** What {@code apply} answers: an accepted action with its events, or a refusal. Both are ok: true. */
    public sealed interface Outcome extends Json.Writable permits Accepted, Refused {}

    public record Accepted(List<Event> events) implements Outcome {
        @Override
        public Object toJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("accepted", true);
            json.put("events", events);
            return json;
        }
    }

    /** A refused action: a reason code, the rule ID (may be null without reason_codes) and a message. */
    public record Refused(String code, String rule, String message) implements Outcome {
        public static Refused of(String code, String message) {
            return new Refused(code, null, message);
        }

        @Override
        public Object toJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("accepted", false);
            json.put("code", code);
            putIfSet(json, "rule", rule);
            json.put("message", message);
            return json;
        }
    }

    /** What hello says of the engine (hello.response.json, member engine). */
    public record EngineInfo(String name, String version, String language, Map<String, Map<String, String>> profiles,
            Map<String, List<String>> flags, List<String> capabilities) implements Json.Writable {
        @Override
        public Object toJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("name", name);
            json.put("version", version);
            json.put("language", language);
            json.put("profiles", profiles);
            json.put("flags", flags);
            json.put("capabilities", capabilities);
            return json;
        }
    }

    /** A list of strings out of a JSON value, or null when it is not one. */
    public static List<String> strings(Object value) {
        if (!(value instanceof List)) {
            return null;
        }
        List<String> out = new ArrayList<>();
        for (Object item : (List<?>) value) {
            if (!(item instanceof String)) {
                return null;
            }
            out.add((String) item);
        }
        return out;
    }
}
