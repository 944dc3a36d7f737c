//! A small JSON value type, a strict parser and a writer (standard library only).
//!
//! The protocol's lines are JSON as RFC 8259 writes it, with the stricter rules of I-JSON
//! (RFC 7493): no NaN or Infinity, no lone surrogate, no number beyond the range of a double,
//! no member name twice in one object, at most 254 levels of nesting. The parser refuses
//! everything else with an error that says what and where, so a malformed request becomes a
//! `bad_request` answer, never a crash. The writer escapes the control characters and writes
//! non-finite numbers as `null` (they cannot be JSON).
// A small library: the skeleton does not call every accessor yet, your game may.
#![allow(dead_code)]

use std::fmt;

/// Deepest nesting of arrays and objects the parser accepts (protocol.md, "Strict JSON").
pub const MAX_DEPTH: usize = 254;

/// A JSON value. Objects keep their members in order (a `Vec`, not a map): answers are written
/// in the order they were built, and a name given twice is refused by the parser.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    /// A number written without fraction or exponent that fits in an i64.
    Int(i64),
    /// Any other number (always finite).
    Float(f64),
    Str(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    /// An object from `(name, value)` pairs: `Json::object(vec![("ok", true.into())])`.
    pub fn object(members: Vec<(&str, Json)>) -> Json {
        Json::Object(
            members
                .into_iter()
                .map(|(name, value)| (name.to_string(), value))
                .collect(),
        )
    }

    /// The member `name` of an object (`None` for a missing member or a value that is not an object).
    pub fn get(&self, name: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members.iter().find(|(key, _)| key == name).map(|(_, value)| value),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(text) => Some(text),
            _ => None,
        }
    }

    /// An integer: an `Int`, or a `Float` with no fraction that fits (JSON does not tell `1`
    /// from `1.0`; the protocol wants ids written `1`, which `Json::Int` writes).
    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            Json::Int(number) => Some(number),
            Json::Float(number) if number.fract() == 0.0 && number.abs() < 9.2e18 => Some(number as i64),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            Json::Bool(value) => Some(value),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&Vec<Json>> {
        match self {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }

    pub fn as_object(&self) -> Option<&Vec<(String, Json)>> {
        match self {
            Json::Object(members) => Some(members),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Json::Null)
    }

    /// Parse one JSON text (a whole line of the protocol).
    pub fn parse(text: &str) -> Result<Json, ParseError> {
        let mut parser = Parser {
            bytes: text.as_bytes(),
            pos: 0,
        };
        parser.skip_whitespace();
        let value = parser.value(0)?;
        parser.skip_whitespace();
        if parser.pos != parser.bytes.len() {
            return Err(parser.error("unexpected text after the JSON value"));
        }
        Ok(value)
    }

    /// Append the compact JSON text of this value to `out`.
    pub fn write_to(&self, out: &mut String) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(true) => out.push_str("true"),
            Json::Bool(false) => out.push_str("false"),
            Json::Int(number) => out.push_str(&number.to_string()),
            Json::Float(number) => write_float(*number, out),
            Json::Str(text) => write_string(text, out),
            Json::Array(items) => {
                out.push('[');
                for (index, item) in items.iter().enumerate() {
                    if index > 0 {
                        out.push(',');
                    }
                    item.write_to(out);
                }
                out.push(']');
            }
            Json::Object(members) => {
                out.push('{');
                for (index, (name, value)) in members.iter().enumerate() {
                    if index > 0 {
                        out.push(',');
                    }
                    write_string(name, out);
                    out.push(':');
                    value.write_to(out);
                }
                out.push('}');
            }
        }
    }
}

/// `value.to_string()` is its compact JSON text.
impl fmt::Display for Json {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        self.write_to(&mut out);
        formatter.write_str(&out)
    }
}

impl From<bool> for Json {
    fn from(value: bool) -> Json {
        Json::Bool(value)
    }
}

impl From<i64> for Json {
    fn from(value: i64) -> Json {
        Json::Int(value)
    }
}

impl From<usize> for Json {
    fn from(value: usize) -> Json {
        // A seat, a count or a score: always far below i64::MAX.
        Json::Int(value as i64)
    }
}

impl From<u32> for Json {
    fn from(value: u32) -> Json {
        Json::Int(i64::from(value))
    }
}

impl From<&str> for Json {
    fn from(value: &str) -> Json {
        Json::Str(value.to_string())
    }
}

impl From<String> for Json {
    fn from(value: String) -> Json {
        Json::Str(value)
    }
}

impl<T: Into<Json>> From<Vec<T>> for Json {
    fn from(items: Vec<T>) -> Json {
        Json::Array(items.into_iter().map(Into::into).collect())
    }
}

impl<T: Into<Json>> From<Option<T>> for Json {
    fn from(value: Option<T>) -> Json {
        match value {
            Some(value) => value.into(),
            None => Json::Null,
        }
    }
}

fn write_float(number: f64, out: &mut String) {
    if !number.is_finite() {
        out.push_str("null"); // NaN and the infinities are not JSON
    } else if number.fract() == 0.0 && number.abs() < 1e15 {
        out.push_str(&format!("{:.1}", number)); // "2.0": stays a float when read back
    } else {
        // Debug prints the shortest text that reads back as the same double ("1e300", "0.1").
        out.push_str(&format!("{:?}", number));
    }
}

fn write_string(text: &str, out: &mut String) {
    out.push('"');
    for character in text.chars() {
        match character {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{08}' => out.push_str("\\b"),
            '\u{0c}' => out.push_str("\\f"),
            // The other control characters, DEL, and the line separators some readers split on.
            c if (c as u32) < 0x20 || c == '\u{7f}' || c == '\u{2028}' || c == '\u{2029}' => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Why a text is not JSON, and the byte offset where the parser found out.
#[derive(Clone, Debug, PartialEq)]
pub struct ParseError {
    pub position: usize,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "{} at byte {}", self.message, self.position)
    }
}

impl std::error::Error for ParseError {}

struct Parser<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Parser<'a> {
    fn error(&self, message: &str) -> ParseError {
        ParseError {
            position: self.pos,
            message: message.to_string(),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// RFC 8259 whitespace only: space, tab, line feed, carriage return.
    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    fn literal(&mut self, word: &str, value: Json) -> Result<Json, ParseError> {
        if self.bytes[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(value)
        } else {
            Err(self.error("invalid literal (expected true, false or null)"))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, ParseError> {
        match self.peek() {
            None => Err(self.error("unexpected end of the text (expected a value)")),
            Some(b'{') => self.object(depth + 1),
            Some(b'[') => self.array(depth + 1),
            Some(b'"') => Ok(Json::Str(self.string()?)),
            Some(b't') => self.literal("true", Json::Bool(true)),
            Some(b'f') => self.literal("false", Json::Bool(false)),
            Some(b'n') => self.literal("null", Json::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.error("unexpected character (expected a value)")),
        }
    }

    fn check_depth(&self, depth: usize) -> Result<(), ParseError> {
        if depth > MAX_DEPTH {
            Err(self.error(&format!("arrays and objects nested deeper than {} levels", MAX_DEPTH)))
        } else {
            Ok(())
        }
    }

    fn array(&mut self, depth: usize) -> Result<Json, ParseError> {
        self.check_depth(depth)?;
        self.pos += 1; // '['
        let mut items = Vec::new();
        self.skip_whitespace();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(Json::Array(items));
        }
        loop {
            self.skip_whitespace();
            items.push(self.value(depth)?);
            self.skip_whitespace();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok(Json::Array(items));
                }
                _ => return Err(self.error("expected ',' or ']' in an array")),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Json, ParseError> {
        self.check_depth(depth)?;
        self.pos += 1; // '{'
        let mut members: Vec<(String, Json)> = Vec::new();
        self.skip_whitespace();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(Json::Object(members));
        }
        loop {
            self.skip_whitespace();
            if self.peek() != Some(b'"') {
                return Err(self.error("expected a member name (a string) in an object"));
            }
            let start = self.pos;
            let name = self.string()?;
            if members.iter().any(|(key, _)| *key == name) {
                return Err(ParseError {
                    position: start,
                    message: format!("member name {:?} given twice", name),
                });
            }
            self.skip_whitespace();
            if self.peek() != Some(b':') {
                return Err(self.error("expected ':' after a member name"));
            }
            self.pos += 1;
            self.skip_whitespace();
            let value = self.value(depth)?;
            members.push((name, value));
            self.skip_whitespace();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(Json::Object(members));
                }
                _ => return Err(self.error("expected ',' or '}' in an object")),
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, ParseError> {
        let digits = self
            .bytes
            .get(self.pos..self.pos + 4)
            .ok_or_else(|| self.error("truncated \\u escape"))?;
        let mut code = 0u32;
        for &digit in digits {
            let value = match digit {
                b'0'..=b'9' => digit - b'0',
                b'a'..=b'f' => digit - b'a' + 10,
                b'A'..=b'F' => digit - b'A' + 10,
                _ => return Err(self.error("invalid \\u escape (expected four hex digits)")),
            };
            code = code * 16 + u32::from(value);
        }
        self.pos += 4;
        Ok(code)
    }

    fn string(&mut self) -> Result<String, ParseError> {
        self.pos += 1; // the opening quote
        let mut out = String::new();
        loop {
            // Copy the run of plain characters at once (the input is a &str: valid UTF-8).
            let start = self.pos;
            while let Some(byte) = self.peek() {
                if byte == b'"' || byte == b'\\' || byte < 0x20 {
                    break;
                }
                self.pos += 1;
            }
            out.push_str(std::str::from_utf8(&self.bytes[start..self.pos]).expect("a &str slice at ASCII bounds"));
            match self.peek() {
                None => return Err(self.error("unterminated string")),
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.pos += 1;
                    let escape = self.peek().ok_or_else(|| self.error("unterminated escape"))?;
                    self.pos += 1;
                    match escape {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{08}'),
                        b'f' => out.push('\u{0c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let at = self.pos - 2;
                            let high = self.hex4()?;
                            let code = if (0xD800..0xDC00).contains(&high) {
                                // A high surrogate must be followed by an escaped low one.
                                if !self.bytes[self.pos..].starts_with(b"\\u") {
                                    return Err(ParseError {
                                        position: at,
                                        message: "lone surrogate".to_string(),
                                    });
                                }
                                self.pos += 2;
                                let low = self.hex4()?;
                                if !(0xDC00..0xE000).contains(&low) {
                                    return Err(ParseError {
                                        position: at,
                                        message: "lone surrogate".to_string(),
                                    });
                                }
                                0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                            } else if (0xDC00..0xE000).contains(&high) {
                                return Err(ParseError {
                                    position: at,
                                    message: "lone surrogate".to_string(),
                                });
                            } else {
                                high
                            };
                            out.push(char::from_u32(code).expect("a scalar value outside the surrogates"));
                        }
                        _ => {
                            self.pos -= 1;
                            return Err(self.error("invalid escape in a string"));
                        }
                    }
                }
                Some(_) => return Err(self.error("control character in a string (escape it)")),
            }
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.pos;
        while let Some(b'0'..=b'9') = self.peek() {
            self.pos += 1;
        }
        self.pos - start
    }

    fn number(&mut self) -> Result<Json, ParseError> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => {
                self.pos += 1;
                if let Some(b'0'..=b'9') = self.peek() {
                    return Err(self.error("leading zero in a number"));
                }
            }
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(self.error("invalid number (expected a digit)")),
        }
        let mut integer = true;
        if self.peek() == Some(b'.') {
            self.pos += 1;
            integer = false;
            if self.digits() == 0 {
                return Err(self.error("invalid number (expected a digit after '.')"));
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.pos += 1;
            integer = false;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            if self.digits() == 0 {
                return Err(self.error("invalid number (expected a digit in the exponent)"));
            }
        }
        let text = std::str::from_utf8(&self.bytes[start..self.pos]).expect("ASCII digits");
        if integer {
            if let Ok(number) = text.parse::<i64>() {
                return Ok(Json::Int(number));
            }
        }
        match text.parse::<f64>() {
            Ok(number) if number.is_finite() => Ok(Json::Float(number)),
            _ => Err(ParseError {
                position: start,
                message: "number beyond the range of a double".to_string(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Json {
        Json::parse(text).unwrap_or_else(|error| panic!("{:?} should parse: {}", text, error))
    }

    fn refused(text: &str) -> ParseError {
        match Json::parse(text) {
            Ok(value) => panic!("{:?} should be refused, parsed as {:?}", text, value),
            Err(error) => error,
        }
    }

    #[test]
    fn scalars() {
        assert_eq!(parse("null"), Json::Null);
        assert_eq!(parse(" true "), Json::Bool(true));
        assert_eq!(parse("false"), Json::Bool(false));
        assert_eq!(parse("0"), Json::Int(0));
        assert_eq!(parse("-12"), Json::Int(-12));
        assert_eq!(parse("1.5"), Json::Float(1.5));
        assert_eq!(parse("1e3"), Json::Float(1000.0));
        assert_eq!(parse("-0.25E-2"), Json::Float(-0.0025));
        assert_eq!(parse("9223372036854775807"), Json::Int(i64::MAX));
        assert_eq!(parse("9223372036854775808"), Json::Float(9223372036854775808.0));
    }

    #[test]
    fn strings_and_escapes() {
        assert_eq!(
            parse(r#""a\"b\\c\/d\b\f\n\r\t""#),
            Json::Str("a\"b\\c/d\u{8}\u{c}\n\r\t".into())
        );
        assert_eq!(parse(r#""\u00e9\u00F1""#), Json::Str("éñ".into()));
        assert_eq!(parse(r#""\ud83c\udca1""#), Json::Str("\u{1F0A1}".into()));
        assert_eq!(parse("\"Guiñote 🂡\""), Json::Str("Guiñote 🂡".into()));
    }

    #[test]
    fn containers_keep_order() {
        let value = parse(r#"{"b": [1, {"c": null}], "a": {}}"#);
        let members = value.as_object().unwrap();
        assert_eq!(members[0].0, "b");
        assert_eq!(members[1].0, "a");
        assert_eq!(value.get("b").unwrap().as_array().unwrap().len(), 2);
        assert_eq!(parse("[]"), Json::Array(vec![]));
    }

    #[test]
    fn refuses_what_is_not_strict_json() {
        for text in [
            "",
            " ",
            "nul",
            "True",
            "NaN",
            "Infinity",
            "-Infinity",
            "01",
            "-",
            "1.",
            ".5",
            "1e",
            "+1",
            "0x10",
            "[1,]",
            "[1 2]",
            "{\"a\":1,}",
            "{a:1}",
            "{\"a\" 1}",
            "'a'",
            "\"abc",
            "\"\\x\"",
            "\"\\u12\"",
            "\"a\tb\"",
            "1 2",
            "[",
            "{",
            "\u{a0}1",
            "1e400",
            "-1e400",
        ] {
            refused(text);
        }
    }

    #[test]
    fn refuses_lone_surrogates() {
        assert!(refused(r#""\udcff""#).message.contains("surrogate"));
        assert!(refused(r#""\ud83c""#).message.contains("surrogate"));
        assert!(refused(r#""\ud83cx""#).message.contains("surrogate"));
        assert!(refused(r#""\ud83c\u0041""#).message.contains("surrogate"));
    }

    #[test]
    fn refuses_duplicate_names() {
        assert!(refused(r#"{"id": 1, "id": 2}"#).message.contains("twice"));
        parse(r#"{"a": {"id": 1}, "id": 2}"#);
    }

    #[test]
    fn depth_limit() {
        let ok = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        parse(&ok);
        let deep = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
        assert!(refused(&deep).message.contains("nested"));
        let very_deep = "{\"a\":".repeat(100_000);
        refused(&very_deep); // no stack overflow: the limit stops it early
    }

    #[test]
    fn errors_say_where() {
        let error = refused("{\"a\": tru}");
        assert_eq!(error.position, 6);
        assert!(error.to_string().contains("at byte 6"));
    }

    #[test]
    fn writes_compact_escaped_json() {
        let value = Json::object(vec![
            ("id", Json::Int(7)),
            ("text", "a\"b\\\n\u{1}\u{1f}é".into()),
            (
                "list",
                Json::Array(vec![Json::Null, true.into(), Json::Float(2.0), Json::Float(0.1)]),
            ),
        ]);
        assert_eq!(
            value.to_string(),
            r#"{"id":7,"text":"a\"b\\\n\u0001\u001fé","list":[null,true,2.0,0.1]}"#
        );
        assert_eq!(Json::Float(f64::NAN).to_string(), "null");
        assert_eq!(Json::Float(1e300).to_string(), "1e300");
    }

    #[test]
    fn round_trips() {
        for text in [
            r#"{"id":1,"cmd":"hello","protocol":2,"harness":{"name":"guinote-conformance"}}"#,
            r#"["\u0000",-1.5e-7,[[]],{"":""}]"#,
            r#""\ud83c\udca1 \u2028""#,
        ] {
            let value = parse(text);
            assert_eq!(parse(&value.to_string()), value);
        }
    }
}
