// The message types of GCP/2: requests, answers, actions, events, and the names the protocol
// uses (commands, error codes, reason codes, event types, phases, end-of-hand reasons).
//
// The names come from guinote_conformance.adapters/schemas/*.json and adapters/vocabulary.py in the suite's
// checkout; docs/checking/protocol.md explains them. You should not need to edit this file,
// only use it from game.go.
//
// Go's encoding/json has two traps for this protocol, and the types below avoid both:
//   - a nil slice encodes as null: every list the protocol wants (events, actions, hands,
//     cantes...) must be a non-nil slice, even when empty (use List / []T{});
//   - omitempty drops a 0: seat 0 and side 0 are real values, so optional integers are
//     pointers (use Ptr).
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Protocol is the version of GCP this kit is written for.
const Protocol = 2

// Commands.
const (
	CmdHello   = "hello"
	CmdStart   = "start"
	CmdLegal   = "legal"
	CmdApply   = "apply"
	CmdState   = "state"
	CmdObserve = "observe"
	CmdEnd     = "end"
	CmdStop    = "stop"
	CmdBatch   = "batch" // optional, capability "batch": answered by the loop (batch.go)
)

// Error codes of a failed request (common.json#/$defs/error). A refused move is NOT an error:
// it is an accepted request whose answer says "accepted": false (see Refused).
const (
	ErrUnsupportedProtocol = "unsupported_protocol"
	ErrUnsupported         = "unsupported"
	ErrBadSetup            = "bad_setup"
	ErrUnknownGame         = "unknown_game"
	ErrUnknownField        = "unknown_field"
	ErrBadRequest          = "bad_request"
	ErrEngineError         = "engine_error"
)

// Capabilities an engine may declare in its hello answer.
const (
	CapPositions     = "positions"
	CapObservations  = "observations"
	CapReasonCodes   = "reason_codes" // or "reason_codes_<area>", e.g. "reason_codes_arrastre"
	CapMatch         = "match"
	CapAutomaticDraw = "automatic_draw"
	CapOwnShuffle    = "own_shuffle"
	CapBatch         = "batch" // declared by the loop for every engine of this kit
)

// Action types (vocabulary ACTION_TYPES).
const (
	ActPlay     = "play"
	ActCante    = "cante"
	ActExchange = "exchange"
	ActDraw     = "draw"
	ActClaim    = "claim"
	ActTute     = "tute"
	ActDeal     = "deal"
)

// Event types (vocabulary EVENT_TYPES).
const (
	EvCardPlayed     = "card_played"
	EvTrickWon       = "trick_won"
	EvCardsDrawn     = "cards_drawn"
	EvArrastreBegins = "arrastre_begins"
	EvCante          = "cante"
	EvExchange       = "exchange"
	EvUltimas        = "ultimas"
	EvRenuncio       = "renuncio"
	EvClaim          = "claim"
	EvTute           = "tute"
	EvHandOver       = "hand_over"
	EvDeVueltas      = "de_vueltas"
	EvPointWon       = "point_won"
	EvCotoWon        = "coto_won"
	EvMatchWon       = "match_won"
	EvHandDealt      = "hand_dealt"
)

// Reason codes of a refused action (vocabulary REASON_CODES), and BAD_ACTION, the code the
// reference gives a malformed action (protocol.md, "apply"). NotLegal is for an action the
// skeleton does not offer at all; without the reason_codes capability codes are not compared.
const (
	CodeNotYourTurn                = "NOT_YOUR_TURN"
	CodeCardNotInHand              = "CARD_NOT_IN_HAND"
	CodeMustDrawFirst              = "MUST_DRAW_FIRST"
	CodeNothingToDraw              = "NOTHING_TO_DRAW"
	CodeMustFollowSuit             = "MUST_FOLLOW_SUIT"
	CodeMustBeat                   = "MUST_BEAT"
	CodeMustTrump                  = "MUST_TRUMP"
	CodeMustOvertrump              = "MUST_OVERTRUMP"
	CodeCanteNoWonTrick            = "CANTE_NO_WON_TRICK"
	CodeCanteSuitAlreadySung       = "CANTE_SUIT_ALREADY_SUNG"
	CodeCanteNoPair                = "CANTE_NO_PAIR"
	CodeCanteOnePerTrick           = "CANTE_ONE_PER_TRICK"
	CodeCanteFortyFirst            = "CANTE_FORTY_FIRST"
	CodeTuteNotPlayed              = "TUTE_NOT_PLAYED"
	CodeTuteNotHeld                = "TUTE_NOT_HELD"
	CodeExchangeNoMuestra          = "EXCHANGE_NO_MUESTRA"
	CodeExchangeMuestraNotEligible = "EXCHANGE_MUESTRA_NOT_ELIGIBLE"
	CodeExchangeCardNotHeld        = "EXCHANGE_CARD_NOT_HELD"
	CodeExchangeNoWonTrick         = "EXCHANGE_NO_WON_TRICK"
	CodeExchangeWindowClosed       = "EXCHANGE_WINDOW_CLOSED"
	CodeClaimNotAllowed            = "CLAIM_NOT_ALLOWED"
	CodeClaimNotNow                = "CLAIM_NOT_NOW"
	CodeClaimNotTrickWinner        = "CLAIM_NOT_TRICK_WINNER"
	CodeHandOver                   = "HAND_OVER"
	CodeHandInProgress             = "HAND_IN_PROGRESS"
	CodeMatchOver                  = "MATCH_OVER"
	CodeNoSuchSeat                 = "NO_SUCH_SEAT"
	CodeBadAction                  = "BAD_ACTION"
	CodeNotLegal                   = "NOT_LEGAL"
)

// Phases (fields.json "phase").
const (
	PhaseFree      = "free"
	PhaseArrastre  = "arrastre"
	PhaseHandOver  = "hand_over"
	PhaseMatchOver = "match_over"
)

// Why a hand ended (vocabulary HAND_END_REASONS: hand_over.reason and the hand_reason field).
const (
	ReasonOver100              = "over_100"
	ReasonVueltas              = "vueltas"
	ReasonThirtyMalasLose      = "thirty_malas_lose"
	ReasonThirtyMalasCannotWin = "thirty_malas_cannot_win"
	ReasonThirtyMalasVueltas   = "thirty_malas_vueltas"
	ReasonVueltasReached101    = "vueltas_reached_101"
	ReasonClaimCorrect         = "claim_correct"
	ReasonClaimFalse           = "claim_false"
	ReasonTute                 = "tute"
	ReasonRenuncio             = "renuncio"
)

// ------------------------------------------------------------------------------ hello

// EngineInfo is the "engine" member of the hello answer.
type EngineInfo struct {
	Name         string                       `json:"name"`
	Version      string                       `json:"version"`
	Language     string                       `json:"language"`
	Profiles     map[string]map[string]string `json:"profiles"`
	Flags        map[string][]string          `json:"flags"`
	Capabilities []string                     `json:"capabilities"` // never nil: [] when none
	Homepage     string                       `json:"homepage,omitempty"`
}

// ------------------------------------------------------------------------------ requests

// Request is one request line. Its members are kept raw (json.RawMessage) because nothing in
// it can be trusted: each handler decodes the members it needs with the helpers below, which
// match member names exactly (a struct decode would also take "ID" for "id") and refuse a null
// where a value is needed (json.Unmarshal leaves a Go value untouched on null).
type Request struct {
	ID      json.RawMessage // echoed as received; nil when the request had none
	Members map[string]json.RawMessage
}

// Setup is the "setup" member of start, decoded. Has* say which form was given.
type Setup struct {
	Flags       map[string]string
	Dealer      int
	HasDealer   bool
	HasDeck     bool
	Deck        []string
	HasHands    bool
	Hands       [][]string
	Muestra     string // "" when absent or null
	Stock       []string
	HasPosition bool
	Position    json.RawMessage
	Raw         map[string]json.RawMessage // every member, x- extensions included
}

// RawAction is an action sent by the harness (apply). It may be malformed on purpose:
// read it with Type, Int, String, and refuse what does not fit with code BAD_ACTION.
type RawAction map[string]json.RawMessage

// Type is the action's "type", or "" when it is missing or not a string.
func (a RawAction) Type() string {
	text, err := StringMember(a, "type")
	if err != nil {
		return ""
	}
	return text
}

// Int is the integer member name of the action.
func (a RawAction) Int(name string) (int, error) { return IntMember(a, name) }

// String is the string member name of the action.
func (a RawAction) String(name string) (string, error) { return StringMember(a, name) }

// ------------------------------------------------------------------------------ answers

// Header is the part every answer shares. The loop fills it; handlers leave it zero.
type Header struct {
	ID json.RawMessage `json:"id"` // a nil RawMessage encodes as null
	OK bool            `json:"ok"`
}

func (h *Header) header() *Header { return h }

// Answer is any answer type below (they all embed Header).
type Answer interface{ header() *Header }

// ErrorAnswer is a failed request: {"id", "ok": false, "error", "message"[, "unsupported"]}.
type ErrorAnswer struct {
	Header
	Error       string   `json:"error"`
	Message     string   `json:"message"`
	Unsupported []string `json:"unsupported,omitempty"` // error "unsupported" only, at least one item
}

// HelloAnswer answers hello.
type HelloAnswer struct {
	Header
	Protocol int        `json:"protocol"`
	Engine   EngineInfo `json:"engine"`
}

// StartAnswer answers start.
type StartAnswer struct {
	Header
	Game string `json:"game"`
}

// LegalAnswer answers legal.
type LegalAnswer struct {
	Header
	Actions []Action `json:"actions"` // never nil
}

// ApplyAnswer answers apply: accepted with its events, or refused with a reason code. Build it
// with Accepted or Refused.
type ApplyAnswer struct {
	Header
	Accepted bool    `json:"accepted"`
	Events   []Event `json:"events,omitempty"` // accepted: always present (Accepted makes it non-nil)
	Code     string  `json:"code,omitempty"`   // refused: the reason code
	Rule     string  `json:"rule,omitempty"`   // refused: the rule ID (capability reason_codes)
	Message  string  `json:"message,omitempty"`
}

// MarshalJSON writes "events" for an accepted action even when there is none ("events": []),
// and leaves it out of a refusal, as apply.response.json wants.
func (a ApplyAnswer) MarshalJSON() ([]byte, error) {
	if a.Accepted {
		events := a.Events
		if events == nil {
			events = []Event{}
		}
		return json.Marshal(struct {
			Header
			Accepted bool    `json:"accepted"`
			Events   []Event `json:"events"`
		}{a.Header, true, events})
	}
	type refused ApplyAnswer // without the method: the default encoding
	return json.Marshal(refused(a))
}

// Accepted is the answer to an accepted action, with the events it caused, in order.
func Accepted(events ...Event) *ApplyAnswer {
	return &ApplyAnswer{Accepted: true, Events: append([]Event{}, events...)}
}

// Refused is the answer to a refused action (a normal answer, not an error). rule may be ""
// (a rule ID is required only with the reason_codes capability).
func Refused(code, rule, format string, args ...interface{}) *ApplyAnswer {
	return &ApplyAnswer{Accepted: false, Code: code, Rule: rule, Message: fmt.Sprintf(format, args...)}
}

// ValueAnswer answers state and observe.
type ValueAnswer struct {
	Header
	Value interface{} `json:"value"` // any JSON value; nil is null
}

// EmptyAnswer answers end and stop.
type EmptyAnswer struct{ Header }

// ------------------------------------------------------------------------------ actions

// Action is a legal action in the vocabulary's JSON form (common.json#/$defs/action).
type Action struct {
	Type string    `json:"type"`
	Seat *int      `json:"seat,omitempty"`
	Card string    `json:"card,omitempty"`
	Suit string    `json:"suit,omitempty"`
	Rank string    `json:"rank,omitempty"` // tute: "R" or "S"
	Deck *[]string `json:"deck,omitempty"` // deal: [] in legal ("any order")
}

// Ptr is a pointer to n, for the optional integer members.
func Ptr(n int) *int { return &n }

// Play is {"type": "play", "seat", "card"}.
func Play(seat int, card string) Action { return Action{Type: ActPlay, Seat: Ptr(seat), Card: card} }

// Draw is {"type": "draw"}.
func Draw() Action { return Action{Type: ActDraw} }

// CanteAction is {"type": "cante", "seat", "suit"}.
func CanteAction(seat int, suit string) Action {
	return Action{Type: ActCante, Seat: Ptr(seat), Suit: suit}
}

// ExchangeAction is {"type": "exchange", "seat"}.
func ExchangeAction(seat int) Action { return Action{Type: ActExchange, Seat: Ptr(seat)} }

// DealAnyOrder is {"type": "deal", "deck": []}: the next hand, dealt from any order.
func DealAnyOrder() Action { return Action{Type: ActDeal, Deck: &[]string{}} }

// ------------------------------------------------------------------------------ events

// Event is one event of an accepted action. Each type below has the members its schema
// (common.json#/$defs/event) requires; an engine may add members of its own.
type Event interface{ EventType() string }

// CardPlayed is {"type": "card_played", "seat", "card"}.
type CardPlayed struct {
	Type string `json:"type"`
	Seat int    `json:"seat"`
	Card string `json:"card"`
}

// TrickWon is {"type": "trick_won", "seat", "side", "points", "cards"}.
type TrickWon struct {
	Type   string   `json:"type"`
	Seat   int      `json:"seat"`
	Side   int      `json:"side"`
	Points int      `json:"points"`
	Cards  []string `json:"cards"`
}

// DrawnCard is one [seat, card] pair of cards_drawn.
type DrawnCard struct {
	Seat int
	Card string
}

// MarshalJSON writes the pair as the two-item array the schema wants.
func (d DrawnCard) MarshalJSON() ([]byte, error) { return json.Marshal([]interface{}{d.Seat, d.Card}) }

// CardsDrawn is {"type": "cards_drawn", "draws": [[seat, card], ...]}, in drawing order.
type CardsDrawn struct {
	Type  string      `json:"type"`
	Draws []DrawnCard `json:"draws"`
}

// ArrastreBegins is {"type": "arrastre_begins"}.
type ArrastreBegins struct {
	Type string `json:"type"`
}

// CanteEvent is {"type": "cante", "seat", "side", "suit", "value"}.
type CanteEvent struct {
	Type  string `json:"type"`
	Seat  int    `json:"seat"`
	Side  int    `json:"side"`
	Suit  string `json:"suit"`
	Value int    `json:"value"`
}

// ExchangeEvent is {"type": "exchange", "seat", "gave", "took"}.
type ExchangeEvent struct {
	Type string `json:"type"`
	Seat int    `json:"seat"`
	Gave string `json:"gave"`
	Took string `json:"took"`
}

// UltimasEvent is {"type": "ultimas", "side", "points"}: the diez de últimas.
type UltimasEvent struct {
	Type   string `json:"type"`
	Side   int    `json:"side"`
	Points int    `json:"points"`
}

// HandOver is {"type": "hand_over", "winner", "reason", "scores", "totals", "card_points"}
// ("rule" only with reason_codes). Winner nil is null: the hand goes de vueltas.
type HandOver struct {
	Type       string `json:"type"`
	Winner     *int   `json:"winner"`
	Reason     string `json:"reason"`
	Rule       string `json:"rule,omitempty"`
	Scores     []int  `json:"scores"`
	Totals     []int  `json:"totals"`
	CardPoints []int  `json:"card_points"`
}

// HandDealt is {"type": "hand_dealt", "dealer", "mano", "muestra"}.
type HandDealt struct {
	Type    string `json:"type"`
	Dealer  int    `json:"dealer"`
	Mano    int    `json:"mano"`
	Muestra string `json:"muestra"`
}

func (CardPlayed) EventType() string     { return EvCardPlayed }
func (TrickWon) EventType() string       { return EvTrickWon }
func (CardsDrawn) EventType() string     { return EvCardsDrawn }
func (ArrastreBegins) EventType() string { return EvArrastreBegins }
func (CanteEvent) EventType() string     { return EvCante }
func (ExchangeEvent) EventType() string  { return EvExchange }
func (UltimasEvent) EventType() string   { return EvUltimas }
func (HandOver) EventType() string       { return EvHandOver }
func (HandDealt) EventType() string      { return EvHandDealt }

// ------------------------------------------------------------------------------ state values

// CanteEntry is one item of the "cantes" state field.
type CanteEntry struct {
	Seat     int     `json:"seat"`
	Side     int     `json:"side"`
	Suit     *string `json:"suit"` // null for a tute
	Value    int     `json:"value"`
	Arrastre bool    `json:"arrastre"` // sung in the arrastre
}

// List copies a list for an answer: never nil (a nil slice would encode as null), and never
// shared with the game (a later move must not change an answer already built).
func List(items []string) []string { return append([]string{}, items...) }

// ------------------------------------------------------------------------------ errors

// BadSetup is returned by NewGame for an impossible or malformed setup (error "bad_setup").
type BadSetup struct{ Message string }

func (e *BadSetup) Error() string { return e.Message }

// Unsupported is returned by NewGame for a setup the engine does not play (error
// "unsupported"): Items lists the flag=value pairs or capability names it lacks.
type Unsupported struct {
	Message string
	Items   []string
}

func (e *Unsupported) Error() string { return e.Message }

// UnknownField is returned by State and Observe for a name (or seat) that is not a field.
type UnknownField struct{ Field string }

func (e *UnknownField) Error() string { return fmt.Sprintf("no field %q", e.Field) }

// NotOffered is returned for a command behind a capability the engine does not declare
// (observe without "observations"): the loop answers it with engine_error.
type NotOffered struct{ Message string }

func (e *NotOffered) Error() string { return e.Message }

// ------------------------------------------------------------------------------ decoding helpers

var errMissing = errors.New("missing")

func isNull(raw json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }

// Member decodes members[name] into out: an error when it is missing, null, or of another type.
func Member(members map[string]json.RawMessage, name string, out interface{}) error {
	raw, ok := members[name]
	if !ok {
		return fmt.Errorf("%q is %w", name, errMissing)
	}
	if isNull(raw) {
		return fmt.Errorf("%q is null", name)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("%q: %v", name, err)
	}
	return nil
}

// IntMember decodes an integer member (1.0, "1", true and null are refused).
func IntMember(members map[string]json.RawMessage, name string) (int, error) {
	var n int
	err := Member(members, name, &n)
	return n, err
}

// StringMember decodes a string member.
func StringMember(members map[string]json.RawMessage, name string) (string, error) {
	var text string
	err := Member(members, name, &text)
	return text, err
}

// ObjectMember decodes an object member into its raw members (exact names).
func ObjectMember(members map[string]json.RawMessage, name string) (map[string]json.RawMessage, error) {
	var object map[string]json.RawMessage
	err := Member(members, name, &object)
	return object, err
}

// StringsMember decodes a list of strings (a null item is refused).
func StringsMember(members map[string]json.RawMessage, name string) ([]string, error) {
	var items []*string
	if err := Member(members, name, &items); err != nil {
		return nil, err
	}
	out := make([]string, 0, len(items))
	for index, item := range items {
		if item == nil {
			return nil, fmt.Errorf("%q: item %d is null", name, index)
		}
		out = append(out, *item)
	}
	return out, nil
}

// seatPtr is a seat or side for a member that may be null: -1 (none) is nil.
func seatPtr(n int) *int {
	if n < 0 {
		return nil
	}
	return &n
}
