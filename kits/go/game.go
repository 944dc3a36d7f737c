// The game: this is the file you edit.
//
// Out of the box it is a small but complete skeleton game, so that the untouched kit passes
// `guinote-conformance validate` and `smoke`: four players, explicit deals, the draw after
// each free trick, following suit in the arrastre, the diez de últimas, and a winner for the
// hand. Where it simplifies the rules it says TODO(rules) with the rule IDs (the rules are in
// the suite's features/); where your engine plugs in it says TODO(engine).
//
// What protocol.go calls here: Engine (the hello declarations), NewGame(setup), and the
// methods Legal, Apply, State and Observe of *Game. Everything else is yours to change.
package main

import (
	"fmt"
	"strconv"
	"strings"
)

// lascuarenta gives every flag its value in the "lascuarenta" profile, the only one the
// skeleton plays.
var lascuarenta = map[string]string{
	"players":                 "4",
	"deck":                    "40",
	"rank_8_9":                "below_caballo",
	"deal":                    "three_three",
	"cante_per_trick":         "one",
	"cante_order":             "free",
	"tute":                    "wins_point",
	"seven_exchange_requires": "own_side_won_any_trick",
	"seven_exchange_window":   "between_tricks",
	"seven_exchange_min":      "higher_than_seven",
	"seven_is_muestra":        "swap_with_two",
	"partner_winning_exempts": "yes",
	"overtake_reference":      "current_winning_card",
	"renuncio_handling":       "block",
	"renuncio_faults":         "out_of_turn_and_cante",
	"thirty_malas":            "vueltas",
	"thirty_malas_count":      "cards_plus_ultimas",
	"thirty_malas_scope":      "first_hand_only",
	"thirty_malas_trigger":    "any_winner",
	"vueltas_end":             "automatic",
	"vueltas_claim_by":        "trick_winner",
	"points_per_coto":         "3",
	"cotos_to_win":            "1",
}

// Engine is what the hello answer declares.
//
// TODO(engine): your engine's name, version and homepage; in Flags, for each flag, every
// value your engine can play (a scenario needing another value is skipped, not failed); your
// named Profiles (a value for every flag); and the Capabilities you implement: "positions",
// "observations", "reason_codes" (or "reason_codes_<area>"), "match", "automatic_draw",
// "own_shuffle" (docs/checking/protocol.md, "hello"). protocol.go refuses, before NewGame,
// a setup with a flag value not listed here, and a position without "positions". "batch"
// needs nothing of yours: batch.go answers it with Apply, Legal and State, and declares it.
var Engine = EngineInfo{
	Name:         "my-guinote",
	Version:      "0.0.1",
	Language:     "go",
	Profiles:     map[string]map[string]string{"lascuarenta": lascuarenta},
	Flags:        onlyValues(lascuarenta),
	Capabilities: []string{},
}

func onlyValues(profile map[string]string) map[string][]string {
	flags := map[string][]string{}
	for flag, value := range profile {
		flags[flag] = []string{value}
	}
	return flags
}

// The cards. A card is two characters: its rank, then its suit ("Ao" is the As de oros).
const (
	suits = "oceb"
	// In Guiñote the Sota beats the Caballo (DECK-06).
	strongestFirst = "A3RSC76542" // the 40-card deck: no 8 or 9 (TODO(rules) DECK-01, REGION-)
	handSize       = 6
	diezDeUltimas  = 10
)

// The card points (DECK-07): the Sota 3, the Caballo 2.
var cardPoints = map[byte]int{'A': 11, '3': 10, 'R': 4, 'S': 3, 'C': 2}

func validCard(card string) bool {
	return len(card) == 2 && strings.IndexByte(strongestFirst, card[0]) >= 0 && strings.IndexByte(suits, card[1]) >= 0
}

func suitOf(card string) byte { return card[1] }

// beats says whether card takes the trick from best, with trump the trump suit.
func beats(card, best string, trump byte) bool {
	if suitOf(card) != suitOf(best) {
		return suitOf(card) == trump // another suit wins only as a trump
	}
	return strings.IndexByte(strongestFirst, card[0]) < strings.IndexByte(strongestFirst, best[0])
}

// Game is one game in progress. TODO(engine): wrap your own game object here and answer the
// methods below from it.
type Game struct {
	players int
	dealer  int
	mano    int
	trump   byte
	phase   string

	hands   [][]string // by seat, in the order they were dealt
	stock   []string   // top first, the muestra not included
	muestra string     // "" once drawn

	trick      []string // the current trick, in playing order
	trickSeats []int
	leader     int
	turn       int // -1: nobody (the hand is over)

	drawPending     bool
	lastTrick       []string
	lastTrickWinner int // -1 before the first trick
	tricksPlayed    int

	cardPoints   [2]int
	tricksWon    [2]int
	wonCards     [2][]string
	lastTrickWon [2][]string
	ultimas      int // the side with the diez de últimas, -1 before the last trick

	handWinner int // -1 until the hand is over
	handReason string
}

// NewGame starts a game from a setup. Return *BadSetup for an impossible deal, *Unsupported
// for a setup your engine does not play.
func NewGame(setup Setup) (*Game, error) {
	if setup.HasDeck {
		// TODO(rules) DEAL-, PRE-: deal from a deck order (top card first) as the deal flag
		// says; until then the scenarios that deal from a deck order are not applicable, and
		// validate, smoke and compare deal explicitly.
		return nil, &Unsupported{Message: "this engine takes explicit deals only", Items: []string{"deal=deck order"}}
	}
	if setup.HasPosition {
		// TODO(engine): a mid-hand position (capability "positions").
		return nil, &Unsupported{Message: "this engine does not start from positions", Items: []string{CapPositions}}
	}
	if !setup.HasHands {
		return nil, &BadSetup{"a setup needs a deck order, an explicit deal (hands, muestra, stock) or a position"}
	}
	players, err := strconv.Atoi(setup.Flags["players"])
	if err != nil || players != 4 {
		players = 4 // the only value declared (TODO(rules) TWO-: mano a mano)
	}
	game := &Game{players: players, phase: PhaseFree, lastTrickWinner: -1, ultimas: -1, handWinner: -1}
	if err := game.deal(setup); err != nil {
		return nil, err
	}
	return game, nil
}

// deal checks an explicit deal and takes it: the 40 cards, each once.
func (g *Game) deal(setup Setup) error {
	if !setup.HasDealer || setup.Dealer < 0 || setup.Dealer >= g.players {
		return &BadSetup{fmt.Sprintf("the dealer must be a seat from 0 to %d", g.players-1)}
	}
	if len(setup.Hands) != g.players {
		return &BadSetup{fmt.Sprintf("%d hands for %d players", len(setup.Hands), g.players)}
	}
	seen := map[string]bool{}
	check := func(card string) error {
		if !validCard(card) {
			return &BadSetup{fmt.Sprintf("%q is not a card of the 40-card deck", card)}
		}
		if seen[card] {
			return &BadSetup{fmt.Sprintf("card %s is dealt twice", card)}
		}
		seen[card] = true
		return nil
	}
	for seat, hand := range setup.Hands {
		if len(hand) != handSize {
			return &BadSetup{fmt.Sprintf("hand %d has %d cards, not %d", seat, len(hand), handSize)}
		}
		for _, card := range hand {
			if err := check(card); err != nil {
				return err
			}
		}
	}
	if setup.Muestra == "" {
		return &BadSetup{"an explicit deal needs its muestra"}
	}
	for _, card := range append([]string{setup.Muestra}, setup.Stock...) {
		if err := check(card); err != nil {
			return err
		}
	}
	if len(seen) != 4*len(strongestFirst) {
		return &BadSetup{fmt.Sprintf("the deal has %d cards, not %d", len(seen), 4*len(strongestFirst))}
	}
	g.dealer = setup.Dealer
	g.mano = (g.dealer + 1) % g.players // the seat after the dealer (PRE-09)
	g.leader, g.turn = g.mano, g.mano   // the mano leads the first trick
	g.trump = suitOf(setup.Muestra)
	g.muestra = setup.Muestra
	g.stock = List(setup.Stock)
	for _, hand := range setup.Hands {
		g.hands = append(g.hands, List(hand))
	}
	return nil
}

func (g *Game) stockCount() int {
	if g.muestra == "" {
		return len(g.stock)
	}
	return len(g.stock) + 1
}

// Legal lists every action the game accepts now, for any seat.
func (g *Game) Legal() []Action {
	actions := []Action{}
	switch {
	case g.phase == PhaseHandOver:
		// TODO(rules) VUELTAS-, MATCH-: a hand de vueltas (and, with "match", a new point) is
		// dealt next: list DealAnyOrder() and take the deal action.
		return actions
	case g.drawPending:
		// TODO(rules) CANTE-, SEVEN-: the cantes of the side that won the trick and the
		// exchange of the seven may also be made before the draw.
		return append(actions, Draw())
	}
	for _, card := range g.playable(g.turn) {
		actions = append(actions, Play(g.turn, card))
	}
	return actions
}

// playable lists the cards seat may play now.
func (g *Game) playable(seat int) []string {
	hand := g.hands[seat]
	if g.phase != PhaseArrastre || len(g.trick) == 0 {
		// TODO(rules) PLAY-07: the free phase plays any card.
		return List(hand)
	}
	// TODO(rules) ARR-02, ARR-03, ARR-04, ARR-10: beat the winning card, trump, overtrump,
	// and the partner's exemption (partner_winning_exempts); the skeleton only follows suit.
	led := suitOf(g.trick[0])
	following := []string{}
	for _, card := range hand {
		if suitOf(card) == led {
			following = append(following, card)
		}
	}
	if len(following) > 0 {
		return following
	}
	return List(hand)
}

// Apply plays one action: Accepted(events...) or Refused(code, rule, message). The action
// comes from the harness and may be malformed on purpose: refuse it, never panic on it.
func (g *Game) Apply(action RawAction) *ApplyAnswer {
	kind := action.Type()
	switch kind {
	case ActPlay, ActDraw, ActCante, ActExchange, ActClaim, ActTute, ActDeal:
	default:
		return Refused(CodeBadAction, "", "unknown action type %q", kind)
	}
	if g.phase == PhaseHandOver {
		return Refused(CodeHandOver, "", "the hand is over")
	}
	switch kind {
	case ActPlay:
		return g.play(action)
	case ActDraw:
		if !g.drawPending {
			return Refused(CodeNothingToDraw, "", "no draw is pending")
		}
		return g.draw()
	case ActDeal:
		return Refused(CodeHandInProgress, "", "the hand is not over")
	default:
		// TODO(rules) CANTE-, SEVEN-, VUELTAS-: cantes and tutes, the exchange of the seven,
		// the claim of 101 de vueltas.
		return Refused(CodeNotLegal, "", "this engine does not play %s yet", kind)
	}
}

func (g *Game) play(action RawAction) *ApplyAnswer {
	seat, err := action.Int("seat")
	if err != nil {
		return Refused(CodeBadAction, "", "play: %v", err)
	}
	card, err := action.String("card")
	if err != nil || !validCard(card) {
		return Refused(CodeBadAction, "", "play needs a card of the deck")
	}
	if seat < 0 || seat >= g.players {
		return Refused(CodeNoSuchSeat, "", "there is no seat %d", seat)
	}
	if g.drawPending {
		return Refused(CodeMustDrawFirst, "", "the draw comes before the next trick")
	}
	if seat != g.turn {
		// TODO(rules) RENUNCIO-: a play out of turn may be a renuncio (renuncio_faults).
		return Refused(CodeNotYourTurn, "", "it is seat %d's turn, not seat %d's", g.turn, seat)
	}
	if !containsCard(g.hands[seat], card) {
		return Refused(CodeCardNotInHand, "", "seat %d does not hold %s", seat, card)
	}
	if !containsCard(g.playable(seat), card) {
		return Refused(CodeMustFollowSuit, "", "seat %d must follow suit", seat)
	}
	g.hands[seat] = without(g.hands[seat], card)
	g.trick = append(g.trick, card)
	g.trickSeats = append(g.trickSeats, seat)
	events := []Event{CardPlayed{Type: EvCardPlayed, Seat: seat, Card: card}}
	if len(g.trick) < g.players {
		g.turn = (seat + 1) % g.players // playing order: the next seat
		return Accepted(events...)
	}
	return Accepted(append(events, g.endTrick()...)...)
}

// endTrick gives the complete trick to its winner and, after the last one, ends the hand.
func (g *Game) endTrick() []Event {
	best := 0
	for index := range g.trick {
		if beats(g.trick[index], g.trick[best], g.trump) {
			best = index
		}
	}
	winner := g.trickSeats[best]
	side := winner % 2 // partners sit opposite: seats 0 and 2, 1 and 3
	points := 0
	for _, card := range g.trick {
		points += cardPoints[card[0]]
	}
	g.cardPoints[side] += points
	g.tricksWon[side]++
	g.wonCards[side] = append(g.wonCards[side], g.trick...)
	g.lastTrickWon[side] = List(g.trick)
	g.lastTrick = List(g.trick)
	g.lastTrickWinner = winner
	g.tricksPlayed++
	events := []Event{TrickWon{Type: EvTrickWon, Seat: winner, Side: side, Points: points, Cards: List(g.trick)}}
	g.trick, g.trickSeats = nil, nil
	g.leader, g.turn = winner, winner // the winner leads the next trick
	if len(g.hands[winner]) == 0 {
		return append(events, g.endHand(side)...)
	}
	if g.phase == PhaseFree && g.stockCount() > 0 {
		g.drawPending = true
	}
	return events
}

// draw gives each seat the top card of the stock, the trick's winner first; the last card of
// the final draw is the muestra.
func (g *Game) draw() *ApplyAnswer {
	drawn := CardsDrawn{Type: EvCardsDrawn, Draws: []DrawnCard{}}
	for offset := 0; offset < g.players; offset++ {
		seat := (g.turn + offset) % g.players
		var card string
		if len(g.stock) > 0 {
			card, g.stock = g.stock[0], g.stock[1:]
		} else {
			card, g.muestra = g.muestra, ""
		}
		g.hands[seat] = append(g.hands[seat], card)
		drawn.Draws = append(drawn.Draws, DrawnCard{Seat: seat, Card: card})
	}
	g.drawPending = false
	events := []Event{drawn}
	if g.stockCount() == 0 {
		g.muestra = ""
		g.phase = PhaseArrastre
		events = append(events, ArrastreBegins{Type: EvArrastreBegins})
	}
	return Accepted(events...)
}

// endHand scores the hand after its last trick, taken by side.
func (g *Game) endHand(side int) []Event {
	g.ultimas = side
	scores := []int{g.score(0), g.score(1)}
	// TODO(rules) SCORE-04, SCORE-06, SCORE-07, SCORE-09, SCORE-13, VUELTAS-: the thirty
	// malas, and the hand de vueltas that follows a hand no side won. The skeleton gives the
	// point to a side with 101 or more; without one it says "vueltas" and ends there.
	switch {
	case scores[0] >= 101:
		g.handWinner, g.handReason = 0, ReasonOver100
	case scores[1] >= 101:
		g.handWinner, g.handReason = 1, ReasonOver100
	default:
		g.handWinner, g.handReason = -1, ReasonVueltas
	}
	g.phase = PhaseHandOver
	g.turn = -1
	return []Event{
		UltimasEvent{Type: EvUltimas, Side: side, Points: diezDeUltimas},
		HandOver{
			Type: EvHandOver, Winner: seatPtr(g.handWinner), Reason: g.handReason,
			Scores: scores, Totals: []int{g.total(0), g.total(1)}, CardPoints: []int{g.cardPoints[0], g.cardPoints[1]},
		},
	}
}

// score is the side's score this hand: card points, cantes (none yet) and the últimas.
func (g *Game) score(side int) int {
	score := g.cardPoints[side]
	if g.ultimas == side {
		score += diezDeUltimas
	}
	return score
}

// total is what earlier hands de vueltas carried plus this hand's score (TODO(rules) VUELTAS-).
func (g *Game) total(side int) int { return g.score(side) }

// State answers a state field of the vocabulary (adapters/vocabulary.py STATE_FIELDS; the
// shape of each value is in adapters/schemas/fields.json). A name that is not a field is
// *UnknownField. Lists are never nil: a nil slice would be null on the wire.
func (g *Game) State(field string) (interface{}, error) {
	switch field {
	case "phase":
		return g.phase, nil
	case "players":
		return g.players, nil
	case "turn":
		return seatOrNull(g.turn), nil
	case "leader":
		return g.leader, nil
	case "dealer":
		return g.dealer, nil
	case "mano":
		return g.mano, nil
	case "trump":
		return string(g.trump), nil
	case "muestra":
		if g.muestra == "" {
			return nil, nil
		}
		return g.muestra, nil
	case "stock_count":
		return g.stockCount(), nil
	case "trick":
		return List(g.trick), nil
	case "trick_seats":
		return append([]int{}, g.trickSeats...), nil
	case "last_trick":
		return List(g.lastTrick), nil
	case "last_trick_winner":
		return seatOrNull(g.lastTrickWinner), nil
	case "draw_pending":
		return g.drawPending, nil
	case "tricks_played":
		return g.tricksPlayed, nil
	case "ultimas":
		return seatOrNull(g.ultimas), nil
	case "cantes":
		return []CanteEntry{}, nil // TODO(rules) CANTE-: the cantes sung this hand
	case "sung_suits":
		return []string{}, nil
	case "exchange_done":
		return false, nil // TODO(rules) SEVEN-
	case "de_vueltas":
		return false, nil // TODO(rules) VUELTAS-
	case "hand_in_point":
		return 0, nil
	case "hand_winner":
		return seatOrNull(g.handWinner), nil
	case "hand_reason":
		if g.handReason == "" {
			return nil, nil
		}
		return g.handReason, nil
	}
	// hand_rule (capability reason_codes) and match.* (capability match) are not required of
	// an engine without those capabilities: they fall through to UnknownField, which is fine.
	// TODO(engine): answer them when you declare the capability.
	name, index, ok := strings.Cut(field, ".")
	if !ok {
		return nil, &UnknownField{field}
	}
	number, err := strconv.Atoi(index)
	if err != nil || strconv.Itoa(number) != index || number < 0 {
		return nil, &UnknownField{field}
	}
	if number < g.players {
		switch name {
		case "hand":
			return List(g.hands[number]), nil
		case "hand_size":
			return len(g.hands[number]), nil
		}
	}
	if number < 2 {
		switch name {
		case "card_points":
			return g.cardPoints[number], nil
		case "cante_points":
			return 0, nil
		case "score":
			return g.score(number), nil
		case "total":
			return g.total(number), nil
		case "tricks_won":
			return g.tricksWon[number], nil
		case "won_cards":
			return List(g.wonCards[number]), nil
		case "last_trick_won":
			return List(g.lastTrickWon[number]), nil
		}
	}
	return nil, &UnknownField{field}
}

// Observe answers a field as seat sees it (hidden information is null).
func (g *Game) Observe(seat int, field string) (interface{}, error) {
	// TODO(engine): capability "observations": answer like State, with null for what seat
	// cannot see (the other hands, the stock).
	return nil, &NotOffered{"observe is not offered: this engine does not declare the capability observations"}
}

func seatOrNull(seat int) interface{} {
	if seat < 0 {
		return nil
	}
	return seat
}

func containsCard(cards []string, card string) bool {
	for _, each := range cards {
		if each == card {
			return true
		}
	}
	return false
}

func without(cards []string, card string) []string {
	kept := []string{}
	for _, each := range cards {
		if each != card {
			kept = append(kept, each)
		}
	}
	return kept
}
