/*
 * The skeleton game: a small but complete hand of Guiñote for four players, simplified so that
 * it stays short. Untouched, it passes `guinote-conformance validate` and `smoke`.
 *
 *   TODO(engine): the places where you plug in your own engine (who it is, what it plays, and
 *                 the Game class, which you replace by a wrapper around your own game object).
 *   TODO(rules):  the places where the skeleton simplifies the rules, with the rule IDs of the
 *                 suite's rule index (features/index/) that the full game needs.
 *
 * Every message type comes from src/generated/protocol.ts (generated from the JSON Schemas).
 */
import type { Action, ActionRequest, Card, Event, Flags, Setup, StateFieldValues, Suit } from './generated/protocol';
import { BadSetup, Unsupported } from './protocol-loop';
import type { EngineDescription, FieldReaders, GameApi, Outcome, Refused } from './protocol-loop';

// TODO(engine): for each rule flag, the values your engine plays: these are the values of the
// "lascuarenta" profile. A scenario that needs a value you do not list is not applicable.
const LASCUARENTA: Flags = {
  players: '4',
  deck: '40',
  rank_8_9: 'below_caballo',
  deal: 'three_three',
  cante_per_trick: 'one',
  cante_order: 'free',
  tute: 'wins_point',
  seven_exchange_requires: 'own_side_won_any_trick',
  seven_exchange_window: 'between_tricks',
  seven_exchange_min: 'higher_than_seven',
  seven_is_muestra: 'swap_with_two',
  partner_winning_exempts: 'yes',
  overtake_reference: 'current_winning_card',
  renuncio_handling: 'block',
  renuncio_faults: 'out_of_turn_and_cante',
  thirty_malas: 'vueltas',
  thirty_malas_count: 'cards_plus_ultimas',
  thirty_malas_scope: 'first_hand_only',
  thirty_malas_trigger: 'any_winner',
  vueltas_end: 'automatic',
  vueltas_claim_by: 'trick_winner',
  points_per_coto: '3',
  cotos_to_win: '1',
};

// TODO(engine): who your engine is, its profiles, flag values and capabilities ("positions",
// "observations", "reason_codes", "match", "automatic_draw": docs/checking/protocol.md). "batch"
// needs nothing of yours: protocol-loop.ts answers it with legal, apply and fields, and declares it.
export const ENGINE: EngineDescription = {
  name: 'my-guinote',
  version: '0.0.1',
  language: 'typescript',
  profiles: { lascuarenta: LASCUARENTA },
  flags: Object.fromEntries(Object.entries(LASCUARENTA).map(([flag, value]) => [flag, [value ?? '']])),
  capabilities: [],
};

const PLAYERS = 4;
const SUITS: readonly Suit[] = ['o', 'c', 'e', 'b'];
/**
 * The ranks of the 40-card deck, strongest first (it has no 8 or 9): in Guiñote the Sota beats
 * the Caballo (DECK-06); and the card points (DECK-07). TODO(rules): the 8 and 9 of the 48-card
 * deck (rank_8_9) if you play it.
 */
const RANKS = ['A', '3', 'R', 'S', 'C', '7', '6', '5', '4', '2'] as const;
const POINTS: Readonly<Record<string, number>> = { A: 11, '3': 10, R: 4, S: 3, C: 2 };
const DECK: ReadonlySet<Card> = new Set(SUITS.flatMap((suit) => RANKS.map((rank) => `${rank}${suit}`)));
const ULTIMAS = 10;

const suitOf = (card: Card): Suit => card[1] as Suit;
const strength = (card: Card): number => RANKS.length - RANKS.indexOf(card[0] as (typeof RANKS)[number]);
const points = (cards: readonly Card[]): number => cards.reduce((sum, card) => sum + (POINTS[card[0] ?? ''] ?? 0), 0);
const sideOf = (seat: number): number => seat % 2;
const refused = (code: string, message: string): Refused => ({ accepted: false, code, message });

/**
 * One game in progress. TODO(engine): replace the body by a wrapper around your own game: keep
 * the constructor's checks of the setup, answer legal/apply from your engine, and read each state
 * field (`fields`) from it.
 */
export class Game implements GameApi {
  readonly players = PLAYERS;
  private readonly hands: Card[][];
  private readonly stock: Card[]; // top first, without the muestra
  private muestra: Card | null;
  private readonly trump: Suit;
  private readonly dealer: number;
  private readonly mano: number;
  private turn: number | null;
  private leader: number;
  private trick: Card[] = [];
  private trickSeats: number[] = [];
  private lastTrick: Card[] = [];
  private lastTrickWinner: number | null = null;
  private drawPending = false;
  private arrastre = false;
  private tricksPlayed = 0;
  private readonly won: Card[][] = [[], []];
  private readonly lastWon: Card[][] = [[], []];
  private readonly tricksWon = [0, 0];
  private ultimas: number | null = null;
  private over = false;
  private winner: number | null = null;
  private reason: string | null = null;

  constructor(setup: Setup) {
    if (setup.deck !== undefined) {
      // TODO(rules): deal from a deck order (the DEAL- rules and PRE-10) to run those scenarios.
      throw new Unsupported('this engine takes explicit deals only', ['deal=deck order']);
    }
    const { hands, muestra, stock, dealer } = setup;
    if (!Array.isArray(hands) || hands.length !== PLAYERS || !hands.every((hand) => Array.isArray(hand) && hand.length === 6)) {
      throw new BadSetup(`an explicit deal needs "hands": ${PLAYERS} lists of 6 cards, in seat order`);
    }
    if (typeof muestra !== 'string' || !Array.isArray(stock)) {
      throw new BadSetup('an explicit deal needs a "muestra" card and a "stock" list (top first)');
    }
    if (!Number.isInteger(dealer) || (dealer as number) < 0 || (dealer as number) >= PLAYERS) {
      throw new BadSetup(`"dealer" must be a seat, 0 to ${PLAYERS - 1}`);
    }
    const cards: unknown[] = [...hands.flat(), muestra, ...stock];
    const seen = new Set<Card>();
    for (const card of cards) {
      if (typeof card !== 'string' || !DECK.has(card)) throw new BadSetup(`${JSON.stringify(card)} is not a card of the 40-card deck`);
      if (seen.has(card)) throw new BadSetup(`card ${card} is dealt twice`);
      seen.add(card);
    }
    if (seen.size !== DECK.size) throw new BadSetup(`the deal has ${seen.size} cards, not ${DECK.size}`);
    this.hands = hands.map((hand) => [...hand]);
    this.stock = [...stock];
    this.muestra = muestra;
    this.trump = suitOf(muestra);
    this.dealer = dealer as number;
    // The mano is the seat after the dealer in playing order (PRE-09), and leads the first trick.
    this.mano = (this.dealer + 1) % PLAYERS;
    this.turn = this.mano;
    this.leader = this.mano;
  }

  legal(): Action[] {
    if (this.over || this.turn === null) return [];
    if (this.drawPending) return [{ type: 'draw' }];
    // TODO(rules): cantes (CANTE-), the exchange of the seven (SEVEN-), tute and claims are never offered.
    const seat = this.turn;
    return this.playable(seat).map((card) => ({ type: 'play', seat, card }));
  }

  /** The cards `seat` may play now. */
  private playable(seat: number): Card[] {
    const hand = this.hands[seat] ?? [];
    const led = this.trick[0];
    if (!this.arrastre || led === undefined) return [...hand]; // TODO(rules): free phase, any card (PLAY- rules)
    // TODO(rules): the arrastre only asks to follow suit here; the ARR- rules also ask to
    // overtake (ARR-02), to trump (ARR-03, ARR-04), and exempt a partner who is winning.
    const following = hand.filter((card) => suitOf(card) === suitOf(led));
    return following.length > 0 ? following : [...hand];
  }

  apply(action: ActionRequest): Outcome {
    const type = action.type;
    if (this.over) return refused('HAND_OVER', 'the hand is over');
    switch (type) {
      case 'draw':
        return this.drawPending ? { accepted: true, events: this.draw() } : refused('NOTHING_TO_DRAW', 'no draw is pending');
      case 'play':
        return this.play(action.seat, action.card);
      case 'deal':
        return refused('HAND_IN_PROGRESS', 'the hand is not over');
      case 'cante':
      case 'exchange':
      case 'claim':
      case 'tute':
        // TODO(rules): CANTE-, SEVEN-, VUELTAS- rules. Refused as not offered.
        return refused('BAD_ACTION', `this engine does not offer "${type}" yet`);
      default:
        return refused('BAD_ACTION', `unknown action type ${JSON.stringify(type)}`);
    }
  }

  private play(seat: unknown, card: unknown): Outcome {
    if (typeof seat !== 'number' || !Number.isInteger(seat) || typeof card !== 'string') {
      return refused('BAD_ACTION', 'a play needs an integer "seat" and a "card"');
    }
    if (seat < 0 || seat >= PLAYERS) return refused('NO_SUCH_SEAT', `no seat ${seat}`);
    if (this.drawPending) return refused('MUST_DRAW_FIRST', 'the trick is won: draw first');
    if (seat !== this.turn) return refused('NOT_YOUR_TURN', `it is seat ${String(this.turn)}'s turn`);
    const hand = this.hands[seat] ?? [];
    if (!hand.includes(card)) return refused('CARD_NOT_IN_HAND', `seat ${seat} does not hold ${card}`);
    if (!this.playable(seat).includes(card)) return refused('MUST_FOLLOW_SUIT', `seat ${seat} must follow the suit led`);
    // TODO(rules): no renuncio (RENUNCIO- rules): an illegal card is refused, never played.
    hand.splice(hand.indexOf(card), 1);
    this.trick.push(card);
    this.trickSeats.push(seat);
    const events: Event[] = [{ type: 'card_played', seat, card }];
    if (this.trick.length < PLAYERS) {
      this.turn = (seat + 1) % PLAYERS;
      return { accepted: true, events };
    }
    return { accepted: true, events: [...events, ...this.endTrick()] };
  }

  /** The trick is complete: the highest trump wins it, else the highest card of the suit led. */
  private endTrick(): Event[] {
    const led = suitOf(this.trick[0] as Card);
    const rank = (card: Card): number => (suitOf(card) === this.trump ? 100 : suitOf(card) === led ? 0 : -100) + strength(card);
    let best = 0;
    this.trick.forEach((card, index) => {
      if (rank(card) > rank(this.trick[best] as Card)) best = index;
    });
    const winner = this.trickSeats[best] as number;
    const side = sideOf(winner);
    const cards = this.trick;
    const events: Event[] = [{ type: 'trick_won', seat: winner, side, points: points(cards), cards: [...cards] }];
    this.won[side]?.push(...cards);
    this.lastWon[side] = [...cards];
    this.tricksWon[side] = (this.tricksWon[side] ?? 0) + 1;
    this.lastTrick = [...cards];
    this.lastTrickWinner = winner;
    this.tricksPlayed += 1;
    this.trick = [];
    this.trickSeats = [];
    this.turn = winner; // the winner leads the next trick (PLAY-05)
    this.leader = winner;
    if (this.hands.every((hand) => hand.length === 0)) return [...events, ...this.endHand(side)];
    if (!this.arrastre) this.drawPending = true; // the draw is the harness's own action (explicit draw)
    return events;
  }

  /** Each seat takes the top card of the stock, the trick's winner first; the last card is the muestra. */
  private draw(): Event[] {
    const first = this.turn as number;
    const draws: [number, Card][] = [];
    for (let step = 0; step < PLAYERS; step += 1) {
      const seat = (first + step) % PLAYERS;
      const card = this.stock.shift() ?? this.muestra;
      if (card === null) break;
      if (this.stock.length === 0 && card === this.muestra) this.muestra = null;
      this.hands[seat]?.push(card);
      draws.push([seat, card]);
    }
    this.drawPending = false;
    const events: Event[] = [{ type: 'cards_drawn', draws }];
    if (this.stock.length === 0 && this.muestra === null) {
      this.arrastre = true;
      events.push({ type: 'arrastre_begins' });
    }
    return events;
  }

  private score(side: number): number {
    return points(this.won[side] ?? []) + (this.ultimas === side ? ULTIMAS : 0);
  }

  /** After the last trick: the diez de últimas, then the hand's winner. */
  private endHand(lastSide: number): Event[] {
    this.ultimas = lastSide;
    this.over = true;
    this.turn = null;
    const scores = [this.score(0), this.score(1)];
    const [zero, one] = scores as [number, number];
    // TODO(rules): the SCORE- and VUELTAS- rules: with neither side past 100 the hand goes de
    // vueltas (VUELTAS-02) and the next hand is dealt; thirty malas; cantes in the score. The
    // skeleton gives the point to a side past 100; without one it says "vueltas" and ends there.
    if (zero > 100 || one > 100) {
      this.winner = zero > 100 ? 0 : 1;
      this.reason = 'over_100';
    } else {
      this.winner = null;
      this.reason = 'vueltas';
    }
    return [
      { type: 'ultimas', side: lastSide, points: ULTIMAS },
      {
        type: 'hand_over',
        winner: this.winner,
        reason: this.reason,
        scores,
        totals: scores,
        card_points: [points(this.won[0] ?? []), points(this.won[1] ?? [])],
      },
    ];
  }

  /** Every state field every engine must give (the type lists them: a new field breaks the build). */
  readonly fields: FieldReaders = {
    phase: (): StateFieldValues['phase'] => (this.over ? 'hand_over' : this.arrastre ? 'arrastre' : 'free'),
    players: () => PLAYERS,
    turn: () => this.turn,
    leader: () => (this.over ? null : this.leader),
    dealer: () => this.dealer,
    mano: () => this.mano,
    trump: () => this.trump,
    muestra: () => this.muestra,
    stock_count: () => this.stock.length + (this.muestra === null ? 0 : 1),
    trick: () => [...this.trick],
    trick_seats: () => [...this.trickSeats],
    last_trick: () => [...this.lastTrick],
    last_trick_winner: () => this.lastTrickWinner,
    draw_pending: () => this.drawPending,
    tricks_played: () => this.tricksPlayed,
    ultimas: () => this.ultimas,
    cantes: () => [], // TODO(rules): cantes (CANTE- rules)
    sung_suits: () => [],
    exchange_done: () => false, // TODO(rules): the exchange of the seven (SEVEN- rules)
    de_vueltas: () => false, // TODO(rules): hands de vueltas (VUELTAS- rules)
    hand_in_point: () => 0,
    hand_winner: () => this.winner,
    hand_reason: () => this.reason,
    'hand.<seat>': (seat) => [...(this.hands[seat] ?? [])],
    'hand_size.<seat>': (seat) => this.hands[seat]?.length ?? 0,
    'card_points.<side>': (side) => points(this.won[side] ?? []),
    'cante_points.<side>': () => 0,
    'score.<side>': (side) => this.score(side),
    'total.<side>': (side) => this.score(side), // no earlier hand de vueltas to carry
    'tricks_won.<side>': (side) => this.tricksWon[side] ?? 0,
    'won_cards.<side>': (side) => [...(this.won[side] ?? [])],
    'last_trick_won.<side>': (side) => [...(this.lastWon[side] ?? [])],
  };
}
