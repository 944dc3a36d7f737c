//! The messages of GCP/2 as Rust types, and the names of the vocabulary as constants.
//!
//! The names come from the JSON Schemas (adapters/schemas/*.json) and the vocabulary
//! (adapters/vocabulary.py) of the conformance suite. Requests are read here from JSON into
//! types, and actions and events are written back to JSON here, so the game (game.rs) works with
//! types only and never sees the wire.
// The whole vocabulary is here, used or not yet: the game you write will need more of it.
#![allow(dead_code)]

use crate::json::Json;
use std::fmt;

/// The protocol version this kit is written for.
pub const PROTOCOL: i64 = 2;

// ------------------------------------------------------------------------------------ commands

pub const CMD_HELLO: &str = "hello";
pub const CMD_START: &str = "start";
pub const CMD_LEGAL: &str = "legal";
pub const CMD_APPLY: &str = "apply";
pub const CMD_STATE: &str = "state";
pub const CMD_OBSERVE: &str = "observe";
pub const CMD_END: &str = "end";
pub const CMD_STOP: &str = "stop";
/// Optional (capability `batch`): the loop answers it for any game (protocol.rs, `batch`).
pub const CMD_BATCH: &str = "batch";

// --------------------------------------------------------------------------------- error codes

pub const UNSUPPORTED_PROTOCOL: &str = "unsupported_protocol";
pub const UNSUPPORTED: &str = "unsupported";
pub const BAD_SETUP: &str = "bad_setup";
pub const UNKNOWN_GAME: &str = "unknown_game";
pub const UNKNOWN_FIELD: &str = "unknown_field";
pub const BAD_REQUEST: &str = "bad_request";
pub const ENGINE_ERROR: &str = "engine_error";

// ------------------------------------------------------------------------------- capabilities

pub const CAP_POSITIONS: &str = "positions";
pub const CAP_OBSERVATIONS: &str = "observations";
pub const CAP_REASON_CODES: &str = "reason_codes";
pub const CAP_MATCH: &str = "match";
pub const CAP_AUTOMATIC_DRAW: &str = "automatic_draw";
pub const CAP_OWN_SHUFFLE: &str = "own_shuffle";
pub const CAP_BATCH: &str = "batch";

// ------------------------------------------------------------------------------- reason codes
// The reason codes of a refused action (vocabulary.py REASON_CODES), with the rule each enforces.

pub const NOT_YOUR_TURN: &str = "NOT_YOUR_TURN"; // PLAY-02 / RENUNCIO-04
pub const CARD_NOT_IN_HAND: &str = "CARD_NOT_IN_HAND"; // PLAY-02
pub const MUST_DRAW_FIRST: &str = "MUST_DRAW_FIRST"; // PLAY-09
pub const NOTHING_TO_DRAW: &str = "NOTHING_TO_DRAW"; // PLAY-08
pub const MUST_FOLLOW_SUIT: &str = "MUST_FOLLOW_SUIT"; // ARR-01
pub const MUST_BEAT: &str = "MUST_BEAT"; // ARR-02 / ARR-10
pub const MUST_TRUMP: &str = "MUST_TRUMP"; // ARR-03
pub const MUST_OVERTRUMP: &str = "MUST_OVERTRUMP"; // ARR-04
pub const CANTE_NO_WON_TRICK: &str = "CANTE_NO_WON_TRICK"; // CANTE-05
pub const CANTE_SUIT_ALREADY_SUNG: &str = "CANTE_SUIT_ALREADY_SUNG"; // CANTE-11
pub const CANTE_NO_PAIR: &str = "CANTE_NO_PAIR"; // CANTE-19
pub const CANTE_ONE_PER_TRICK: &str = "CANTE_ONE_PER_TRICK"; // CANTE-10
pub const CANTE_FORTY_FIRST: &str = "CANTE_FORTY_FIRST"; // CANTE-12
pub const TUTE_NOT_PLAYED: &str = "TUTE_NOT_PLAYED"; // CANTE-21
pub const TUTE_NOT_HELD: &str = "TUTE_NOT_HELD"; // CANTE-22
pub const EXCHANGE_NO_MUESTRA: &str = "EXCHANGE_NO_MUESTRA"; // SEVEN-06
pub const EXCHANGE_MUESTRA_NOT_ELIGIBLE: &str = "EXCHANGE_MUESTRA_NOT_ELIGIBLE"; // SEVEN-02 / SEVEN-09
pub const EXCHANGE_CARD_NOT_HELD: &str = "EXCHANGE_CARD_NOT_HELD"; // SEVEN-01
pub const EXCHANGE_NO_WON_TRICK: &str = "EXCHANGE_NO_WON_TRICK"; // SEVEN-03 / SEVEN-04 / SEVEN-05
pub const EXCHANGE_WINDOW_CLOSED: &str = "EXCHANGE_WINDOW_CLOSED"; // SEVEN-03
pub const CLAIM_NOT_ALLOWED: &str = "CLAIM_NOT_ALLOWED"; // VUELTAS-05
pub const CLAIM_NOT_NOW: &str = "CLAIM_NOT_NOW"; // VUELTAS-05
pub const CLAIM_NOT_TRICK_WINNER: &str = "CLAIM_NOT_TRICK_WINNER"; // VUELTAS-05
pub const HAND_OVER: &str = "HAND_OVER"; // SCORE-02
pub const HAND_IN_PROGRESS: &str = "HAND_IN_PROGRESS"; // PRE-10
pub const MATCH_OVER: &str = "MATCH_OVER"; // MATCH-05
pub const NO_SUCH_SEAT: &str = "NO_SUCH_SEAT"; // PRE-01
/// Not one of the vocabulary's: the code protocol.md gives for a malformed action (an unknown
/// type, a seat that is not a number...), the one the reference engine uses.
pub const BAD_ACTION: &str = "BAD_ACTION";
/// Not one of the vocabulary's: the skeleton's code for an action of the vocabulary that it
/// never allows (a cante, an exchange... before you implement them). Without the capability
/// `reason_codes` the suite checks that such an action is refused, not its code.
pub const NOT_LEGAL: &str = "NOT_LEGAL";

// ---------------------------------------------------------------------------- hand-end reasons
// Why a hand ended (vocabulary.py HAND_END_REASONS): `hand_over.reason` and `hand_reason`.

pub const REASON_OVER_100: &str = "over_100";
pub const REASON_VUELTAS: &str = "vueltas";
pub const REASON_THIRTY_MALAS_LOSE: &str = "thirty_malas_lose";
pub const REASON_THIRTY_MALAS_CANNOT_WIN: &str = "thirty_malas_cannot_win";
pub const REASON_THIRTY_MALAS_VUELTAS: &str = "thirty_malas_vueltas";
pub const REASON_VUELTAS_REACHED_101: &str = "vueltas_reached_101";
pub const REASON_CLAIM_CORRECT: &str = "claim_correct";
pub const REASON_CLAIM_FALSE: &str = "claim_false";
pub const REASON_TUTE: &str = "tute";
pub const REASON_RENUNCIO: &str = "renuncio";

// ---------------------------------------------------------------------------------- the fields
// The state fields of the vocabulary (vocabulary.py STATE_FIELDS; shapes in fields.json).
// `<seat>` and `<side>` stand for an index: `hand.0`, `score.1`.

pub const STATE_FIELDS: &[&str] = &[
    "phase",
    "players",
    "turn",
    "leader",
    "dealer",
    "mano",
    "trump",
    "muestra",
    "stock_count",
    "trick",
    "trick_seats",
    "last_trick",
    "last_trick_winner",
    "draw_pending",
    "tricks_played",
    "ultimas",
    "cantes",
    "sung_suits",
    "exchange_done",
    "de_vueltas",
    "hand_in_point",
    "hand_winner",
    "hand_reason",
    "hand_rule",
    "match.winner",
    "hand.<seat>",
    "hand_size.<seat>",
    "card_points.<side>",
    "cante_points.<side>",
    "score.<side>",
    "total.<side>",
    "tricks_won.<side>",
    "won_cards.<side>",
    "last_trick_won.<side>",
    "match.points.<side>",
    "match.cotos.<side>",
];

/// Values of the field `phase`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Free,
    Arrastre,
    HandOver,
    MatchOver,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Free => "free",
            Phase::Arrastre => "arrastre",
            Phase::HandOver => "hand_over",
            Phase::MatchOver => "match_over",
        }
    }
}

// ----------------------------------------------------------------------------------- the cards

/// The suits, in the notation's order: oros, copas, espadas, bastos.
pub const SUITS: [char; 4] = ['o', 'c', 'e', 'b'];
/// Every rank of the notation (A 3 R S C 9 8 7 6 5 4 2); a 40-card deck has no 8 nor 9.
pub const RANKS: [char; 12] = ['A', '3', 'R', 'S', 'C', '9', '8', '7', '6', '5', '4', '2'];

/// A card of the notation: a rank and a suit, written "Ao" (as de oros), "3c", "Rb"...
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card {
    pub rank: char,
    pub suit: char,
}

impl Card {
    /// The card a code names, or `None` when it is not two characters of the notation.
    pub fn parse(code: &str) -> Option<Card> {
        let mut characters = code.chars();
        let rank = characters.next()?;
        let suit = characters.next()?;
        if characters.next().is_some() || !RANKS.contains(&rank) || !SUITS.contains(&suit) {
            return None;
        }
        Some(Card { rank, suit })
    }
}

impl fmt::Display for Card {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "{}{}", self.rank, self.suit)
    }
}

impl From<Card> for Json {
    fn from(card: Card) -> Json {
        Json::Str(card.to_string())
    }
}

fn cards_json(cards: &[Card]) -> Json {
    Json::Array(cards.iter().map(|card| Json::from(*card)).collect())
}

// ------------------------------------------------------------------------------------ requests

/// A request that could not be served: an error answer `{"ok": false, "error": code, ...}`.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    /// One of the error codes above.
    pub code: &'static str,
    pub message: String,
    /// For `unsupported`: the `flag=value` pairs (or capability names) missing.
    pub unsupported: Vec<String>,
}

impl Failure {
    pub fn new(code: &'static str, message: impl Into<String>) -> Failure {
        Failure {
            code,
            message: message.into(),
            unsupported: Vec::new(),
        }
    }

    pub fn unsupported(message: impl Into<String>, missing: Vec<String>) -> Failure {
        Failure {
            code: UNSUPPORTED,
            message: message.into(),
            unsupported: missing,
        }
    }
}

/// How a game starts (common.json#/$defs/setup). Cards stay text here: the game checks them
/// and answers `bad_setup` for a card that is not one.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    /// The value of every flag, in the order the harness gave them.
    pub flags: Vec<(String, String)>,
    pub deal: Deal,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Deal {
    /// A deck order, top card first, and the dealer.
    DeckOrder { deck: Vec<String>, dealer: Option<i64> },
    /// An explicit deal: the hands in seat order, the muestra, the stock (top first, without the
    /// muestra) and the dealer.
    Explicit {
        hands: Vec<Vec<String>>,
        muestra: Option<String>,
        stock: Vec<String>,
        dealer: Option<i64>,
    },
    /// A mid-hand position (capability `positions`), as the harness sent it.
    Position(Json),
}

/// One request of the harness, read from its JSON line.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    Hello {
        protocol: i64,
    },
    Start {
        setup: Setup,
    },
    Legal {
        game: String,
    },
    /// The action stays unread (`Err` with the reason) when it is malformed: the answer is then a
    /// refusal (`BAD_ACTION`), after the game id is checked.
    Apply {
        game: String,
        action: Result<Action, String>,
    },
    State {
        game: String,
        field: String,
    },
    Observe {
        game: String,
        seat: Json,
        field: String,
    },
    End {
        game: String,
    },
    /// Several actions applied in turn (capability `batch`): each is read as `Apply` reads its
    /// action; `step_fields[i]`, when given, are the fields after action `i`, else `fields`.
    Batch {
        game: String,
        actions: Vec<Result<Action, String>>,
        fields: Vec<String>,
        step_fields: Option<Vec<Vec<String>>>,
    },
    Stop,
}

/// A list of field names, or `None` when the value is not one.
fn names_of(value: &Json) -> Option<Vec<String>> {
    value
        .as_array()?
        .iter()
        .map(|name| name.as_str().map(str::to_string))
        .collect()
}

fn string_member(request: &Json, name: &str) -> Result<String, Failure> {
    match request.get(name) {
        Some(Json::Str(text)) => Ok(text.clone()),
        Some(_) => Err(Failure::new(BAD_REQUEST, format!("'{}' must be a string", name))),
        None => Err(Failure::new(BAD_REQUEST, format!("the request has no '{}'", name))),
    }
}

fn string_list(value: &Json, what: &str) -> Result<Vec<String>, Failure> {
    let items = value
        .as_array()
        .ok_or_else(|| Failure::new(BAD_SETUP, format!("{} must be a list", what)))?;
    items
        .iter()
        .map(|item| {
            item.as_str()
                .map(str::to_string)
                .ok_or_else(|| Failure::new(BAD_SETUP, format!("{} must hold card codes (strings)", what)))
        })
        .collect()
}

fn dealer_of(setup: &Json) -> Result<Option<i64>, Failure> {
    match setup.get("dealer") {
        None => Ok(None),
        Some(value) => match value.as_i64() {
            Some(seat) => Ok(Some(seat)),
            None => Err(Failure::new(BAD_SETUP, "the dealer must be a seat number")),
        },
    }
}

impl Setup {
    pub fn parse(setup: &Json) -> Result<Setup, Failure> {
        let flags = match setup.get("flags").and_then(Json::as_object) {
            Some(members) => members,
            None => {
                return Err(Failure::new(
                    BAD_REQUEST,
                    "start needs a setup with its flags (an object)",
                ))
            }
        };
        let mut values = Vec::new();
        for (flag, value) in flags {
            match value.as_str() {
                Some(text) => values.push((flag.clone(), text.to_string())),
                None => {
                    return Err(Failure::new(
                        BAD_REQUEST,
                        format!("the value of flag {:?} must be a string", flag),
                    ))
                }
            }
        }
        let deal = if let Some(position) = setup.get("position") {
            Deal::Position(position.clone())
        } else if let Some(deck) = setup.get("deck") {
            Deal::DeckOrder {
                deck: string_list(deck, "the deck")?,
                dealer: dealer_of(setup)?,
            }
        } else if let Some(hands) = setup.get("hands") {
            let lists = hands
                .as_array()
                .ok_or_else(|| Failure::new(BAD_SETUP, "the hands must be a list of lists"))?;
            let hands = lists
                .iter()
                .map(|hand| string_list(hand, "a hand"))
                .collect::<Result<Vec<_>, _>>()?;
            let muestra = match setup.get("muestra") {
                None | Some(Json::Null) => None,
                Some(Json::Str(card)) => Some(card.clone()),
                Some(_) => return Err(Failure::new(BAD_SETUP, "the muestra must be a card code")),
            };
            let stock = match setup.get("stock") {
                Some(stock) => string_list(stock, "the stock")?,
                None => Vec::new(),
            };
            Deal::Explicit {
                hands,
                muestra,
                stock,
                dealer: dealer_of(setup)?,
            }
        } else {
            return Err(Failure::new(
                BAD_SETUP,
                "the setup has no deck, no hands and no position",
            ));
        };
        Ok(Setup { flags: values, deal })
    }
}

impl Request {
    /// Read a request (a JSON object with its `cmd`); its `id` is read by the protocol loop.
    pub fn parse(request: &Json) -> Result<Request, Failure> {
        let command = match request.get("cmd") {
            Some(Json::Str(command)) => command.as_str(),
            Some(_) => return Err(Failure::new(BAD_REQUEST, "'cmd' must be a string")),
            None => return Err(Failure::new(BAD_REQUEST, "the request has no 'cmd'")),
        };
        let game = || string_member(request, "game");
        Ok(match command {
            CMD_HELLO => match request.get("protocol").and_then(Json::as_i64) {
                Some(protocol) => Request::Hello { protocol },
                None => {
                    return Err(Failure::new(
                        BAD_REQUEST,
                        "hello needs the protocol version (an integer)",
                    ))
                }
            },
            CMD_START => match request.get("setup") {
                Some(setup) => Request::Start {
                    setup: Setup::parse(setup)?,
                },
                None => return Err(Failure::new(BAD_REQUEST, "start needs a setup")),
            },
            CMD_LEGAL => Request::Legal { game: game()? },
            CMD_APPLY => {
                let game = game()?;
                let action = match request.get("action") {
                    Some(action) => Action::parse(action),
                    None => Err("the request has no action".to_string()),
                };
                Request::Apply { game, action }
            }
            CMD_STATE => Request::State {
                game: game()?,
                field: string_member(request, "field")?,
            },
            CMD_OBSERVE => Request::Observe {
                game: game()?,
                seat: request.get("seat").cloned().unwrap_or(Json::Null),
                field: string_member(request, "field")?,
            },
            CMD_END => Request::End { game: game()? },
            CMD_BATCH => {
                let game = game()?;
                let actions: Vec<Result<Action, String>> = match request.get("actions").and_then(Json::as_array) {
                    Some(items) if items.iter().all(|item| item.as_object().is_some()) => {
                        items.iter().map(Action::parse).collect()
                    }
                    _ => {
                        return Err(Failure::new(
                            BAD_REQUEST,
                            "batch needs an 'actions' list of action objects",
                        ))
                    }
                };
                let fields = match request.get("fields").and_then(names_of) {
                    Some(fields) => fields,
                    None => return Err(Failure::new(BAD_REQUEST, "batch needs a 'fields' list of field names")),
                };
                let step_fields = match request.get("step_fields") {
                    None | Some(Json::Null) => None,
                    Some(lists) => match lists
                        .as_array()
                        .and_then(|lists| lists.iter().map(names_of).collect::<Option<Vec<Vec<String>>>>())
                    {
                        Some(lists) if lists.len() == actions.len() => Some(lists),
                        _ => {
                            return Err(Failure::new(
                                BAD_REQUEST,
                                "batch 'step_fields' needs one list of field names per action",
                            ))
                        }
                    },
                };
                Request::Batch {
                    game,
                    actions,
                    fields,
                    step_fields,
                }
            }
            CMD_STOP => Request::Stop,
            other => return Err(Failure::new(BAD_REQUEST, format!("unknown command {:?}", other))),
        })
    }
}

// ------------------------------------------------------------------------------------- actions

/// The JSON names of the action types (vocabulary.py ACTION_TYPES).
pub const ACTION_PLAY: &str = "play";
pub const ACTION_CANTE: &str = "cante";
pub const ACTION_EXCHANGE: &str = "exchange";
pub const ACTION_DRAW: &str = "draw";
pub const ACTION_CLAIM: &str = "claim";
pub const ACTION_TUTE: &str = "tute";
pub const ACTION_DEAL: &str = "deal";

/// An action, as `legal` lists it and `apply` receives it. Seats are any non-negative number
/// here: the game refuses a seat that does not exist (`NO_SUCH_SEAT`).
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    Play {
        seat: usize,
        card: Card,
    },
    Cante {
        seat: usize,
        suit: char,
    },
    Exchange {
        seat: usize,
    },
    Draw,
    Claim {
        seat: usize,
    },
    /// `rank` is 'R' (four reyes) or 'S' (four sotas).
    Tute {
        seat: usize,
        rank: char,
    },
    /// The next hand from a deck order (top first; empty in `legal`: any order).
    DealDeck {
        deck: Vec<Card>,
    },
    /// The next hand as an explicit deal (sent only to an engine that refuses deck orders).
    DealExplicit {
        hands: Vec<Vec<Card>>,
        muestra: Card,
        stock: Vec<Card>,
    },
}

fn seat_of(action: &Json) -> Result<usize, String> {
    match action.get("seat") {
        Some(Json::Int(seat)) if *seat >= 0 => Ok(*seat as usize),
        Some(other) => Err(format!("the seat must be a number of seat, not {}", other)),
        None => Err("the action has no seat".to_string()),
    }
}

fn card_of(value: Option<&Json>, what: &str) -> Result<Card, String> {
    match value {
        Some(Json::Str(code)) => Card::parse(code).ok_or_else(|| format!("{:?} is not a card code", code)),
        Some(other) => Err(format!("{} must be a card code, not {}", what, other)),
        None => Err(format!("the action has no {}", what)),
    }
}

fn cards_of(value: Option<&Json>, what: &str) -> Result<Vec<Card>, String> {
    match value {
        Some(Json::Array(items)) => items.iter().map(|item| card_of(Some(item), what)).collect(),
        _ => Err(format!("{} must be a list of card codes", what)),
    }
}

fn letter_of(action: &Json, name: &str, allowed: &[char]) -> Result<char, String> {
    let text = action.get(name).and_then(Json::as_str).unwrap_or("");
    let mut characters = text.chars();
    match (characters.next(), characters.next()) {
        (Some(letter), None) if allowed.contains(&letter) => Ok(letter),
        _ => Err(format!("the action's {} must be one of {:?}", name, allowed)),
    }
}

impl Action {
    /// Read an action; `Err` says why it is malformed (the game never sees it).
    pub fn parse(action: &Json) -> Result<Action, String> {
        let kind = match action.get("type") {
            Some(Json::Str(kind)) => kind.as_str(),
            _ => return Err("an action is an object with a 'type' (a string)".to_string()),
        };
        match kind {
            ACTION_PLAY => Ok(Action::Play {
                seat: seat_of(action)?,
                card: card_of(action.get("card"), "card")?,
            }),
            ACTION_CANTE => Ok(Action::Cante {
                seat: seat_of(action)?,
                suit: letter_of(action, "suit", &SUITS)?,
            }),
            ACTION_EXCHANGE => Ok(Action::Exchange { seat: seat_of(action)? }),
            ACTION_DRAW => Ok(Action::Draw),
            ACTION_CLAIM => Ok(Action::Claim { seat: seat_of(action)? }),
            ACTION_TUTE => Ok(Action::Tute {
                seat: seat_of(action)?,
                rank: letter_of(action, "rank", &['R', 'S'])?,
            }),
            ACTION_DEAL => match (action.get("deck"), action.get("hands")) {
                (Some(deck), None) => Ok(Action::DealDeck {
                    deck: cards_of(Some(deck), "the deck")?,
                }),
                (None, Some(Json::Array(hands))) => Ok(Action::DealExplicit {
                    hands: hands
                        .iter()
                        .map(|hand| cards_of(Some(hand), "a hand"))
                        .collect::<Result<_, _>>()?,
                    muestra: card_of(action.get("muestra"), "muestra")?,
                    stock: cards_of(action.get("stock"), "the stock")?,
                }),
                _ => Err("a deal has either a deck or hands, muestra and stock".to_string()),
            },
            other => Err(format!("unknown action type {:?}", other)),
        }
    }

    /// The vocabulary's JSON form (what `legal` lists).
    pub fn to_json(&self) -> Json {
        match self {
            Action::Play { seat, card } => Json::object(vec![
                ("type", ACTION_PLAY.into()),
                ("seat", (*seat).into()),
                ("card", (*card).into()),
            ]),
            Action::Cante { seat, suit } => Json::object(vec![
                ("type", ACTION_CANTE.into()),
                ("seat", (*seat).into()),
                ("suit", suit.to_string().into()),
            ]),
            Action::Exchange { seat } => Json::object(vec![("type", ACTION_EXCHANGE.into()), ("seat", (*seat).into())]),
            Action::Draw => Json::object(vec![("type", ACTION_DRAW.into())]),
            Action::Claim { seat } => Json::object(vec![("type", ACTION_CLAIM.into()), ("seat", (*seat).into())]),
            Action::Tute { seat, rank } => Json::object(vec![
                ("type", ACTION_TUTE.into()),
                ("seat", (*seat).into()),
                ("rank", rank.to_string().into()),
            ]),
            Action::DealDeck { deck } => Json::object(vec![("type", ACTION_DEAL.into()), ("deck", cards_json(deck))]),
            Action::DealExplicit { hands, muestra, stock } => Json::object(vec![
                ("type", ACTION_DEAL.into()),
                (
                    "hands",
                    Json::Array(hands.iter().map(|hand| cards_json(hand)).collect()),
                ),
                ("muestra", (*muestra).into()),
                ("stock", cards_json(stock)),
            ]),
        }
    }
}

// -------------------------------------------------------------------------------------- events

/// The events of the vocabulary (vocabulary.py EVENT_TYPES; members in common.json#/$defs/event).
/// Members that only some engines must give are `Option`s: `None` leaves them out.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    CardPlayed {
        seat: usize,
        card: Card,
    },
    TrickWon {
        seat: usize,
        side: usize,
        points: u32,
        cards: Vec<Card>,
    },
    /// `[seat, card]` pairs in drawing order.
    CardsDrawn {
        draws: Vec<(usize, Card)>,
    },
    ArrastreBegins,
    Cante {
        seat: usize,
        side: usize,
        suit: char,
        value: u32,
    },
    Exchange {
        seat: usize,
        gave: Card,
        took: Card,
    },
    Ultimas {
        side: usize,
        points: u32,
    },
    /// `card` for a card played, `suit` for a cante sung without a won trick; `code` and `rule`
    /// with the capability `reason_codes`.
    Renuncio {
        seat: usize,
        card: Option<Card>,
        suit: Option<char>,
        code: Option<String>,
        rule: Option<String>,
    },
    Claim {
        seat: usize,
        side: usize,
        valid: bool,
    },
    Tute {
        seat: usize,
        side: usize,
        rank: char,
    },
    /// `winner` is `None` for a hand that goes de vueltas; `rule` with `reason_codes`.
    HandOver {
        winner: Option<usize>,
        reason: &'static str,
        rule: Option<String>,
        scores: Vec<i64>,
        totals: Vec<i64>,
        card_points: Vec<i64>,
    },
    DeVueltas {
        totals: Vec<i64>,
    },
    /// `points` and `cotos` with the capability `match`.
    PointWon {
        side: usize,
        points: Option<Vec<i64>>,
        cotos: Option<Vec<i64>>,
    },
    CotoWon {
        side: usize,
    },
    MatchWon {
        side: usize,
    },
    HandDealt {
        dealer: usize,
        mano: usize,
        muestra: Card,
    },
}

impl Event {
    pub fn to_json(&self) -> Json {
        let typed = |kind: &str, mut members: Vec<(&str, Json)>| {
            members.insert(0, ("type", kind.into()));
            Json::object(members)
        };
        match self {
            Event::CardPlayed { seat, card } => {
                typed("card_played", vec![("seat", (*seat).into()), ("card", (*card).into())])
            }
            Event::TrickWon {
                seat,
                side,
                points,
                cards,
            } => typed(
                "trick_won",
                vec![
                    ("seat", (*seat).into()),
                    ("side", (*side).into()),
                    ("points", (*points).into()),
                    ("cards", cards_json(cards)),
                ],
            ),
            Event::CardsDrawn { draws } => typed(
                "cards_drawn",
                vec![(
                    "draws",
                    Json::Array(
                        draws
                            .iter()
                            .map(|(seat, card)| Json::Array(vec![(*seat).into(), (*card).into()]))
                            .collect(),
                    ),
                )],
            ),
            Event::ArrastreBegins => typed("arrastre_begins", vec![]),
            Event::Cante {
                seat,
                side,
                suit,
                value,
            } => typed(
                "cante",
                vec![
                    ("seat", (*seat).into()),
                    ("side", (*side).into()),
                    ("suit", suit.to_string().into()),
                    ("value", (*value).into()),
                ],
            ),
            Event::Exchange { seat, gave, took } => typed(
                "exchange",
                vec![
                    ("seat", (*seat).into()),
                    ("gave", (*gave).into()),
                    ("took", (*took).into()),
                ],
            ),
            Event::Ultimas { side, points } => {
                typed("ultimas", vec![("side", (*side).into()), ("points", (*points).into())])
            }
            Event::Renuncio {
                seat,
                card,
                suit,
                code,
                rule,
            } => {
                let mut members = vec![("seat", (*seat).into())];
                if let Some(card) = card {
                    members.push(("card", (*card).into()));
                }
                if let Some(suit) = suit {
                    members.push(("suit", suit.to_string().into()));
                }
                if let Some(code) = code {
                    members.push(("code", code.clone().into()));
                }
                if let Some(rule) = rule {
                    members.push(("rule", rule.clone().into()));
                }
                typed("renuncio", members)
            }
            Event::Claim { seat, side, valid } => typed(
                "claim",
                vec![
                    ("seat", (*seat).into()),
                    ("side", (*side).into()),
                    ("valid", (*valid).into()),
                ],
            ),
            Event::Tute { seat, side, rank } => typed(
                "tute",
                vec![
                    ("seat", (*seat).into()),
                    ("side", (*side).into()),
                    ("rank", rank.to_string().into()),
                ],
            ),
            Event::HandOver {
                winner,
                reason,
                rule,
                scores,
                totals,
                card_points,
            } => {
                let mut members = vec![("winner", (*winner).into()), ("reason", (*reason).into())];
                if let Some(rule) = rule {
                    members.push(("rule", rule.clone().into()));
                }
                members.push(("scores", scores.clone().into()));
                members.push(("totals", totals.clone().into()));
                members.push(("card_points", card_points.clone().into()));
                typed("hand_over", members)
            }
            Event::DeVueltas { totals } => typed("de_vueltas", vec![("totals", totals.clone().into())]),
            Event::PointWon { side, points, cotos } => {
                let mut members = vec![("side", (*side).into())];
                if let Some(points) = points {
                    members.push(("points", points.clone().into()));
                }
                if let Some(cotos) = cotos {
                    members.push(("cotos", cotos.clone().into()));
                }
                typed("point_won", members)
            }
            Event::CotoWon { side } => typed("coto_won", vec![("side", (*side).into())]),
            Event::MatchWon { side } => typed("match_won", vec![("side", (*side).into())]),
            Event::HandDealt { dealer, mano, muestra } => typed(
                "hand_dealt",
                vec![
                    ("dealer", (*dealer).into()),
                    ("mano", (*mano).into()),
                    ("muestra", (*muestra).into()),
                ],
            ),
        }
    }
}

// ------------------------------------------------------------------------------------- answers

/// The answer of `apply`: accepted with its events, or refused (a normal answer, not an error).
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    Accepted(Vec<Event>),
    /// `code`: a reason code above; `rule`: the rule ID (required with `reason_codes` only).
    Refused {
        code: &'static str,
        rule: Option<&'static str>,
        message: String,
    },
}

impl Outcome {
    pub fn refused(code: &'static str, message: impl Into<String>) -> Outcome {
        Outcome::Refused {
            code,
            rule: None,
            message: message.into(),
        }
    }

    /// The members of the answer after `id` and `ok`.
    pub fn members(&self) -> Vec<(&'static str, Json)> {
        match self {
            Outcome::Accepted(events) => {
                vec![
                    ("accepted", true.into()),
                    ("events", Json::Array(events.iter().map(Event::to_json).collect())),
                ]
            }
            Outcome::Refused { code, rule, message } => {
                let mut members = vec![("accepted", false.into()), ("code", (*code).into())];
                if let Some(rule) = rule {
                    members.push(("rule", (*rule).into()));
                }
                members.push(("message", message.clone().into()));
                members
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards() {
        assert_eq!(Card::parse("Ao"), Some(Card { rank: 'A', suit: 'o' }));
        assert_eq!(Card::parse("7b").unwrap().to_string(), "7b");
        for bad in ["", "A", "Aoo", "1o", "Ax", "ao"] {
            assert_eq!(Card::parse(bad), None, "{:?}", bad);
        }
    }

    #[test]
    fn actions_round_trip() {
        for text in [
            r#"{"type":"play","seat":1,"card":"4e"}"#,
            r#"{"type":"draw"}"#,
            r#"{"type":"cante","seat":0,"suit":"o"}"#,
            r#"{"type":"tute","seat":3,"rank":"S"}"#,
            r#"{"type":"deal","deck":[]}"#,
            r#"{"type":"deal","hands":[["Ao"],["3o"]],"muestra":"4b","stock":["Rb"]}"#,
        ] {
            let action = Action::parse(&Json::parse(text).unwrap()).unwrap();
            assert_eq!(action.to_json().to_string(), text);
        }
    }

    #[test]
    fn malformed_actions() {
        for text in [
            r#"{"type":"no_such_action"}"#,
            r#"{"type":"play","seat":"1","card":"4e"}"#,
            r#"{"type":"play","seat":-1,"card":"4e"}"#,
            r#"{"type":"play","seat":1.5,"card":"4e"}"#,
            r#"{"type":"play","seat":1,"card":"Zz"}"#,
            r#"{"type":"cante","seat":1,"suit":"x"}"#,
            r#"{"type":"deal"}"#,
            r#"{"seat":1}"#,
            r#"[1]"#,
        ] {
            assert!(Action::parse(&Json::parse(text).unwrap()).is_err(), "{}", text);
        }
    }

    #[test]
    fn requests() {
        let request = Json::parse(r#"{"id":3,"cmd":"legal","game":"g1"}"#).unwrap();
        assert_eq!(Request::parse(&request), Ok(Request::Legal { game: "g1".into() }));
        let unknown = Json::parse(r#"{"id":3,"cmd":"frobnicate"}"#).unwrap();
        assert_eq!(Request::parse(&unknown).unwrap_err().code, BAD_REQUEST);
        let apply = Json::parse(r#"{"id":4,"cmd":"apply","game":"g1","action":{"type":"x"}}"#).unwrap();
        assert!(matches!(
            Request::parse(&apply),
            Ok(Request::Apply { action: Err(_), .. })
        ));
    }

    #[test]
    fn hand_over_members() {
        let event = Event::HandOver {
            winner: None,
            reason: REASON_VUELTAS,
            rule: None,
            scores: vec![60, 70],
            totals: vec![60, 70],
            card_points: vec![60, 60],
        };
        assert_eq!(
            event.to_json().to_string(),
            r#"{"type":"hand_over","winner":null,"reason":"vueltas","scores":[60,70],"totals":[60,70],"card_points":[60,60]}"#
        );
    }
}
