//! The game: who the engine is, what it plays, and one game in progress.
//!
//! This is the file you change. Out of the box it is a *skeleton game*: small but complete, so
//! that `guinote-conformance validate` and `smoke` accept it untouched. Where it simplifies the
//! rules it says so with `TODO(rules)` and the rule IDs; where your own engine plugs in it says
//! `TODO(engine)`. The rules themselves are in the suite's features/ (one rule ID per rule).
//!
//! The protocol loop (protocol.rs) calls `Game::new` for `start`, then `legal`, `apply` and
//! `state` on it. It has already checked the flags against `FLAGS` and refused positions when
//! `CAPABILITIES` lacks "positions". A panic here is caught there and answered `engine_error`.

use crate::json::Json;
use crate::messages::{
    Action, Card, Deal, Event, Failure, Outcome, Phase, Setup, BAD_SETUP, CARD_NOT_IN_HAND, HAND_IN_PROGRESS,
    HAND_OVER, MUST_DRAW_FIRST, MUST_FOLLOW_SUIT, NOTHING_TO_DRAW, NOT_LEGAL, NOT_YOUR_TURN, NO_SUCH_SEAT,
    REASON_OVER_100, REASON_VUELTAS, SUITS,
};

// ------------------------------------------------------------------------------- who you are

/// TODO(engine): your engine's name and version. The language is the kit's.
pub const ENGINE_NAME: &str = "my-guinote";
pub const ENGINE_VERSION: &str = "0.0.1";
pub const ENGINE_LANGUAGE: &str = "rust";

/// TODO(engine): for each rule flag, the values your engine can play (a scenario needing a
/// value you do not list is not applicable, not failed). These are the values of the
/// "lascuarenta" profile, one each: add the values you implement.
pub const FLAGS: &[(&str, &[&str])] = &[
    ("players", &["4"]),
    ("deck", &["40"]),
    ("rank_8_9", &["below_caballo"]),
    ("deal", &["three_three"]),
    ("cante_per_trick", &["one"]),
    ("cante_order", &["free"]),
    ("tute", &["wins_point"]),
    ("seven_exchange_requires", &["own_side_won_any_trick"]),
    ("seven_exchange_window", &["between_tricks"]),
    ("seven_exchange_min", &["higher_than_seven"]),
    ("seven_is_muestra", &["swap_with_two"]),
    ("partner_winning_exempts", &["yes"]),
    ("overtake_reference", &["current_winning_card"]),
    ("renuncio_handling", &["block"]),
    ("renuncio_faults", &["out_of_turn_and_cante"]),
    ("thirty_malas", &["vueltas"]),
    ("thirty_malas_count", &["cards_plus_ultimas"]),
    ("thirty_malas_scope", &["first_hand_only"]),
    ("thirty_malas_trigger", &["any_winner"]),
    ("vueltas_end", &["automatic"]),
    ("vueltas_claim_by", &["trick_winner"]),
    ("points_per_coto", &["3"]),
    ("cotos_to_win", &["1"]),
];

/// TODO(engine): your named profiles, each a value for every flag. The skeleton has one,
/// "lascuarenta", made of the first value of each flag above.
pub fn profiles() -> Vec<(&'static str, Vec<(&'static str, &'static str)>)> {
    vec![(
        "lascuarenta",
        FLAGS.iter().map(|(flag, values)| (*flag, values[0])).collect(),
    )]
}

/// TODO(engine): the optional features you implement (docs/checking/protocol.md, "hello"):
/// "positions", "observations", "reason_codes" (or "reason_codes_<area>"), "match",
/// "automatic_draw", "own_shuffle". The skeleton has none. ("batch" needs nothing of yours: the
/// loop in protocol.rs answers it with `apply`, `legal` and `state` below, and declares it.)
pub const CAPABILITIES: &[&str] = &[];

// ---------------------------------------------------------------------------------- the cards

/// The 40-card deck's ranks, strongest first (A 3 R S C 7 6 5 4 2: no 8 nor 9): in Guiñote the
/// Sota beats the Caballo (DECK-06).
/// TODO(rules): rank_8_9 and the 48-card deck, if you play them.
const STRENGTH: [char; 10] = ['A', '3', 'R', 'S', 'C', '7', '6', '5', '4', '2'];

fn strength(card: Card) -> usize {
    // Lower is stronger; a rank outside the deck never reaches here (the deal is checked).
    STRENGTH
        .iter()
        .position(|rank| *rank == card.rank)
        .unwrap_or(STRENGTH.len())
}

fn points(card: Card) -> u32 {
    match card.rank {
        'A' => 11,
        '3' => 10,
        'R' => 4,
        'S' => 3, // DECK-07
        'C' => 2,
        _ => 0,
    }
}

fn deck_40() -> Vec<Card> {
    let mut deck = Vec::new();
    for suit in SUITS {
        for rank in STRENGTH {
            deck.push(Card { rank, suit });
        }
    }
    deck
}

/// Four players in two partnerships: seats 0 and 2 are side 0, seats 1 and 3 side 1.
const PLAYERS: usize = 4;
const SIDES: usize = 2;
const HAND_SIZE: usize = 6;
/// The diez de últimas: the winner of the last trick scores ten.
const ULTIMAS_POINTS: u32 = 10;

fn side_of(seat: usize) -> usize {
    seat % SIDES
}

/// The seat after `seat` in playing order.
fn next_seat(seat: usize) -> usize {
    (seat + 1) % PLAYERS
}

fn parse_cards(codes: &[String], what: &str) -> Result<Vec<Card>, Failure> {
    codes
        .iter()
        .map(|code| {
            Card::parse(code).ok_or_else(|| Failure::new(BAD_SETUP, format!("{} holds {:?}: not a card", what, code)))
        })
        .collect()
}

// ------------------------------------------------------------------------------------ the game

/// One game in progress. TODO(engine): wrap your own game object here, and answer from it.
pub struct Game {
    hands: Vec<Vec<Card>>,
    /// The stock, top card first, without the muestra.
    stock: Vec<Card>,
    /// The card turned up under the stock, until the final draw takes it.
    muestra: Option<Card>,
    trump: char,
    dealer: usize,
    mano: usize,
    phase: Phase,
    turn: Option<usize>,
    leader: usize,
    /// The current trick: (seat, card) in playing order.
    trick: Vec<(usize, Card)>,
    last_trick: Vec<Card>,
    last_trick_winner: Option<usize>,
    last_trick_won: Vec<Vec<Card>>,
    draw_pending: bool,
    tricks_played: usize,
    ultimas: Option<usize>,
    tricks_won: Vec<usize>,
    won_cards: Vec<Vec<Card>>,
    card_points: Vec<u32>,
    hand_winner: Option<usize>,
    hand_reason: Option<&'static str>,
}

impl Game {
    /// A game from its setup (`start`). Refuse what you cannot play with
    /// `Failure::unsupported(...)`, and an impossible deal with `Failure::new(BAD_SETUP, ...)`.
    pub fn new(setup: &Setup) -> Result<Game, Failure> {
        // setup.flags is the value of every flag; protocol.rs checked them against FLAGS.
        let (hands, muestra, stock, dealer) = match &setup.deal {
            Deal::Explicit {
                hands,
                muestra,
                stock,
                dealer,
            } => (hands, muestra, stock, dealer),
            Deal::DeckOrder { .. } => {
                // TODO(rules): deal from a deck order (the DEAL- rules and the flag `deal`) to
                // run the scenarios that deal. Until then the suite gives explicit deals.
                return Err(Failure::unsupported(
                    "this engine takes explicit deals only (hands, muestra, stock)",
                    vec!["deal=deck order".to_string()],
                ));
            }
            Deal::Position(_) => {
                // TODO(engine): with the capability "positions", start from a mid-hand position.
                return Err(Failure::unsupported(
                    "this engine does not start from positions",
                    vec!["positions".to_string()],
                ));
            }
        };
        let dealer = match dealer {
            Some(seat) if (0..PLAYERS as i64).contains(seat) => *seat as usize,
            Some(seat) => return Err(Failure::new(BAD_SETUP, format!("dealer {} is not a seat", seat))),
            None => return Err(Failure::new(BAD_SETUP, "the setup has no dealer")),
        };
        if hands.len() != PLAYERS {
            return Err(Failure::new(
                BAD_SETUP,
                format!("{} hands for {} players", hands.len(), PLAYERS),
            ));
        }
        let mut dealt = Vec::new();
        for (seat, hand) in hands.iter().enumerate() {
            if hand.len() != HAND_SIZE {
                let message = format!("seat {} is dealt {} cards, not {}", seat, hand.len(), HAND_SIZE);
                return Err(Failure::new(BAD_SETUP, message));
            }
            dealt.push(parse_cards(hand, &format!("hand {}", seat))?);
        }
        let muestra = match muestra {
            Some(code) => parse_cards(std::slice::from_ref(code), "the muestra")?[0],
            None => return Err(Failure::new(BAD_SETUP, "the setup has no muestra")),
        };
        let stock = parse_cards(stock, "the stock")?;
        // 40 distinct cards of the 40-card deck, each once.
        let deck = deck_40();
        let mut seen = Vec::new();
        for card in dealt
            .iter()
            .flatten()
            .chain(stock.iter())
            .chain(std::iter::once(&muestra))
        {
            if !deck.contains(card) {
                return Err(Failure::new(
                    BAD_SETUP,
                    format!("card {} is not in the 40-card deck", card),
                ));
            }
            if seen.contains(card) {
                return Err(Failure::new(BAD_SETUP, format!("card {} is dealt twice", card)));
            }
            seen.push(*card);
        }
        if seen.len() != deck.len() {
            return Err(Failure::new(
                BAD_SETUP,
                format!("{} cards dealt, not {}", seen.len(), deck.len()),
            ));
        }
        // The mano, first to lead, is the seat after the dealer (PRE-09).
        let mano = next_seat(dealer);
        Ok(Game {
            hands: dealt,
            stock,
            muestra: Some(muestra),
            trump: muestra.suit,
            dealer,
            mano,
            phase: Phase::Free,
            turn: Some(mano),
            leader: mano,
            trick: Vec::new(),
            last_trick: Vec::new(),
            last_trick_winner: None,
            last_trick_won: vec![Vec::new(); SIDES],
            draw_pending: false,
            tricks_played: 0,
            ultimas: None,
            tricks_won: vec![0; SIDES],
            won_cards: vec![Vec::new(); SIDES],
            card_points: vec![0; SIDES],
            hand_winner: None,
            hand_reason: None,
        })
    }

    /// Every action the game accepts now, for any seat.
    pub fn legal(&self) -> Vec<Action> {
        if self.phase != Phase::Free && self.phase != Phase::Arrastre {
            // TODO(rules): after the hand, the deal of the next one (PRE-10; `deal` with an
            // empty deck) and de vueltas (VUELTAS- rules).
            return Vec::new();
        }
        if self.draw_pending {
            // TODO(rules): the cantes (CANTE- rules) and the exchange of the seven (SEVEN-
            // rules) of the trick's winners may come before the draw.
            return vec![Action::Draw];
        }
        let seat = match self.turn {
            Some(seat) => seat,
            None => return Vec::new(),
        };
        self.playable(seat)
            .into_iter()
            .map(|card| Action::Play { seat, card })
            .collect()
    }

    /// The cards `seat` may play now.
    fn playable(&self, seat: usize) -> Vec<Card> {
        let hand = &self.hands[seat];
        if self.phase == Phase::Arrastre {
            if let Some((_, led)) = self.trick.first() {
                // TODO(rules): ARR- rules: overtake the winning card, trump when void, partner
                // exemption (flags overtake_reference, partner_winning_exempts).
                let following: Vec<Card> = hand.iter().copied().filter(|card| card.suit == led.suit).collect();
                if !following.is_empty() {
                    return following;
                }
            }
        }
        // TODO(rules): the free phase plays any card (PLAY- rules); no renuncio (RENUNCIO- rules).
        hand.clone()
    }

    /// Apply one action: accepted with its events, or refused with a reason code.
    pub fn apply(&mut self, action: &Action) -> Outcome {
        match action {
            Action::Play { seat, card } => self.play(*seat, *card),
            Action::Draw => self.draw(),
            Action::DealDeck { .. } | Action::DealExplicit { .. } => {
                if self.phase == Phase::HandOver {
                    // TODO(rules): deal the next hand (PRE-10), de vueltas or a new point.
                    Outcome::refused(HAND_OVER, "this engine plays one hand: the hand is over")
                } else {
                    Outcome::refused(HAND_IN_PROGRESS, "the hand is still being played")
                }
            }
            // TODO(rules): cantes (CANTE- rules), the exchange of the seven (SEVEN- rules),
            // claims of 101 de vueltas (VUELTAS- rules) and tutes (CANTE-21, CANTE-22).
            Action::Cante { .. } | Action::Exchange { .. } | Action::Claim { .. } | Action::Tute { .. } => {
                Outcome::refused(NOT_LEGAL, "this engine has no cantes, exchanges, claims nor tutes yet")
            }
        }
    }

    fn play(&mut self, seat: usize, card: Card) -> Outcome {
        if self.phase != Phase::Free && self.phase != Phase::Arrastre {
            return Outcome::refused(HAND_OVER, "the hand is over");
        }
        if seat >= PLAYERS {
            return Outcome::refused(NO_SUCH_SEAT, format!("there is no seat {}", seat));
        }
        if self.draw_pending {
            return Outcome::refused(MUST_DRAW_FIRST, "the players draw before the next trick");
        }
        if self.turn != Some(seat) {
            return Outcome::refused(
                NOT_YOUR_TURN,
                format!("it is seat {:?}'s turn, not seat {}'s", self.turn, seat),
            );
        }
        if !self.hands[seat].contains(&card) {
            return Outcome::refused(CARD_NOT_IN_HAND, format!("seat {} does not hold {}", seat, card));
        }
        if !self.playable(seat).contains(&card) {
            return Outcome::refused(MUST_FOLLOW_SUIT, format!("seat {} must follow the suit led", seat));
        }
        self.hands[seat].retain(|held| *held != card);
        self.trick.push((seat, card));
        let mut events = vec![Event::CardPlayed { seat, card }];
        if self.trick.len() < PLAYERS {
            self.turn = Some(next_seat(seat));
            return Outcome::Accepted(events);
        }
        // The trick is complete: the highest trump wins it, else the highest card of the suit led.
        let led = self.trick[0].1.suit;
        let trump = self.trump;
        let rank_of = |card: Card| (card.suit != trump, card.suit != led, strength(card));
        let (winner, _) = *self
            .trick
            .iter()
            .min_by_key(|(_, card)| rank_of(*card))
            .expect("a complete trick");
        let cards: Vec<Card> = self.trick.iter().map(|(_, card)| *card).collect();
        let won: u32 = cards.iter().map(|card| points(*card)).sum();
        let side = side_of(winner);
        self.card_points[side] += won;
        self.tricks_won[side] += 1;
        self.won_cards[side].extend(cards.iter().copied());
        self.last_trick_won[side] = cards.clone();
        self.last_trick = cards.clone();
        self.last_trick_winner = Some(winner);
        self.tricks_played += 1;
        self.trick.clear();
        self.leader = winner;
        self.turn = Some(winner);
        events.push(Event::TrickWon {
            seat: winner,
            side,
            points: won,
            cards,
        });
        if self.hands.iter().all(Vec::is_empty) {
            events.extend(self.end_hand(side));
        } else if self.phase == Phase::Free {
            self.draw_pending = true;
        }
        Outcome::Accepted(events)
    }

    fn draw(&mut self) -> Outcome {
        if self.phase != Phase::Free && self.phase != Phase::Arrastre {
            return Outcome::refused(HAND_OVER, "the hand is over");
        }
        if !self.draw_pending {
            return Outcome::refused(NOTHING_TO_DRAW, "no draw is pending");
        }
        // Each seat draws the top card of the stock, the trick's winner first, then in playing
        // order; the last card of the final draw is the muestra.
        let mut draws = Vec::new();
        let mut seat = self.leader;
        for _ in 0..PLAYERS {
            let card = if self.stock.is_empty() {
                self.muestra.take()
            } else {
                Some(self.stock.remove(0))
            };
            match card {
                Some(card) => {
                    self.hands[seat].push(card);
                    draws.push((seat, card));
                }
                None => break, // cannot happen with 40 cards and four players
            }
            seat = next_seat(seat);
        }
        self.draw_pending = false;
        let mut events = vec![Event::CardsDrawn { draws }];
        if self.stock.is_empty() && self.muestra.is_none() {
            self.phase = Phase::Arrastre;
            events.push(Event::ArrastreBegins);
        }
        Outcome::Accepted(events)
    }

    /// The last trick is won: the diez de últimas, then the hand's end.
    fn end_hand(&mut self, last_side: usize) -> Vec<Event> {
        self.ultimas = Some(last_side);
        self.phase = Phase::HandOver;
        self.turn = None;
        let scores: Vec<i64> = (0..SIDES).map(|side| i64::from(self.score(side))).collect();
        // TODO(rules): SCORE- and VUELTAS- rules. Without a side past 100 the hand goes de
        // vueltas (winner null, a `de_vueltas` event); thirty malas (flag thirty_malas), cantes.
        // The skeleton gives the point to a side past 100; without one it says "vueltas".
        let winner = (0..SIDES).find(|side| scores[*side] > 100);
        let reason = if winner.is_some() {
            REASON_OVER_100
        } else {
            REASON_VUELTAS
        };
        self.hand_winner = winner;
        self.hand_reason = Some(reason);
        vec![
            Event::Ultimas {
                side: last_side,
                points: ULTIMAS_POINTS,
            },
            Event::HandOver {
                winner,
                reason,
                rule: None, // with the capability reason_codes: the rule ID that decided the hand
                totals: scores.clone(),
                scores,
                card_points: self.card_points.iter().map(|points| i64::from(*points)).collect(),
            },
        ]
    }

    /// Card points + cantes + últimas this hand (the skeleton sings no cantes).
    fn score(&self, side: usize) -> u32 {
        let ultimas = if self.ultimas == Some(side) { ULTIMAS_POINTS } else { 0 };
        self.card_points[side] + ultimas
    }

    /// The value of a state field of the vocabulary (messages::STATE_FIELDS; shapes in
    /// adapters/schemas/fields.json). `None` for a name that is not a field, or one this engine
    /// is not required to give (`match.*` without "match", `hand_rule` without "reason_codes"):
    /// protocol.rs answers it `unknown_field`.
    pub fn state(&self, field: &str) -> Option<Json> {
        let cards = |cards: &[Card]| Json::Array(cards.iter().map(|card| Json::from(*card)).collect());
        Some(match field {
            "phase" => self.phase.name().into(),
            "players" => PLAYERS.into(),
            "turn" => self.turn.into(),
            "leader" => self.leader.into(),
            "dealer" => self.dealer.into(),
            "mano" => self.mano.into(),
            "trump" => self.trump.to_string().into(),
            "muestra" => self.muestra.into(),
            "stock_count" => (self.stock.len() + usize::from(self.muestra.is_some())).into(),
            "trick" => cards(&self.trick.iter().map(|(_, card)| *card).collect::<Vec<_>>()),
            "trick_seats" => self.trick.iter().map(|(seat, _)| *seat).collect::<Vec<_>>().into(),
            "last_trick" => cards(&self.last_trick),
            "last_trick_winner" => self.last_trick_winner.into(),
            "draw_pending" => self.draw_pending.into(),
            "tricks_played" => self.tricks_played.into(),
            "ultimas" => self.ultimas.into(),
            // TODO(rules): cantes (CANTE- rules), the seven's exchange (SEVEN-), de vueltas (VUELTAS-).
            "cantes" => Json::Array(Vec::new()),
            "sung_suits" => Json::Array(Vec::new()),
            "exchange_done" => false.into(),
            "de_vueltas" => false.into(),
            "hand_in_point" => 0usize.into(),
            "hand_winner" => self.hand_winner.into(),
            "hand_reason" => self.hand_reason.into(),
            _ => return self.indexed(field),
        })
    }

    /// The fields with a seat or a side: `hand.2`, `score.0`...
    fn indexed(&self, field: &str) -> Option<Json> {
        let dot = field.rfind('.')?;
        let (name, digits) = (&field[..dot], &field[dot + 1..]);
        let index: usize = digits.parse().ok()?;
        if index.to_string() != digits {
            return None; // "01", "+1": not the vocabulary's way to write a seat
        }
        let cards = |cards: &[Card]| Json::Array(cards.iter().map(|card| Json::from(*card)).collect());
        match name {
            "hand" if index < PLAYERS => Some(cards(&self.hands[index])),
            "hand_size" if index < PLAYERS => Some(self.hands[index].len().into()),
            _ if index >= SIDES => None,
            "card_points" => Some(self.card_points[index].into()),
            "cante_points" => Some(0usize.into()),
            "score" => Some(self.score(index).into()),
            // TODO(rules): what earlier hands de vueltas carried (VUELTAS- rules).
            "total" => Some(self.score(index).into()),
            "tricks_won" => Some(self.tricks_won[index].into()),
            "won_cards" => Some(cards(&self.won_cards[index])),
            "last_trick_won" => Some(cards(&self.last_trick_won[index])),
            _ => None,
        }
    }

    /// The field as `seat` sees it (hidden information is `null`). Only asked when
    /// CAPABILITIES has "observations". TODO(engine): hide the other seats' hands, the stock...
    pub fn observe(&self, seat: usize, field: &str) -> Option<Json> {
        if seat >= PLAYERS {
            return None;
        }
        self.state(field)
    }
}
