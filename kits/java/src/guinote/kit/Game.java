package guinote.kit;

import guinote.kit.Protocol.Accepted;
import guinote.kit.Protocol.Action;
import guinote.kit.Protocol.ActionType;
import guinote.kit.Protocol.BadSetup;
import guinote.kit.Protocol.Draw;
import guinote.kit.Protocol.EngineInfo;
import guinote.kit.Protocol.Event;
import guinote.kit.Protocol.HandReason;
import guinote.kit.Protocol.NotImplementedYet;
import guinote.kit.Protocol.Outcome;
import guinote.kit.Protocol.Reason;
import guinote.kit.Protocol.Refused;
import guinote.kit.Protocol.UnknownField;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One game of Guiñote: the skeleton engine of the Java kit.
 *
 * <p>It is a small but complete game, so that the untouched kit passes {@code guinote-conformance
 * validate} and {@code smoke}: four players, the 40-card deck, explicit deals, the free phase with
 * an explicit draw, the arrastre, the diez de últimas and the end of the hand. Where it simplifies
 * the rules it says so with {@code TODO(rules)} and the rule IDs (the rulebook in docs/ states each
 * rule); where your own engine goes it says {@code TODO(engine)}. Replace this class's insides with
 * calls into your engine, or grow it into one.
 *
 * <p>Seats are numbered in playing order (seat 1 plays after seat 0); side = seat % 2 (seats 0 and 2
 * are partners). Cards are two characters, rank then suit: "Ao" is the As de oros.
 */
public final class Game {

    // ------------------------------------------------------------------ who the engine is: TODO(engine)

    /**
     * TODO(engine): for each rule flag, the values your engine can play. These are the values of the
     * "lascuarenta" profile (reference_engine/profiles.toml); add the values you support. A scenario
     * that needs a value not listed is not applicable, never failed.
     */
    static final Map<String, List<String>> FLAGS = flags(
            "players", "4",
            "deck", "40",
            "rank_8_9", "below_caballo",
            "deal", "three_three",
            "cante_per_trick", "one",
            "cante_order", "free",
            "tute", "wins_point",
            "seven_exchange_requires", "own_side_won_any_trick",
            "seven_exchange_window", "between_tricks",
            "seven_exchange_min", "higher_than_seven",
            "seven_is_muestra", "swap_with_two",
            "partner_winning_exempts", "yes",
            "overtake_reference", "current_winning_card",
            "renuncio_handling", "block",
            "renuncio_faults", "out_of_turn_and_cante",
            "thirty_malas", "vueltas",
            "thirty_malas_count", "cards_plus_ultimas",
            "thirty_malas_scope", "first_hand_only",
            "thirty_malas_trigger", "any_winner",
            "vueltas_end", "automatic",
            "vueltas_claim_by", "trick_winner",
            "points_per_coto", "3",
            "cotos_to_win", "1");

    /** TODO(engine): your named profiles, each giving a value to every flag. */
    static final Map<String, Map<String, String>> PROFILES = Map.of("lascuarenta", firstValues(FLAGS));

    /**
     * TODO(engine): the optional features you implement (docs/checking/protocol.md, "hello"):
     * positions, observations, reason_codes (or reason_codes_&lt;area&gt;), match, automatic_draw,
     * own_shuffle. The skeleton has none. (batch needs nothing of yours: {@link Batch} answers it with
     * apply, legal and state below, and hello declares it.)
     */
    static final List<String> CAPABILITIES = List.of();

    /** TODO(engine): who your engine is. */
    static final EngineInfo ENGINE = new EngineInfo("my-guinote", "0.0.1", "java", PROFILES, FLAGS, CAPABILITIES);

    // ------------------------------------------------------------------------------ the cards

    static final int PLAYERS = 4;
    static final int SIDES = 2;
    /**
     * Ranks from the strongest to the weakest (the 40-card deck has no 8 or 9). The Sota beats the
     * Caballo in Guiñote (docs/rulebook/deck.rst); TODO(rules): the 8 and 9 of the 48-card deck (DECK-,
     * REGION- rules, flag rank_8_9).
     */
    static final String RANKS = "A3RSC76542";
    static final String SUITS = "oceb";
    /** Points won at the last trick: the diez de últimas. */
    static final int ULTIMAS_POINTS = 10;

    static int cardPoints(String card) {
        switch (card.charAt(0)) {
            case 'A':
                return 11;
            case '3':
                return 10;
            case 'R':
                return 4;
            case 'S':
                return 3;
            case 'C':
                return 2;
            default:
                return 0;
        }
    }

    static boolean isCard(Object card) {
        return card instanceof String && ((String) card).length() == 2
                && RANKS.indexOf(((String) card).charAt(0)) >= 0 && SUITS.indexOf(((String) card).charAt(1)) >= 0;
    }

    static char suit(String card) {
        return card.charAt(1);
    }

    /** Lower is stronger. */
    static int strength(String card) {
        return RANKS.indexOf(card.charAt(0));
    }

    // ------------------------------------------------------------------------------ the setup

    /**
     * What a setup needs that this engine lacks (empty when it can start it): "flag=value" pairs,
     * "positions", "deal=deck order". The loop answers a non-empty list as the error unsupported.
     */
    static List<String> unsupported(Map<String, Object> setup) {
        List<String> missing = new ArrayList<>();
        Map<?, ?> flags = (Map<?, ?>) setup.get("flags");
        for (Map.Entry<?, ?> flag : flags.entrySet()) {
            List<String> values = FLAGS.get(flag.getKey());
            if (values == null || !values.contains(flag.getValue())) {
                missing.add(flag.getKey() + "=" + flag.getValue());
            }
        }
        if (setup.containsKey("position") && !CAPABILITIES.contains(Protocol.Capability.POSITIONS)) {
            missing.add("positions"); // TODO(engine): a mid-hand position (capability positions)
        }
        if (setup.containsKey("deck")) {
            // TODO(rules): deal from a deck order as the deal flag says (the DEAL- rules, PRE-10), to run
            // the scenarios that deal; until then validate, smoke and run give explicit deals instead.
            missing.add("deal=deck order");
        }
        return missing;
    }

    // ------------------------------------------------------------------------------ the game state

    private final int dealer;
    private final int mano;
    private final char trump;
    private final List<List<String>> hands = new ArrayList<>();
    /** Top card first, without the muestra. */
    private final Deque<String> stock = new ArrayDeque<>();
    /** The card turned up under the stock; null once drawn. */
    private String muestra;
    private String phase = "free";
    private Integer turn;
    private int leader;
    private final List<String> trick = new ArrayList<>();
    private final List<Integer> trickSeats = new ArrayList<>();
    private List<String> lastTrick = List.of();
    private Integer lastTrickWinner;
    private boolean drawPending;
    private int tricksPlayed;
    private Integer ultimas;
    private final int[] cardPoints = new int[SIDES];
    private final int[] tricksWon = new int[SIDES];
    private final List<List<String>> wonCards = List.of(new ArrayList<>(), new ArrayList<>());
    private final List<List<String>> lastTrickWon = new ArrayList<>(List.of(List.of(), List.of()));
    private Integer handWinner;
    private String handReason;

    /**
     * A game from an explicit deal: {@code hands} (one list per seat, in seat order), {@code muestra},
     * {@code stock} (top card first, without the muestra) and {@code dealer}. {@link #unsupported} has
     * already refused what this engine cannot start. TODO(engine): build your own game object here.
     */
    Game(Map<String, Object> setup) {
        Object dealerValue = setup.get("dealer");
        if (!(dealerValue instanceof Long) || (Long) dealerValue < 0 || (Long) dealerValue >= PLAYERS) {
            throw new BadSetup("the dealer is a seat from 0 to " + (PLAYERS - 1));
        }
        dealer = (int) (long) (Long) dealerValue;
        // The mano is the seat to the dealer's right, which in playing order is the seat after him (PRE-09).
        mano = (dealer + 1) % PLAYERS;
        turn = mano;
        leader = mano;

        Object handsValue = setup.get("hands");
        if (!(handsValue instanceof List) || ((List<?>) handsValue).size() != PLAYERS) {
            throw new BadSetup("an explicit deal gives " + PLAYERS + " hands, in seat order");
        }
        Set<String> seen = new HashSet<>();
        for (Object hand : (List<?>) handsValue) {
            List<String> cards = Protocol.strings(hand);
            if (cards == null) {
                throw new BadSetup("a hand is a list of cards");
            }
            for (String card : cards) {
                checkCard(card, seen);
            }
            hands.add(new ArrayList<>(cards));
        }
        int handSize = hands.get(0).size();
        if (handSize == 0 || hands.stream().anyMatch(hand -> hand.size() != handSize)) {
            throw new BadSetup("every seat is dealt the same number of cards, at least one");
        }
        Object muestraValue = setup.get("muestra");
        if (!(muestraValue instanceof String)) {
            throw new BadSetup("an explicit deal gives the muestra (a card)");
        }
        muestra = (String) muestraValue;
        checkCard(muestra, seen);
        trump = suit(muestra);
        List<String> stockCards = Protocol.strings(setup.get("stock"));
        if (stockCards == null) {
            throw new BadSetup("an explicit deal gives the stock, a list of cards, top card first");
        }
        for (String card : stockCards) {
            checkCard(card, seen);
        }
        stock.addAll(stockCards);
        if (seen.size() != 40) {
            throw new BadSetup("the deal has " + seen.size() + " cards, not the 40 of the deck");
        }
        if ((stock.size() + 1) % PLAYERS != 0) {
            throw new BadSetup("the stock and the muestra do not share out evenly among the players");
        }
    }

    private static void checkCard(String card, Set<String> seen) {
        if (!isCard(card)) {
            throw new BadSetup(Json.write(card) + " is not a card of the 40-card deck");
        }
        if (!seen.add(card)) {
            throw new BadSetup("card " + card + " is dealt twice");
        }
    }

    // ------------------------------------------------------------------------------ legal actions

    /** Every action the game accepts now, for any seat. TODO(engine): ask your engine. */
    List<Action> legal() {
        List<Action> actions = new ArrayList<>();
        if (turn == null) {
            // TODO(rules): after the hand, the deal of the next hand ({"type": "deal", "deck": []}, PRE-10),
            // or a hand de vueltas (VUELTAS- rules). The skeleton stops here.
            return actions;
        }
        if (drawPending) {
            // TODO(rules): the cantes of the trick's winning side and the exchange of the seven may also
            // be made before the draw (CANTE-, SEVEN- rules).
            actions.add(Action.draw());
            return actions;
        }
        for (String card : hand(turn)) {
            if (playable(turn, card)) {
                actions.add(Action.play(turn, card));
            }
        }
        // TODO(rules): cantes (CANTE-01 and on), the exchange of the seven (SEVEN-01 and on), tutes.
        return actions;
    }

    private List<String> hand(int seat) {
        return hands.get(seat);
    }

    /** Whether the seat whose turn it is may play this card of its hand. */
    private boolean playable(int seat, String card) {
        if (phase.equals("free") || trick.isEmpty()) {
            return true; // TODO(rules): free phase: any card (PLAY- rules)
        }
        // Arrastre: follow the led suit when you can, else any card.
        // TODO(rules): overtake the winning card, trump, overtrump, the partner exemption (ARR-02, ARR-03,
        // ARR-04, ARR-10 and the flags overtake_reference, partner_winning_exempts).
        char led = suit(trick.get(0));
        return suit(card) == led || hand(seat).stream().noneMatch(other -> suit(other) == led);
    }

    // ------------------------------------------------------------------------------ apply

    /**
     * Applies one action as it came on the wire (it may be malformed on purpose: refuse it, never
     * throw). TODO(engine): hand the action to your engine.
     */
    Outcome apply(Object raw) {
        if (!(raw instanceof Map) || !(((Map<?, ?>) raw).get("type") instanceof String)) {
            return Refused.of(Reason.BAD_ACTION, "an action is an object with a string member \"type\"");
        }
        Map<?, ?> action = (Map<?, ?>) raw;
        String type = (String) action.get("type");
        if (!ActionType.ALL.contains(type)) {
            return Refused.of(Reason.BAD_ACTION, "unknown action type " + Json.write(type));
        }
        if (phase.equals("hand_over")) {
            // TODO(rules): the deal of the next hand (PRE-10) and the hands de vueltas (VUELTAS-).
            return Refused.of(Reason.HAND_OVER, "the hand is over");
        }
        switch (type) {
            case ActionType.PLAY:
                return play(action);
            case ActionType.DRAW:
                return draw();
            case ActionType.DEAL:
                return Refused.of(Reason.HAND_IN_PROGRESS, "the hand is not over");
            default:
                // TODO(rules): cante (CANTE-), exchange (SEVEN-), claim (VUELTAS-05), tute (CANTE-21, CANTE-22).
                return Refused.of(Reason.NOT_LEGAL, "this engine does not play " + type + " yet");
        }
    }

    private Outcome play(Map<?, ?> action) {
        Object seatValue = action.get("seat");
        Object card = action.get("card");
        if (!(seatValue instanceof Long)) {
            return Refused.of(Reason.BAD_ACTION, "a play names its seat, an integer");
        }
        long seatNumber = (Long) seatValue;
        if (seatNumber < 0 || seatNumber >= PLAYERS) {
            return Refused.of(Reason.NO_SUCH_SEAT, "there is no seat " + seatNumber);
        }
        if (!isCard(card)) {
            return Refused.of(Reason.BAD_ACTION, "a play names its card, e.g. \"Ao\"");
        }
        int seat = (int) seatNumber;
        String played = (String) card;
        if (drawPending) {
            return Refused.of(Reason.MUST_DRAW_FIRST, "the trick is over: draw first");
        }
        if (seat != turn) {
            return Refused.of(Reason.NOT_YOUR_TURN, "it is seat " + turn + "'s turn, not seat " + seat + "'s");
        }
        if (!hand(seat).contains(played)) {
            return Refused.of(Reason.CARD_NOT_IN_HAND, "seat " + seat + " does not hold " + played);
        }
        if (!playable(seat, played)) {
            // TODO(rules): with reason_codes, the refusal names its rule (here ARR-01).
            return Refused.of(Reason.MUST_FOLLOW_SUIT, "seat " + seat + " must follow " + suit(trick.get(0)));
        }

        List<Event> events = new ArrayList<>();
        hand(seat).remove(played);
        trick.add(played);
        trickSeats.add(seat);
        events.add(Event.cardPlayed(seat, played));
        if (trick.size() < PLAYERS) {
            turn = (seat + 1) % PLAYERS;
            return new Accepted(events);
        }
        endTrick(events);
        return new Accepted(events);
    }

    /** The trick is complete: the winner takes it, then the draw, or the end of the hand. */
    private void endTrick(List<Event> events) {
        int best = 0;
        for (int i = 1; i < trick.size(); i++) {
            if (beats(trick.get(i), trick.get(best))) {
                best = i;
            }
        }
        int winner = trickSeats.get(best);
        int side = winner % SIDES;
        int points = trick.stream().mapToInt(Game::cardPoints).sum();
        cardPoints[side] += points;
        tricksWon[side] += 1;
        wonCards.get(side).addAll(trick);
        lastTrick = List.copyOf(trick);
        lastTrickWon.set(side, lastTrick);
        lastTrickWinner = winner;
        tricksPlayed += 1;
        events.add(Event.trickWon(winner, side, points, trick));
        trick.clear();
        trickSeats.clear();
        leader = winner;
        turn = winner;
        if (hand(winner).isEmpty()) {
            endHand(winner, events);
        } else if (phase.equals("free")) {
            drawPending = true; // the draw is its own action (no capability automatic_draw)
        }
    }

    /** Whether {@code card} beats {@code winning} (the card winning the trick so far). */
    private boolean beats(String card, String winning) {
        if (suit(card) == suit(winning)) {
            return strength(card) < strength(winning);
        }
        return suit(card) == trump; // a trump beats any other suit; another suit never wins
    }

    private Outcome draw() {
        if (!drawPending) {
            return Refused.of(Reason.NOTHING_TO_DRAW, "no draw is pending");
        }
        List<Event> events = new ArrayList<>();
        List<Draw> draws = new ArrayList<>();
        // The trick's winner draws first, then the others in playing order; the last card is the muestra.
        for (int i = 0; i < PLAYERS; i++) {
            int seat = (turn + i) % PLAYERS;
            String card;
            if (!stock.isEmpty()) {
                card = stock.removeFirst();
            } else {
                card = muestra;
                muestra = null;
            }
            hand(seat).add(card);
            draws.add(new Draw(seat, card));
        }
        drawPending = false;
        events.add(Event.cardsDrawn(draws));
        if (muestra == null) {
            phase = "arrastre";
            events.add(Event.arrastreBegins());
        }
        return new Accepted(events);
    }

    private void endHand(int lastWinner, List<Event> events) {
        ultimas = lastWinner % SIDES;
        events.add(Event.ultimas(ultimas, ULTIMAS_POINTS));
        phase = "hand_over";
        turn = null;
        int[] scores = {score(0), score(1)};
        // TODO(rules): a hand in which no side passes 100 goes de vueltas (VUELTAS-01 and on; SCORE- rules,
        // thirty malas, the flags vueltas_end and thirty_malas*). The skeleton gives the point to a side past
        // 100; without one it says "vueltas" and ends there.
        if (scores[0] >= 101 || scores[1] >= 101) {
            handWinner = scores[0] >= 101 ? 0 : 1;
            handReason = HandReason.OVER_100;
        } else {
            handWinner = null;
            handReason = HandReason.VUELTAS;
        }
        events.add(Event.handOver(handWinner, handReason, List.of(scores[0], scores[1]),
                List.of(total(0), total(1)), List.of(cardPoints[0], cardPoints[1])));
    }

    private int score(int side) {
        // TODO(rules): + the cantes (CANTE- rules) once there are any.
        return cardPoints[side] + (ultimas != null && ultimas == side ? ULTIMAS_POINTS : 0);
    }

    private int total(int side) {
        return score(side); // TODO(rules): + what the earlier hands de vueltas carried (VUELTAS-)
    }

    // ------------------------------------------------------------------------------ state

    /**
     * The value of a state field (adapters/vocabulary.py STATE_FIELDS, shapes in
     * adapters/schemas/fields.json). TODO(engine): read it from your engine.
     */
    Object state(String field) {
        switch (field) {
            case "phase":
                return phase;
            case "players":
                return PLAYERS;
            case "turn":
                return turn;
            case "leader":
                return leader;
            case "dealer":
                return dealer;
            case "mano":
                return mano;
            case "trump":
                return String.valueOf(trump);
            case "muestra":
                return muestra;
            case "stock_count":
                return stock.size() + (muestra == null ? 0 : 1); // the muestra counts
            case "trick":
                return List.copyOf(trick);
            case "trick_seats":
                return List.copyOf(trickSeats);
            case "last_trick":
                return lastTrick;
            case "last_trick_winner":
                return lastTrickWinner;
            case "draw_pending":
                return drawPending;
            case "tricks_played":
                return tricksPlayed;
            case "ultimas":
                return ultimas;
            case "cantes":
                return List.of(); // TODO(rules): {seat, side, suit, value, arrastre} per cante (CANTE-)
            case "sung_suits":
                return List.of(); // TODO(rules): CANTE-11
            case "exchange_done":
                return false; // TODO(rules): SEVEN-01
            case "de_vueltas":
                return false; // TODO(rules): VUELTAS-
            case "hand_in_point":
                return 0; // TODO(rules): VUELTAS-
            case "hand_winner":
                return handWinner;
            case "hand_reason":
                return handReason;
            default:
                break;
        }
        // hand_rule (capability reason_codes) and match.* (capability match) are not asked of this
        // engine: it answers unknown_field, which is never compared. TODO(engine) when you declare them.
        int dot = field.indexOf('.');
        if (dot > 0 && !field.startsWith("match.")) {
            String name = field.substring(0, dot);
            String index = field.substring(dot + 1);
            if (index.matches("0|[1-9][0-9]{0,2}")) {
                int n = Integer.parseInt(index);
                Object value = indexed(name, n);
                if (value != null) {
                    return value;
                }
            }
        }
        throw new UnknownField(field);
    }

    /** A field with a seat or a side, or null when there is no such field (or no such seat or side). */
    private Object indexed(String name, int n) {
        boolean seat = n < PLAYERS;
        boolean side = n < SIDES;
        switch (name) {
            case "hand":
                return seat ? List.copyOf(hand(n)) : null;
            case "hand_size":
                return seat ? hand(n).size() : null;
            case "card_points":
                return side ? cardPoints[n] : null;
            case "cante_points":
                return side ? 0 : null; // TODO(rules): CANTE-
            case "score":
                return side ? score(n) : null;
            case "total":
                return side ? total(n) : null;
            case "tricks_won":
                return side ? tricksWon[n] : null;
            case "won_cards":
                return side ? List.copyOf(wonCards.get(n)) : null;
            case "last_trick_won":
                return side ? lastTrickWon.get(n) : null;
            default:
                return null;
        }
    }

    /**
     * The field as {@code seat} sees it, hidden information null. Only asked of an engine that declares
     * the capability observations (the loop refuses observe otherwise). TODO(engine).
     */
    Object observe(int seat, String field) {
        throw new NotImplementedYet("observe " + field);
    }

    // ------------------------------------------------------------------------------ helpers

    private static Map<String, List<String>> flags(String... namesAndValues) {
        Map<String, List<String>> flags = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            flags.put(namesAndValues[i], List.of(namesAndValues[i + 1]));
        }
        return flags;
    }

    private static Map<String, String> firstValues(Map<String, List<String>> flags) {
        Map<String, String> profile = new LinkedHashMap<>();
        flags.forEach((flag, values) -> profile.put(flag, values.get(0)));
        return profile;
    }
}
