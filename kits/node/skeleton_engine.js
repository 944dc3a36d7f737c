#!/usr/bin/env node
/*
 * Skeleton of a Guiñote engine that speaks GCP/2, the Guiñote conformance protocol.
 *
 * Copy this file next to your engine and fill in the places marked TODO(engine). It needs
 * nothing but Node.js (18 or later), and it already runs: the handshake works, setups with
 * flag values you do not declare are refused as "unsupported", and every command you have
 * not implemented yet is answered with "engine_error" ("not implemented: ...").
 *
 * The protocol, in one paragraph: the harness starts this program ONCE and writes one JSON
 * request per line on its stdin; the program writes exactly one JSON answer per line on its
 * stdout, echoing the request's "id". stdout carries nothing else (log with console.error).
 * The program exits after answering "stop", or when stdin ends. The reference is
 * docs/checking/protocol.md; the JSON Schemas are in adapters/schemas/.
 *
 * Check your progress with:
 *   python -m guinote_conformance.adapters.harness_check validate -- node skeleton_engine.js
 *   python -m guinote_conformance.adapters.harness_check smoke -- node skeleton_engine.js
 */
'use strict';

const readline = require('readline');

const PROTOCOL = 2;

// TODO(engine): who your engine is.
const ENGINE = { name: 'my-guinote', version: '0.0.1', language: 'javascript' };

// TODO(engine): for each rule flag, the values your engine can play. These are the values of
// the "lascuarenta" profile; add the values you support, one list per flag.
const FLAGS = {
  players: ['4'],
  deck: ['40'],
  rank_8_9: ['below_caballo'],
  deal: ['three_three'],
  cante_per_trick: ['one'],
  cante_order: ['free'],
  tute: ['wins_point'],
  seven_exchange_requires: ['own_side_won_any_trick'],
  seven_exchange_window: ['between_tricks'],
  seven_exchange_min: ['higher_than_seven'],
  seven_is_muestra: ['swap_with_two'],
  partner_winning_exempts: ['yes'],
  overtake_reference: ['current_winning_card'],
  renuncio_handling: ['block'],
  renuncio_faults: ['out_of_turn_and_cante'],
  thirty_malas: ['vueltas'],
  thirty_malas_count: ['cards_plus_ultimas'],
  thirty_malas_scope: ['first_hand_only'],
  thirty_malas_trigger: ['any_winner'],
  vueltas_end: ['automatic'],
  vueltas_claim_by: ['trick_winner'],
  points_per_coto: ['3'],
  cotos_to_win: ['1'],
};

// TODO(engine): your named profiles (a value for every flag). One minimal profile to start.
const PROFILES = {
  lascuarenta: Object.fromEntries(Object.entries(FLAGS).map(([flag, values]) => [flag, values[0]])),
};

// TODO(engine): the optional features you implement: "positions" (start from a mid-hand
// position), "observations" (observe), "reason_codes" (rejections carry the suite's reason
// codes and rule IDs; "reason_codes_arrastre", "reason_codes_cantes"... for some rule areas
// only), "match" (the match score across points: cotos, and the deal after a won point).
// "batch" needs nothing of yours: the protocol loop below answers it with legal, apply and state,
// and declares it.
const CAPABILITIES = [];

// TODO(engine): how your engine draws after a free-phase trick (docs/checking/protocol.md, "The draw").
//   'explicit':  the trick ends with a draw pending; legal() lists {type: 'draw'} (with the cantes
//                and the exchange of the trick's winner); apply({type: 'draw'}) deals one card to
//                each seat, the winner first, and answers the 'cards_drawn' event.
//   'automatic': your engine draws as the trick ends: the play that completes the trick answers
//                'trick_won' then 'cards_drawn'; never list nor accept 'draw'. The suite holds the
//                draw back on its side (nothing to emulate here).
const DRAW = 'explicit';
if (DRAW === 'automatic') CAPABILITIES.push('automatic_draw');

class NotImplementedYet extends Error {}
/** Throw from the Game constructor for an impossible deal (a card twice...). */
class BadSetup extends Error {}
/** Throw from state/observe for a field name (or seat) that does not exist. */
class UnknownField extends Error {}

/** One game in progress. TODO(engine): wrap your own game object here. */
class Game {
  constructor(setup) {
    // setup.flags: the value of every flag. Then one of:
    //   setup.deck: the deck order, top card first, and setup.dealer: the dealer's seat;
    //   setup.hands, setup.muestra, setup.stock, setup.dealer: an explicit deal;
    //   setup.position: a mid-hand position (only with the "positions" capability).
    // Cards are two characters: rank (A 3 R S C 9 8 7 6 5 4 2) and suit (o c e b), e.g. "Ao".
    throw new NotImplementedYet('start: create your game from the setup'); // TODO(engine)
  }

  legal() {
    // Every action the game accepts now, for any seat, e.g.
    // {type: 'play', seat: 1, card: 'Ao'}, {type: 'draw'}, {type: 'cante', seat: 0, suit: 'o'}.
    // DRAW === 'explicit': while a draw is pending the only play-like action is {type: 'draw'}.
    // DRAW === 'automatic': never {type: 'draw'}.
    throw new NotImplementedYet('legal'); // TODO(engine)
  }

  apply(action) {
    // Accepted: {accepted: true, events: [{type: 'card_played', seat: 1, card: 'Ao'}, ...]}
    // The play that completes a trick answers {type: 'trick_won', seat, side, points, cards};
    // with DRAW === 'automatic' it also answers {type: 'cards_drawn', draws: [[seat, card], ...]}
    // (winner first; the last card drawn is the muestra) and, after the final draw, {type: 'arrastre_begins'}.
    // With DRAW === 'explicit' those two come in the answer to {type: 'draw'}.
    // Refused (a normal answer, not an error):
    //   {accepted: false, code: 'MUST_FOLLOW_SUIT', rule: 'ARR-01', message: '...'}
    throw new NotImplementedYet('apply'); // TODO(engine)
  }

  state(field) {
    // The value of a state field of the vocabulary: 'phase', 'turn', 'hand.2', 'score.0'...
    // Throw UnknownField for a name that is not a field.
    throw new NotImplementedYet(`state ${field}`); // TODO(engine)
  }

  observe(seat, field) {
    // The field as `seat` sees it: hidden information is null (capability "observations").
    throw new NotImplementedYet(`observe ${field}`); // TODO(engine)
  }
}

// ----------------------------------------------------------------------------- the protocol loop
// You should not need to change anything below.

class Failure extends Error {
  constructor(code, message, extra = {}) {
    super(message);
    this.code = code;
    this.extra = extra;
  }
}

const games = new Map();
let started = 0;

function gameOf(request) {
  const game = games.get(request.game);
  if (game === undefined) throw new Failure('unknown_game', `no game ${JSON.stringify(request.game)}`);
  return game;
}

const isNames = (value) => Array.isArray(value) && value.every((name) => typeof name === 'string');
/** The value as JSON carries it now: a later action must not change what an earlier step answered. */
const frozen = (value) => JSON.parse(JSON.stringify(value === undefined ? null : value));

/**
 * The optional command "batch" (docs/checking/protocol.md, "batch"), for any Game: the legal
 * actions and `fields` before the first action (`before`), then one step per action, in order:
 * what `apply` answers for it, then the legal actions and the fields after it (`step_fields[i]`,
 * else `fields`). A refused action leaves the game as it was and the next one is still applied.
 * A field the game does not know is left out of every `state` and listed once in
 * `unknown_fields`. Any other failure fails the whole request (`engine_error`): the harness then
 * finds the failing action by asking one at a time.
 */
function batch(game, request) {
  const { actions, fields, step_fields: perStep } = request;
  if (!Array.isArray(actions) || !actions.every((a) => a !== null && typeof a === 'object' && !Array.isArray(a))) {
    throw new Failure('bad_request', 'batch needs an "actions" list of action objects');
  }
  if (!isNames(fields)) throw new Failure('bad_request', 'batch needs a "fields" list of field names');
  const perAction = Array.isArray(perStep) && perStep.length === actions.length && perStep.every(isNames);
  if (perStep !== undefined && perStep !== null && !perAction) {
    throw new Failure('bad_request', 'batch "step_fields" needs one list of field names per action');
  }
  const unknown = [];
  const snapshot = (names) => {
    const state = {};
    for (const name of names) {
      if (unknown.includes(name)) continue;
      try {
        state[name] = frozen(game.state(name));
      } catch (error) {
        if (!(error instanceof UnknownField)) throw error;
        unknown.push(name);
      }
    }
    return { legal: frozen(game.legal()), state };
  };
  const before = snapshot(fields);
  const steps = actions.map((action, number) => ({
    ...frozen(game.apply(action)),
    ...snapshot(perAction ? perStep[number] : fields),
  }));
  for (const { state } of [before, ...steps]) {
    for (const name of unknown) delete state[name]; // a field found unknown late is left out everywhere
  }
  return unknown.length > 0 ? { before, steps, unknown_fields: unknown } : { before, steps };
}

function handle(request) {
  switch (request.cmd) {
    case 'hello': {
      if (!Number.isInteger(request.protocol) || request.protocol < PROTOCOL) {
        throw new Failure('unsupported_protocol', `this engine speaks protocol ${PROTOCOL}`);
      }
      const capabilities = CAPABILITIES.includes('batch') ? CAPABILITIES : [...CAPABILITIES, 'batch']; // answered here
      const engine = { ...ENGINE, profiles: PROFILES, flags: FLAGS, capabilities };
      return { protocol: PROTOCOL, engine };
    }
    case 'start': {
      const setup = request.setup;
      if (setup === null || typeof setup !== 'object' || typeof setup.flags !== 'object' || setup.flags === null) {
        throw new Failure('bad_request', 'start needs a setup with its flags');
      }
      const missing = Object.entries(setup.flags)
        .filter(([flag, value]) => !(FLAGS[flag] || []).includes(value))
        .map(([flag, value]) => `${flag}=${value}`);
      if ('position' in setup && !CAPABILITIES.includes('positions')) missing.push('positions');
      if (missing.length > 0) {
        throw new Failure('unsupported', `this engine does not play ${missing.join(', ')}`, { unsupported: missing });
      }
      let game;
      try {
        game = new Game(setup);
      } catch (error) {
        if (error instanceof BadSetup) throw new Failure('bad_setup', error.message);
        throw error;
      }
      started += 1;
      games.set(`g${started}`, game);
      return { game: `g${started}` };
    }
    case 'legal':
      return { actions: gameOf(request).legal() };
    case 'apply':
      return gameOf(request).apply(request.action);
    case 'state':
    case 'observe': {
      const game = gameOf(request);
      try {
        const value = request.cmd === 'state' ? game.state(request.field) : game.observe(request.seat, request.field);
        return { value: value === undefined ? null : value };
      } catch (error) {
        if (error instanceof UnknownField) throw new Failure('unknown_field', error.message);
        throw error;
      }
    }
    case 'batch':
      return batch(gameOf(request), request);
    case 'end':
      gameOf(request);
      games.delete(request.game);
      return {};
    case 'stop':
      return { stop: true }; // removed before the answer is written
    default:
      throw new Failure('bad_request', `unknown command ${JSON.stringify(request.cmd)}`);
  }
}

function answer(line) {
  let request;
  try {
    request = JSON.parse(line);
  } catch (error) {
    return { id: null, ok: false, error: 'bad_request', message: `not JSON: ${error.message}` };
  }
  if (request === null || typeof request !== 'object' || Array.isArray(request)) {
    return { id: null, ok: false, error: 'bad_request', message: 'not a JSON object' };
  }
  const id = request.id === undefined ? null : request.id;
  try {
    return { id, ok: true, ...handle(request) };
  } catch (error) {
    if (error instanceof Failure) return { id, ok: false, error: error.code, message: error.message, ...error.extra };
    if (error instanceof NotImplementedYet) {
      return { id, ok: false, error: 'engine_error', message: `not implemented: ${error.message}` };
    }
    console.error(error); // a bug: report it on stderr and keep serving
    return { id, ok: false, error: 'engine_error', message: `${error.name}: ${error.message}` };
  }
}

const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
let stopping = false;
input.on('line', (line) => {
  if (stopping || line.trim() === '') return;
  const reply = answer(line);
  stopping = reply.ok === true && reply.stop === true;
  delete reply.stop;
  if (stopping) {
    input.close();
    process.stdout.write(JSON.stringify(reply) + '\n', () => process.exit(0));
  } else {
    process.stdout.write(JSON.stringify(reply) + '\n');
  }
});
