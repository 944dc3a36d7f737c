// The GCP/2 protocol loop: you should not need to edit this file.
//
// The harness starts this program ONCE and writes one JSON request per line on its stdin; the
// program writes exactly one JSON answer per line on its stdout, echoing the request's "id",
// and flushes after each one. stdout carries nothing else: log to stderr (the log package
// writes there). The program exits with status 0 after answering "stop", or when stdin ends.
// The reference is docs/checking/protocol.md in the suite's checkout; the JSON Schemas are in
// adapters/schemas/.
//
// What this file does, so that game.go only plays the game:
//   - reads lines of any length (bufio.Reader: a bufio.Scanner would stop at 64 KiB);
//   - answers "bad_request" with "id": null to a line that is not a JSON object, has no
//     integer id, or names no known command; it never crashes on what it reads;
//   - echoes the id exactly as received (an integer beyond 2^53 keeps its digits);
//   - turns a panic in the game into "engine_error" for that request and keeps serving;
//   - checks the setup's flags and capabilities against the declarations of game.go
//     (Engine) before NewGame sees it, and keeps the games by id;
//   - answers the optional command "batch" (and declares the capability "batch" in hello) on
//     top of Game's Apply, Legal and State: see batch.go. Your game gains it with no code.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"regexp"
	"runtime/debug"
	"sort"
	"strings"
)

// An id is a non-negative integer written as one (1.0 and 1e3 are not ids).
var idPattern = regexp.MustCompile(`^(0|[1-9][0-9]*)$`)

// failure is a failed request: the loop answers it as an ErrorAnswer.
type failure struct {
	code        string
	message     string
	unsupported []string
}

func (f *failure) Error() string { return f.message }

func fail(code, format string, args ...interface{}) *failure {
	return &failure{code: code, message: fmt.Sprintf(format, args...)}
}

// server holds the games in progress, by the ids it gave them.
type server struct {
	games   map[string]*Game
	started int
}

func main() {
	log.SetFlags(0)
	log.SetPrefix(Engine.Name + ": ")
	in := bufio.NewReaderSize(os.Stdin, 1<<16)
	out := bufio.NewWriter(os.Stdout)
	srv := &server{games: map[string]*Game{}}
	for {
		line, err := in.ReadBytes('\n') // the whole line, however long
		if len(bytes.TrimSpace(line)) > 0 {
			answer, stop := srv.answer(line)
			out.Write(encode(answer))
			if flushErr := out.Flush(); flushErr != nil {
				log.Printf("cannot write the answer: %v", flushErr)
				os.Exit(1)
			}
			if stop {
				os.Exit(0)
			}
		}
		if err != nil {
			if err != io.EOF {
				log.Printf("cannot read stdin: %v", err)
			}
			os.Exit(0) // the harness is gone: never outlive it
		}
	}
}

// encode writes one answer line. An answer that cannot be encoded (a value of the game that
// is not JSON, a NaN...) becomes an engine_error, so that the line is always JSON.
func encode(answer Answer) []byte {
	var buffer bytes.Buffer
	encoder := json.NewEncoder(&buffer)
	encoder.SetEscapeHTML(false) // "<" stays "<": escaping is for HTML, not for the protocol
	if err := encoder.Encode(answer); err != nil {
		log.Printf("cannot encode the answer: %v", err)
		buffer.Reset()
		broken := &ErrorAnswer{Error: ErrEngineError, Message: "the answer could not be encoded: " + err.Error()}
		broken.ID, broken.OK = answer.header().ID, false
		if err := encoder.Encode(broken); err != nil { // the id itself is broken
			broken.ID = nil
			buffer.Reset()
			_ = encoder.Encode(broken)
		}
	}
	return buffer.Bytes() // Encode ends it with "\n"
}

// answer answers one request line; stop is true after a successful "stop".
func (s *server) answer(line []byte) (answer Answer, stop bool) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(line, &members); err != nil || members == nil {
		message := "not a JSON object"
		if !json.Valid(line) {
			message = "not JSON"
			if err != nil {
				message += ": " + err.Error()
			}
		}
		return &ErrorAnswer{Error: ErrBadRequest, Message: message}, false
	}
	raw, hasID := members["id"]
	id := bytes.TrimSpace(raw)
	if !hasID || !idPattern.Match(id) {
		return &ErrorAnswer{Error: ErrBadRequest, Message: "a request needs an integer id"}, false
	}
	request := Request{ID: json.RawMessage(id), Members: members}
	answer, stop = s.handleSafely(request)
	head := answer.header()
	head.ID = request.ID
	if _, failed := answer.(*ErrorAnswer); !failed {
		head.OK = true
	}
	return answer, stop
}

// handleSafely runs one command; a panic in the game is an engine_error, not a crash.
func (s *server) handleSafely(request Request) (answer Answer, stop bool) {
	defer func() {
		if caught := recover(); caught != nil {
			log.Printf("panic: %v\n%s", caught, debug.Stack())
			answer, stop = &ErrorAnswer{Error: ErrEngineError, Message: fmt.Sprintf("panic: %v", caught)}, false
		}
	}()
	answer, stop, err := s.handle(request)
	if err != nil {
		var failed *failure
		if !errors.As(err, &failed) {
			failed = fail(ErrEngineError, "%v", err)
		}
		return &ErrorAnswer{Error: failed.code, Message: failed.message, Unsupported: failed.unsupported}, false
	}
	if answer == nil || isNilAnswer(answer) {
		return &ErrorAnswer{Error: ErrEngineError, Message: "the game gave no answer"}, false
	}
	return answer, stop
}

func isNilAnswer(answer Answer) bool {
	applied, ok := answer.(*ApplyAnswer)
	return ok && applied == nil
}

func (s *server) handle(request Request) (Answer, bool, error) {
	cmd, err := StringMember(request.Members, "cmd")
	if err != nil {
		return nil, false, fail(ErrBadRequest, "a request needs a command: %v", err)
	}
	switch cmd {
	case CmdHello:
		return s.hello(request)
	case CmdStart:
		answer, err := s.start(request)
		return answer, false, err
	case CmdLegal:
		game, err := s.game(request)
		if err != nil {
			return nil, false, err
		}
		actions := game.Legal()
		if actions == nil {
			actions = []Action{}
		}
		return &LegalAnswer{Actions: actions}, false, nil
	case CmdApply:
		game, err := s.game(request)
		if err != nil {
			return nil, false, err
		}
		raw, present := request.Members["action"]
		if !present {
			return nil, false, fail(ErrBadRequest, "apply needs an action")
		}
		var action RawAction
		if err := json.Unmarshal(raw, &action); err != nil || action == nil {
			return Refused(CodeBadAction, "", "an action is a JSON object with a type"), false, nil
		}
		return game.Apply(action), false, nil
	case CmdState, CmdObserve:
		return s.value(request, cmd)
	case CmdEnd:
		name, err := s.gameName(request)
		if err != nil {
			return nil, false, err
		}
		delete(s.games, name)
		return &EmptyAnswer{}, false, nil
	case CmdStop:
		return &EmptyAnswer{}, true, nil
	case CmdBatch:
		game, err := s.game(request)
		if err != nil {
			return nil, false, err
		}
		answer, err := batch(game, request)
		return answer, false, err
	default:
		return nil, false, fail(ErrBadRequest, "unknown command %q", cmd)
	}
}

func (s *server) hello(request Request) (Answer, bool, error) {
	version, err := IntMember(request.Members, "protocol")
	if err != nil {
		return nil, false, fail(ErrBadRequest, "hello needs a protocol version: %v", err)
	}
	if version < Protocol {
		return nil, false, fail(ErrUnsupportedProtocol, "this engine speaks protocol %d, not %d", Protocol, version)
	}
	engine := Engine
	engine.Capabilities = List(Engine.Capabilities)
	if !contains(engine.Capabilities, CapBatch) {
		engine.Capabilities = append(engine.Capabilities, CapBatch) // answered by this loop (batch.go)
	}
	return &HelloAnswer{Protocol: Protocol, Engine: engine}, false, nil
}

func (s *server) start(request Request) (Answer, error) {
	raw, err := ObjectMember(request.Members, "setup")
	if err != nil {
		return nil, fail(ErrBadRequest, "start needs a setup: %v", err)
	}
	setup, err := decodeSetup(raw)
	if err != nil {
		return nil, fail(ErrBadSetup, "%v", err)
	}
	if missing := undeclared(setup); len(missing) > 0 {
		return nil, &failure{ErrUnsupported, "this engine does not play " + strings.Join(missing, ", "), missing}
	}
	game, err := NewGame(setup)
	var badSetup *BadSetup
	var unsupported *Unsupported
	switch {
	case errors.As(err, &badSetup):
		return nil, fail(ErrBadSetup, "%s", badSetup.Message)
	case errors.As(err, &unsupported):
		items := unsupported.Items
		if len(items) == 0 {
			items = []string{"setup"} // the schema wants at least one item
		}
		return nil, &failure{ErrUnsupported, unsupported.Message, items}
	case err != nil:
		return nil, err
	case game == nil:
		return nil, fail(ErrEngineError, "NewGame gave no game")
	}
	s.started++
	name := fmt.Sprintf("g%d", s.started)
	s.games[name] = game
	return &StartAnswer{Game: name}, nil
}

// undeclared lists what the setup needs and Engine does not declare: flag=value pairs and
// the positions capability. A setup naming them is refused before NewGame sees it.
func undeclared(setup Setup) []string {
	names := make([]string, 0, len(setup.Flags))
	for name := range setup.Flags {
		names = append(names, name)
	}
	sort.Strings(names)
	missing := []string{}
	for _, name := range names {
		if !contains(Engine.Flags[name], setup.Flags[name]) {
			missing = append(missing, name+"="+setup.Flags[name])
		}
	}
	if setup.HasPosition && !contains(Engine.Capabilities, CapPositions) {
		missing = append(missing, CapPositions)
	}
	return missing
}

func contains(items []string, item string) bool {
	for _, each := range items {
		if each == item {
			return true
		}
	}
	return false
}

// decodeSetup reads the members of a setup, checking their types (not their sense: NewGame
// does that).
func decodeSetup(raw map[string]json.RawMessage) (Setup, error) {
	setup := Setup{Raw: raw}
	flags, err := ObjectMember(raw, "flags")
	if err != nil {
		return setup, fmt.Errorf("setup: %v", err)
	}
	setup.Flags = map[string]string{}
	for name := range flags {
		value, err := StringMember(flags, name)
		if err != nil {
			return setup, fmt.Errorf("setup flags: %v", err)
		}
		setup.Flags[name] = value
	}
	if _, setup.HasDealer = raw["dealer"]; setup.HasDealer {
		if setup.Dealer, err = IntMember(raw, "dealer"); err != nil {
			return setup, fmt.Errorf("setup: %v", err)
		}
	}
	if _, setup.HasDeck = raw["deck"]; setup.HasDeck {
		if setup.Deck, err = StringsMember(raw, "deck"); err != nil {
			return setup, fmt.Errorf("setup: %v", err)
		}
	}
	if _, setup.HasHands = raw["hands"]; setup.HasHands {
		var hands [][]*string
		if err := Member(raw, "hands", &hands); err != nil {
			return setup, fmt.Errorf("setup: %v", err)
		}
		for seat, hand := range hands {
			cards := []string{}
			for _, card := range hand {
				if card == nil {
					return setup, fmt.Errorf("setup: a card of hand %d is null", seat)
				}
				cards = append(cards, *card)
			}
			setup.Hands = append(setup.Hands, cards)
		}
		if muestra, present := raw["muestra"]; present && !isNull(muestra) {
			if setup.Muestra, err = StringMember(raw, "muestra"); err != nil {
				return setup, fmt.Errorf("setup: %v", err)
			}
		}
		if setup.Stock, err = StringsMember(raw, "stock"); err != nil {
			return setup, fmt.Errorf("setup: %v", err)
		}
	}
	if setup.Position, setup.HasPosition = raw["position"]; setup.HasPosition && isNull(setup.Position) {
		setup.HasPosition = false
	}
	return setup, nil
}

func (s *server) gameName(request Request) (string, error) {
	name, err := StringMember(request.Members, "game")
	if err != nil {
		return "", fail(ErrBadRequest, "a game command needs a game id: %v", err)
	}
	if _, known := s.games[name]; !known {
		return "", fail(ErrUnknownGame, "no game %q", name)
	}
	return name, nil
}

func (s *server) game(request Request) (*Game, error) {
	name, err := s.gameName(request)
	if err != nil {
		return nil, err
	}
	return s.games[name], nil
}

func (s *server) value(request Request, cmd string) (Answer, bool, error) {
	game, err := s.game(request)
	if err != nil {
		return nil, false, err
	}
	field, err := StringMember(request.Members, "field")
	if err != nil {
		return nil, false, fail(ErrBadRequest, "%s needs a field: %v", cmd, err)
	}
	var value interface{}
	if cmd == CmdState {
		value, err = game.State(field)
	} else {
		seat, seatErr := IntMember(request.Members, "seat")
		if seatErr != nil {
			return nil, false, fail(ErrBadRequest, "observe needs a seat: %v", seatErr)
		}
		value, err = game.Observe(seat, field)
	}
	var unknown *UnknownField
	var notOffered *NotOffered
	switch {
	case errors.As(err, &unknown):
		return nil, false, fail(ErrUnknownField, "%s", unknown.Error())
	case errors.As(err, &notOffered):
		return nil, false, fail(ErrEngineError, "%s", notOffered.Message)
	case err != nil:
		return nil, false, err
	}
	return &ValueAnswer{Value: value}, false, nil
}
