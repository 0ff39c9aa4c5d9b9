//! JSON text read as MariaDB reads it, into a tree that keeps the text.
//!
//! MariaDB's JSON functions work on the text of a document: a scalar keeps its spelling
//! (`1.0` stays `1.0`, `"\u0041"` keeps its escape), keys keep their order and their
//! duplicates, and a function that stops reading early never sees a mistake further on
//! (`JSON_VALUE('{"a":1, oops', '$.a')` is 1). So every node here keeps the text of its
//! scalar and the byte range it came from, and a parse that fails keeps what it had read:
//! the containers still open are marked unfinished, and the value that could not be read
//! is [`Val::Bad`] (a member whose key could not be read is one with an empty key and a
//! `Bad` value). Each function then decides how far it would have read.
//!
//! The grammar is MariaDB 10.11's, looser than RFC 8259 in places (all observed there):
//! a number ends at the first character that cannot continue it, so `[1e]`, `[-]`, `1.`
//! and `0e5` are numbers, though the text may not end in the middle of one (`1e`, `-`);
//! a backslash may escape any character but a control character; `\u` escapes must pair
//! surrogates; whitespace is space, tab, CR and LF only; at most 31 containers nest.

/// How deep MariaDB nests containers (and path steps): reaching it is an error.
pub(crate) const DEPTH_LIMIT: usize = 32;

/// A value.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Val {
    /// The text between the quotes, escapes as written.
    Str(String),
    /// The number as written.
    Num(String),
    True,
    False,
    Null,
    Arr(Vec<Node>),
    Obj(Vec<Member>),
    /// A value that could not be read.
    Bad,
}

/// An object member: the key as written between its quotes, and the value.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Member {
    pub key: String,
    pub val: Node,
}

/// A value, where it was in the text, and whether it was read to its end.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Node {
    pub val: Val,
    /// Byte range in the parsed text (empty for values built by a function).
    pub span: (usize, usize),
    /// Read to its end, with everything inside it.
    pub done: bool,
}

impl Node {
    /// A value built by a function rather than read.
    pub(crate) fn new(val: Val) -> Node {
        Node {
            val,
            span: (0, 0),
            done: true,
        }
    }

    pub(crate) fn is_scalar(&self) -> bool {
        !matches!(self.val, Val::Arr(_) | Val::Obj(_))
    }
}

/// A parsed text: its first value, and whether the whole text was valid JSON.
pub(crate) struct Doc {
    pub root: Node,
    pub valid: bool,
    /// The first value is unfinished and a quote follows its mistake: MariaDB's reader,
    /// made to read on, can take up a key there (and then fails); otherwise it only ever
    /// meets the end of the text or more mistakes.
    pub resumable: bool,
}

impl Doc {
    /// The root, if the whole text is valid.
    pub(crate) fn into_valid(self) -> Option<Node> {
        self.valid.then_some(self.root)
    }
}

/// Parses `text` as far as it is valid.
pub(crate) fn parse(text: &str) -> Doc {
    let mut p = Parser {
        s: text.as_bytes(),
        pos: 0,
    };
    p.space();
    let root = p.value(0);
    let resumable = !root.done && p.s.get(p.pos + 1..).is_some_and(|r| r.contains(&b'"'));
    let mut valid = root.done;
    if valid {
        p.space();
        valid = p.pos == p.s.len();
    }
    Doc {
        root,
        valid,
        resumable,
    }
}

/// Parses a whole text, or None if it is not valid JSON.
pub(crate) fn parse_valid(text: &str) -> Option<Node> {
    parse(text).into_valid()
}

struct Parser<'a> {
    s: &'a [u8],
    pos: usize,
}

/// Where a number is while it is read (see [`Parser::number`]).
#[derive(Clone, Copy, PartialEq)]
enum NumState {
    Minus,
    Zero,
    Int,
    Frac,
    Exp,
    ExpDigits,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }

    fn space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn node(&self, val: Val, start: usize, done: bool) -> Node {
        Node {
            val,
            span: (start, self.pos),
            done,
        }
    }

    fn bad(&self, start: usize) -> Node {
        self.node(Val::Bad, start, false)
    }

    /// One value, starting here; `level` is how many containers enclose it.
    fn value(&mut self, level: usize) -> Node {
        let start = self.pos;
        match self.peek() {
            Some(b'{') if level + 1 < DEPTH_LIMIT => self.object(level + 1),
            Some(b'[') if level + 1 < DEPTH_LIMIT => self.array(level + 1),
            Some(b'"') => match self.string() {
                Some(s) => self.node(Val::Str(s), start, true),
                None => self.bad(start),
            },
            Some(b'-' | b'0'..=b'9') => match self.number() {
                true => {
                    let text = String::from_utf8_lossy(&self.s[start..self.pos]).into_owned();
                    self.node(Val::Num(text), start, true)
                }
                false => self.bad(start),
            },
            Some(b't') => self.literal("true", Val::True),
            Some(b'f') => self.literal("false", Val::False),
            Some(b'n') => self.literal("null", Val::Null),
            _ => self.bad(start),
        }
    }

    fn literal(&mut self, word: &str, val: Val) -> Node {
        let start = self.pos;
        if self.s[start..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            self.node(val, start, true)
        } else {
            if word.as_bytes().starts_with(&self.s[start..]) {
                // Cut short by the end of the text.
                self.pos = self.s.len();
            }
            self.bad(start)
        }
    }

    fn array(&mut self, level: usize) -> Node {
        let start = self.pos;
        self.pos += 1;
        let mut items = Vec::new();
        self.space();
        match self.peek() {
            Some(b']') => {
                self.pos += 1;
                return self.node(Val::Arr(items), start, true);
            }
            // MariaDB takes the first element to begin only at a character that can begin a
            // value (after a comma, at anything).
            Some(b'{' | b'[' | b'"' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n') => {}
            _ => return self.node(Val::Arr(items), start, false),
        }
        loop {
            let item = self.value(level);
            let good = item.done;
            items.push(item);
            if !good {
                return self.node(Val::Arr(items), start, false);
            }
            self.space();
            match self.peek() {
                Some(b',') => {
                    self.pos += 1;
                    self.space();
                }
                Some(b']') => {
                    self.pos += 1;
                    return self.node(Val::Arr(items), start, true);
                }
                _ => return self.node(Val::Arr(items), start, false),
            }
        }
    }

    fn object(&mut self, level: usize) -> Node {
        let start = self.pos;
        self.pos += 1;
        let mut members = Vec::new();
        self.space();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return self.node(Val::Obj(members), start, true);
        }
        loop {
            if self.peek() != Some(b'"') {
                return self.node(Val::Obj(members), start, false);
            }
            // A member that begins (with its key's quote) but cannot be read is kept as a
            // broken one: reading the object fails there, not just before.
            let key_start = self.pos;
            let key = self.string();
            self.space();
            let Some(key) = key.filter(|_| self.peek() == Some(b':')) else {
                members.push(Member {
                    key: String::new(),
                    val: self.bad(key_start),
                });
                return self.node(Val::Obj(members), start, false);
            };
            self.pos += 1;
            self.space();
            let val = self.value(level);
            let good = val.done;
            members.push(Member { key, val });
            if !good {
                return self.node(Val::Obj(members), start, false);
            }
            self.space();
            match self.peek() {
                Some(b',') => {
                    self.pos += 1;
                    self.space();
                }
                Some(b'}') => {
                    self.pos += 1;
                    return self.node(Val::Obj(members), start, true);
                }
                _ => return self.node(Val::Obj(members), start, false),
            }
        }
    }

    /// A string at its opening quote: the text between the quotes, or None if it is not a
    /// valid string.
    fn string(&mut self) -> Option<String> {
        self.pos += 1;
        let start = self.pos;
        loop {
            match self.peek()? {
                b'"' => {
                    let text = String::from_utf8_lossy(&self.s[start..self.pos]).into_owned();
                    self.pos += 1;
                    return Some(text);
                }
                b'\\' => {
                    self.pos += 1;
                    self.pos += escape_len(&self.s[self.pos..])?;
                }
                c if c < 0x20 => return None,
                _ => self.pos += 1,
            }
        }
    }

    /// A number at its first character ('-' or a digit): true if it is a number. It ends
    /// at the first character that cannot continue it, which the caller then reads; the
    /// text may not end where a number is incomplete.
    fn number(&mut self) -> bool {
        use NumState::*;
        let mut state = match self.s[self.pos] {
            b'-' => Minus,
            b'0' => Zero,
            _ => Int,
        };
        self.pos += 1;
        while let Some(c) = self.peek() {
            let next = match (state, c) {
                (Minus, b'0') => Zero,
                (Minus, b'1'..=b'9') => Int,
                (Zero, b'.') | (Int, b'.') => Frac,
                (Int, b'0'..=b'9') => Int,
                (Frac, b'0'..=b'9') => Frac,
                (Zero | Int | Frac, b'e' | b'E') => Exp,
                (Exp, b'-' | b'+') => Exp,
                (Exp | ExpDigits, b'0'..=b'9') => ExpDigits,
                _ => return c < 0x80,
            };
            state = next;
            self.pos += 1;
        }
        !matches!(state, Minus | Exp)
    }
}

/// The length of a valid escape after its backslash (`n`, `u0041`, a surrogate pair
/// `ud83d\ude0a`, any other character but a control character), or None.
pub(crate) fn escape_len(s: &[u8]) -> Option<usize> {
    match *s.first()? {
        b'u' => {
            let hi = hex4(s.get(1..5)?)?;
            match hi {
                0xD800..=0xDBFF => {
                    if s.get(5..7)? != b"\\u" {
                        return None;
                    }
                    let lo = hex4(s.get(7..11)?)?;
                    (0xDC00..=0xDFFF).contains(&lo).then_some(11)
                }
                0xDC00..=0xDFFF => None,
                _ => Some(5),
            }
        }
        c if c < 0x20 => None,
        c if c < 0x80 => Some(1),
        // A multi-byte character: its lead byte is enough, the rest read as characters.
        _ => Some(1),
    }
}

fn hex4(s: &[u8]) -> Option<u32> {
    let t = std::str::from_utf8(s).ok()?;
    if t.len() != 4 || !t.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u32::from_str_radix(t, 16).ok()
}

/// The characters a JSON string (or key) stands for, from its text between the quotes.
/// The text is assumed valid (it came out of [`parse`] or a path).
pub(crate) fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('b') => out.push('\u{8}'),
            Some('f') => out.push('\u{c}'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('u') => {
                let code = |chars: &mut std::str::Chars<'_>| {
                    let h: String = chars.by_ref().take(4).collect();
                    u32::from_str_radix(&h, 16).unwrap_or(0xFFFD)
                };
                let hi = code(&mut chars);
                let c = if (0xD800..0xDC00).contains(&hi) {
                    chars.next();
                    chars.next();
                    let lo = code(&mut chars);
                    0x10000 + ((hi - 0xD800) << 10) + (lo.wrapping_sub(0xDC00) & 0x3FF)
                } else {
                    hi
                };
                out.push(char::from_u32(c).unwrap_or('\u{FFFD}'));
            }
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

/// A string as JSON string text (without the quotes), escaped as MariaDB escapes it:
/// `"` and `\` with a backslash, BS, TAB, LF, FF and CR by their letters, other control
/// characters as `\u00XX` (upper-case hex); everything else as it is.
pub(crate) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out
}
