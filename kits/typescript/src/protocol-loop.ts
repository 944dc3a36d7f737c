/*
 * The GCP/2 protocol loop: you should not need to edit this file (your engine goes in game.ts).
 *
 * The harness starts the program ONCE and writes one JSON request per line on stdin; the loop
 * writes exactly one JSON answer per line on stdout, with the request's "id", and flushes it.
 * stdout carries nothing else (log with console.error). The program exits with status 0 after
 * answering "stop", and when stdin ends. A request it cannot read is answered "bad_request"
 * (with "id": null when it has no usable id), and a bug in the game is answered "engine_error"
 * (the trace goes to stderr): the loop never crashes on its input.
 *
 * The message types come from src/generated/protocol.ts, generated from the suite's JSON
 * Schemas by `npm run generate`: when a schema changes, the build breaks where the code no
 * longer fits it.
 *
 * The loop also answers the optional command "batch" on top of the game's legal, apply and
 * fields, and declares the capability "batch" in hello: an engine written from this kit is
 * compared by `guinote-conformance compare` in one request per hand, with no code of its own
 * (see `batch` below).
 */
import * as readline from 'node:readline';
import type {
  Action,
  ActionRequest,
  ApplyOkElse,
  ApplyOkOk,
  ApplyRequest,
  BatchOk,
  BatchRequest,
  BatchSnapshot,
  BatchStep,
  EndRequest,
  ErrorAnswer,
  HelloOk,
  HelloRequest,
  LegalRequest,
  ObserveRequest,
  Setup,
  StartRequest,
  StateFieldValues,
  StateRequest,
} from './generated/protocol';

/** The protocol version this kit is written for. */
export const PROTOCOL = 2;

/** Who the engine is and what it plays: the `engine` member of the answer to `hello`. */
export type EngineDescription = HelloOk['engine'];

/** The answer of `apply` without its `id` and `ok`: accepted with its events, or refused. */
export type Accepted = Omit<ApplyOkOk, 'id' | 'ok'>;
export type Refused = Omit<ApplyOkElse, 'id' | 'ok'>;
export type Outcome = Accepted | Refused;

type Indexed = `${string}.<seat>` | `${string}.<side>`;
type Required<T> = { [K in keyof T as object extends Pick<T, K> ? never : K]: T[K] };
/**
 * How a game answers `state`: one reader per state field that every engine must give (the
 * fields of fields.json without "x-capability"); `hand.<seat>`, `score.<side>`... take the index.
 * A field the schemas add breaks the build until the game reads it.
 */
export type FieldReaders = {
  [K in keyof Required<StateFieldValues>]: K extends Indexed
    ? (index: number) => StateFieldValues[K]
    : () => StateFieldValues[K];
};

/** What the loop needs of one game in progress (game.ts implements it). */
export interface GameApi {
  /** Every action the game accepts now, for any seat. */
  legal(): Action[];
  /** Apply an action sent by the harness: it may be malformed, and is then refused. */
  apply(action: ActionRequest): Outcome;
  /** The number of seats (for the `<seat>` of indexed fields). */
  readonly players: number;
  readonly fields: FieldReaders;
  /** Only with the "observations" capability: a field as `seat` sees it (hidden: null). */
  observe?(seat: number, field: string): unknown;
}

/** Throw from the game's constructor: an impossible or malformed setup (answered `bad_setup`). */
export class BadSetup extends Error {}
/** Throw from the game's constructor: a setup needing what the engine lacks (`unsupported`). */
export class Unsupported extends Error {
  constructor(
    message: string,
    readonly missing: [string, ...string[]],
  ) {
    super(message);
  }
}
/** Throw from observe for a name (or seat) that is not a field (`unknown_field`). */
export class UnknownField extends Error {}

class Failure extends Error {
  constructor(
    readonly code: ErrorAnswer['error'],
    message: string,
    readonly unsupported?: [string, ...string[]],
  ) {
    super(message);
  }
}

type Json = { [key: string]: unknown };
const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);
/** A string quoted for a message, short and without lone surrogates (kept out of the answer). */
const shown = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
};

function readField(game: GameApi, name: string): unknown {
  const readers = game.fields as unknown as Record<string, ((index?: number) => unknown) | undefined>;
  const indexed = /^(.+)\.(0|[1-9][0-9]*)$/.exec(name);
  if (indexed !== null && !Object.hasOwn(readers, name)) {
    const [, base, digits] = indexed as unknown as [string, string, string];
    const index = Number(digits);
    const seat = Object.hasOwn(readers, `${base}.<seat>`) ? readers[`${base}.<seat>`] : undefined;
    if (seat !== undefined && index < game.players) return seat(index);
    const side = Object.hasOwn(readers, `${base}.<side>`) ? readers[`${base}.<side>`] : undefined;
    if (side !== undefined && index < 2) return side(index);
  } else if (!name.includes('<') && Object.hasOwn(readers, name)) {
    const reader = readers[name];
    if (reader !== undefined) return reader();
  }
  throw new Failure('unknown_field', `no state field ${shown(name)}`);
}

/** A value as JSON would carry it now: a later action must not change what an earlier step answered. */
const frozen = <T>(value: T): T => JSON.parse(JSON.stringify(value ?? null)) as T;
const isNames = (value: unknown): value is string[] => Array.isArray(value) && value.every((name) => typeof name === 'string');

/**
 * The optional command "batch" (docs/checking/protocol.md, "batch"), for any game: the legal
 * actions and `fields` before the first action (`before`), then one step per action, in order:
 * what `apply` answers for it, then the legal actions and the fields after it (`step_fields[i]`,
 * else `fields`). A refused action leaves the game as it was and the next one is still applied.
 * A field the game does not know is left out of every `state` and listed once in
 * `unknown_fields`. Any other failure (a bug of the game) fails the whole request with
 * `engine_error`: the harness then finds the action by asking one at a time.
 */
function batch(game: GameApi, request: Json): Omit<BatchOk, 'id' | 'ok'> {
  const { actions, fields, step_fields: perStep } = request;
  if (!Array.isArray(actions) || !actions.every(isObject)) {
    throw new Failure('bad_request', 'batch needs an "actions" list of action objects');
  }
  if (!isNames(fields)) throw new Failure('bad_request', 'batch needs a "fields" list of field names');
  const perAction = Array.isArray(perStep) && perStep.length === actions.length && perStep.every(isNames);
  if (perStep !== undefined && perStep !== null && !perAction) {
    throw new Failure('bad_request', 'batch "step_fields" needs one list of field names per action');
  }
  const stepFields = (perStep ?? undefined) as BatchRequest['step_fields'];
  const unknown: string[] = [];
  const snapshot = (names: readonly string[]): BatchSnapshot => {
    const state: Record<string, unknown> = {};
    for (const name of names) {
      if (unknown.includes(name)) continue;
      try {
        state[name] = frozen(readField(game, name));
      } catch (error) {
        if (!(error instanceof Failure && error.code === 'unknown_field')) throw error;
        unknown.push(name);
      }
    }
    return { legal: frozen(game.legal()), state };
  };
  const before = snapshot(fields);
  const steps: BatchStep[] = (actions as unknown as BatchRequest['actions']).map((action, number) => ({
    ...frozen(game.apply(action)),
    ...snapshot(stepFields?.[number] ?? fields),
  }));
  for (const { state } of [before, ...steps]) {
    for (const name of unknown) delete (state as Record<string, unknown>)[name]; // found unknown late: left out everywhere
  }
  return unknown.length > 0 ? { before, steps, unknown_fields: unknown } : { before, steps };
}

/** Serve GCP/2 on stdin/stdout until `stop` or the end of stdin. */
export function serve(engine: EngineDescription, newGame: (setup: Setup) => GameApi): void {
  const games = new Map<string, GameApi>();
  let started = 0;

  const gameOf = (request: Json): GameApi => {
    const game = typeof request.game === 'string' ? games.get(request.game) : undefined;
    if (game === undefined) throw new Failure('unknown_game', `no game ${shown(request.game)}`);
    return game;
  };
  const needString = (request: Json, member: string): void => {
    if (typeof request[member] !== 'string') throw new Failure('bad_request', `${request.cmd} needs a string "${member}"`);
  };

  // Each case checks the members it reads, then uses the request as its generated type.
  function handle(request: Json): Json {
    switch (request.cmd) {
      case 'hello': {
        const hello = request as unknown as HelloRequest;
        if (!Number.isInteger(hello.protocol) || hello.protocol < PROTOCOL) {
          throw new Failure('unsupported_protocol', `this engine speaks protocol ${PROTOCOL} and later only`);
        }
        // "batch" is answered by this loop for any game: declared whether ENGINE lists it or not.
        const capabilities = engine.capabilities.includes('batch') ? engine.capabilities : [...engine.capabilities, 'batch'];
        const answer: Omit<HelloOk, 'id' | 'ok'> = { protocol: PROTOCOL, engine: { ...engine, capabilities } };
        return answer;
      }
      case 'start': {
        const setup = request.setup;
        if (!isObject(setup) || !isObject(setup.flags) || !Object.values(setup.flags).every((v) => typeof v === 'string')) {
          throw new Failure('bad_request', 'start needs a setup with its flags (name -> value)');
        }
        const start = request as unknown as StartRequest;
        const missing = Object.entries(start.setup.flags)
          .filter(([flag, value]) => !(Object.hasOwn(engine.flags, flag) && engine.flags[flag]?.includes(value ?? '')))
          .map(([flag, value]) => `${flag}=${value}`);
        if ('position' in setup && !engine.capabilities.includes('positions')) missing.push('positions');
        const [first, ...rest] = missing;
        if (first !== undefined) {
          throw new Failure('unsupported', `this engine does not play ${missing.join(', ')}`, [first, ...rest]);
        }
        let game: GameApi;
        try {
          game = newGame(start.setup);
        } catch (error) {
          if (error instanceof BadSetup) throw new Failure('bad_setup', error.message);
          if (error instanceof Unsupported) throw new Failure('unsupported', error.message, error.missing);
          throw error;
        }
        started += 1;
        games.set(`g${started}`, game);
        return { game: `g${started}` };
      }
      case 'legal':
        return { actions: gameOf(request as unknown as LegalRequest & Json).legal() };
      case 'apply': {
        const game = gameOf(request);
        if (!isObject(request.action)) throw new Failure('bad_request', 'apply needs an "action" object');
        return { ...game.apply((request as unknown as ApplyRequest).action) };
      }
      case 'state': {
        const game = gameOf(request);
        needString(request, 'field');
        return { value: readField(game, (request as unknown as StateRequest).field) ?? null };
      }
      case 'observe': {
        const game = gameOf(request);
        if (!engine.capabilities.includes('observations') || game.observe === undefined) {
          // No error code says "capability not declared" for observe (its schema allows none):
          // the harness never sends it to an engine without "observations".
          throw new Failure('engine_error', 'observe is not offered: this engine has no "observations" capability');
        }
        needString(request, 'field');
        if (!Number.isInteger(request.seat)) throw new Failure('bad_request', 'observe needs an integer "seat"');
        const observe = request as unknown as ObserveRequest;
        try {
          return { value: game.observe(observe.seat, observe.field) ?? null };
        } catch (error) {
          if (error instanceof UnknownField) throw new Failure('unknown_field', error.message);
          throw error;
        }
      }
      case 'batch':
        return batch(gameOf(request), request);
      case 'end': {
        gameOf(request);
        games.delete((request as unknown as EndRequest).game);
        return {};
      }
      case 'stop':
        return {};
      default:
        throw new Failure('bad_request', `unknown command ${shown(request.cmd)}`);
    }
  }

  function answer(line: string): Json {
    let request: unknown;
    try {
      request = JSON.parse(line);
    } catch (error) {
      return { id: null, ok: false, error: 'bad_request', message: `not JSON: ${(error as Error).message}` };
    }
    if (!isObject(request)) return { id: null, ok: false, error: 'bad_request', message: 'not a JSON object' };
    const id = Number.isSafeInteger(request.id) && (request.id as number) >= 0 ? (request.id as number) : null;
    if (id === null) return { id, ok: false, error: 'bad_request', message: 'the request has no integer "id"' };
    try {
      return { id, ok: true, ...handle(request) };
    } catch (error) {
      if (error instanceof Failure) {
        const failed: ErrorAnswer =
          error.code === 'unsupported'
            ? { id, ok: false, error: error.code, message: error.message, unsupported: error.unsupported ?? ['?'] }
            : { id, ok: false, error: error.code, message: error.message };
        return { ...failed };
      }
      console.error(error); // a bug: its trace on stderr, an engine_error on stdout, and keep serving
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      return { id, ok: false, error: 'engine_error', message };
    }
  }

  // I-JSON: a lone surrogate (from a malformed request quoted in a message) is never written.
  const wellFormed = (_key: string, value: unknown): unknown =>
    typeof value === 'string' ? value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD') : value;

  const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
  let stopping = false;
  input.on('line', (line) => {
    if (stopping || line.trim() === '') return;
    const reply = answer(line);
    const text = JSON.stringify(reply, wellFormed) + '\n';
    if (reply.ok === true && (JSON.parse(line) as Json).cmd === 'stop') {
      stopping = true;
      input.close();
      process.stdout.write(text, () => process.exit(0));
    } else {
      process.stdout.write(text);
    }
  });
  input.on('close', () => {
    if (!stopping) process.stdout.write('', () => process.exit(0)); // stdin ended: never outlive the harness
  });
}
