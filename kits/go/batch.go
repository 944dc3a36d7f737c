// The optional command "batch" (capability "batch"), answered for any Game: you should not need
// to edit this file.
//
// A harness that replays many actions (guinote-conformance compare) asks for them in one
// request instead of one apply, legal and state at a time: over a pipe that is many times
// faster. The loop declares the capability in hello and answers the request here with the
// game's own Apply, Legal and State, so an engine written from this kit answers it with no
// code of its own (docs/checking/protocol.md, "batch"; adapters/schemas/batch.*.json):
//   - "before": the legal actions and the fields asked ("fields") before the first action;
//   - one step per action, in order: what apply answers for it (accepted with its events, or
//     refused with its code, rule and message), then the legal actions and the fields after it
//     ("step_fields"[i] when the request has it, else "fields");
//   - a refused action leaves the game as it was, and the next action is still applied;
//   - a field State does not know (*UnknownField) is left out of every "state" and listed once
//     in "unknown_fields";
//   - any other failure (an error of State, a panic) fails the whole request with engine_error:
//     the harness then finds the failing action by asking one at a time.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
)

// BatchAnswer answers batch. Every value in it is encoded as soon as the game gives it (see
// frozen): a later action must not change what an earlier step answered, even when the game
// hands out a slice it goes on changing.
type BatchAnswer struct {
	Header
	Before        Snapshot    `json:"before"`
	Steps         []BatchStep `json:"steps"` // never nil
	UnknownFields []string    `json:"unknown_fields,omitempty"`
}

// Snapshot is the legal actions and the state fields asked, at one point of a batch.
type Snapshot struct {
	Legal json.RawMessage            `json:"legal"`
	State map[string]json.RawMessage `json:"state"` // never nil
}

// BatchStep is one action of a batch: what apply answered ("accepted" with "events", or "code",
// "rule" and "message"), then the snapshot after it, written flat as batch.response.json wants.
type BatchStep struct {
	Accepted bool                       `json:"accepted"`
	Events   json.RawMessage            `json:"events,omitempty"` // accepted only
	Code     string                     `json:"code,omitempty"`
	Rule     string                     `json:"rule,omitempty"`
	Message  string                     `json:"message,omitempty"`
	Legal    json.RawMessage            `json:"legal"`
	State    map[string]json.RawMessage `json:"state"`
}

// frozen is value encoded now, as the loop encodes an answer (no HTML escaping).
func frozen(value interface{}) (json.RawMessage, error) {
	var buffer bytes.Buffer
	encoder := json.NewEncoder(&buffer)
	encoder.SetEscapeHTML(false)
	if err := encoder.Encode(value); err != nil {
		return nil, fail(ErrEngineError, "a value of the game could not be encoded: %v", err)
	}
	return json.RawMessage(bytes.TrimRight(buffer.Bytes(), "\n")), nil
}

// batch applies the request's actions to game in turn (see the top of this file).
func batch(game *Game, request Request) (Answer, error) {
	var raw []json.RawMessage
	if err := Member(request.Members, "actions", &raw); err != nil {
		return nil, fail(ErrBadRequest, "batch needs an 'actions' list of action objects: %v", err)
	}
	actions := make([]RawAction, 0, len(raw))
	for index, item := range raw {
		var action RawAction
		if err := json.Unmarshal(item, &action); err != nil || action == nil {
			return nil, fail(ErrBadRequest, "batch needs an 'actions' list of action objects: item %d is not one", index)
		}
		actions = append(actions, action)
	}
	fields, err := StringsMember(request.Members, "fields")
	if err != nil {
		return nil, fail(ErrBadRequest, "batch needs a 'fields' list of field names: %v", err)
	}
	var stepFields [][]string
	if rawSteps, present := request.Members["step_fields"]; present && !isNull(rawSteps) {
		var lists [][]*string
		err := json.Unmarshal(rawSteps, &lists)
		if err == nil && len(lists) != len(actions) {
			err = errors.New("not one list per action")
		}
		for _, names := range lists {
			if err == nil && names == nil {
				err = errors.New("a list is null")
			}
			list := make([]string, 0, len(names))
			for _, name := range names {
				if name == nil {
					err = errors.New("a field name is null")
					break
				}
				list = append(list, *name)
			}
			stepFields = append(stepFields, list)
		}
		if err != nil {
			return nil, fail(ErrBadRequest, "batch 'step_fields' needs one list of field names per action: %v", err)
		}
	}
	reader := &fieldReader{game: game, unknown: map[string]bool{}}
	answer := &BatchAnswer{Steps: make([]BatchStep, 0, len(actions))}
	if answer.Before, err = reader.snapshot(fields); err != nil {
		return nil, err
	}
	for index, action := range actions {
		outcome := game.Apply(action)
		if outcome == nil {
			return nil, fail(ErrEngineError, "the game gave no answer to action %d of the batch", index)
		}
		step := BatchStep{Accepted: outcome.Accepted}
		if outcome.Accepted {
			events := outcome.Events
			if events == nil {
				events = []Event{}
			}
			if step.Events, err = frozen(events); err != nil {
				return nil, err
			}
		} else {
			step.Code, step.Rule, step.Message = outcome.Code, outcome.Rule, outcome.Message
		}
		names := fields
		if stepFields != nil {
			names = stepFields[index]
		}
		after, err := reader.snapshot(names)
		if err != nil {
			return nil, err
		}
		step.Legal, step.State = after.Legal, after.State
		answer.Steps = append(answer.Steps, step)
	}
	if len(reader.order) > 0 { // a field found unknown late is left out everywhere
		for _, name := range reader.order {
			delete(answer.Before.State, name)
			for _, step := range answer.Steps {
				delete(step.State, name)
			}
		}
		answer.UnknownFields = reader.order
	}
	return answer, nil
}

// fieldReader reads the fields of a batch, remembering those State does not know.
type fieldReader struct {
	game    *Game
	unknown map[string]bool
	order   []string // the unknown fields, in the order they were found
}

func (r *fieldReader) snapshot(names []string) (Snapshot, error) {
	actions := r.game.Legal()
	if actions == nil {
		actions = []Action{}
	}
	legal, err := frozen(actions)
	if err != nil {
		return Snapshot{}, err
	}
	state := make(map[string]json.RawMessage, len(names))
	for _, name := range names {
		if r.unknown[name] {
			continue
		}
		value, err := r.game.State(name)
		var unknown *UnknownField
		var notOffered *NotOffered
		switch {
		case errors.As(err, &unknown):
			r.unknown[name] = true
			r.order = append(r.order, name)
		case errors.As(err, &notOffered):
			return Snapshot{}, fail(ErrEngineError, "%s", notOffered.Message)
		case err != nil:
			return Snapshot{}, err
		default:
			if state[name], err = frozen(value); err != nil {
				return Snapshot{}, err
			}
		}
	}
	return Snapshot{Legal: legal, State: state}, nil
}
