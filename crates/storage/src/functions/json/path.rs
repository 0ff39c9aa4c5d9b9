//! JSON paths, in MariaDB 10.11's syntax.
//!
//! `$` then steps: `.key`, `."quoted key"`, `.*`, `[n]`, `[*]`, `[last]`, `[last-n]`,
//! `[-n]` (from the end: `[-1]` is the last element, `[-0]` the first), ranges `[a to b]`
//! of any of those, and `**` before a step (any depth). `lax` may precede the `$`.
//!
//! The syntax is MariaDB's, with its corners (observed on 10.11): spaces are allowed after
//! `[`, around `to` exactly one, before `]`, but not between `$` and a step nor before a `-`
//! that follows `[ `; an unquoted key runs to the next `.`, `[` or `*` and may hold spaces,
//! quotes and `]`, not start with `-`; a key may hold JSON escapes; array numbers are 32-bit
//! and wrap; `[ ]` is `[0]`; `[* to n]` is `[*]`; `strict` is refused; at most 31 steps.

use super::parse::{escape_len, unescape, DEPTH_LIMIT};

/// Which elements an array step selects (numbers as written: negative ones count from
/// the end, `last` being -1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Sel {
    All,
    One(i32),
    Range(i32, i32),
}

impl Sel {
    /// A step MariaDB lets a non-array value stand in for (as a one-element array): a
    /// single index or a range starting at element 0.
    pub(crate) fn zero_first(&self) -> bool {
        matches!(self, Sel::One(0) | Sel::Range(0, _))
    }
}

/// One step of a path.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Step {
    /// `.key` (`name` None for `.*`): `raw` as written, `name` with escapes decoded;
    /// `lost` for an unquoted key that a `**` ends, whose end MariaDB loses: it matches
    /// nothing.
    Key {
        raw: String,
        name: Option<String>,
        deep: bool,
        lost: bool,
    },
    /// `[..]`.
    Index { sel: Sel, deep: bool },
}

impl Step {
    pub(crate) fn deep(&self) -> bool {
        match self {
            Step::Key { deep, .. } | Step::Index { deep, .. } => *deep,
        }
    }

    /// A plain `[0]` (no `**`, no range): the step a scalar or an object matches as itself
    /// when a path is followed to one value.
    pub(crate) fn plain_zero(&self) -> bool {
        matches!(
            self,
            Step::Index {
                sel: Sel::One(0),
                deep: false
            }
        )
    }
}

/// A parsed path.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Path {
    pub steps: Vec<Step>,
}

impl Path {
    /// Whether the path has `*`, `**` or a range (refused by most functions).
    pub(crate) fn wild(&self) -> bool {
        self.steps.iter().any(|s| match s {
            Step::Key { name, deep, .. } => name.is_none() || *deep,
            Step::Index { sel, deep } => *deep || !matches!(sel, Sel::One(_)),
        })
    }
}

/// Parses a path, or None if it is not one.
pub(crate) fn parse_path(text: &str) -> Option<Path> {
    let mut p = PathParser {
        s: text.as_bytes(),
        pos: 0,
        steps: Vec::new(),
    };
    p.prefix()?;
    p.steps()?;
    Some(Path { steps: p.steps })
}

struct PathParser<'a> {
    s: &'a [u8],
    pos: usize,
    steps: Vec<Step>,
}

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r')
}

/// Control characters other than whitespace: never allowed in a path.
fn is_control(c: u8) -> bool {
    c < 0x20 && !is_space(c)
}

impl PathParser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }

    fn eat(&mut self, word: &str) -> bool {
        if self.s[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            true
        } else {
            false
        }
    }

    /// Spaces, `lax` and the `$`.
    fn prefix(&mut self) -> Option<()> {
        loop {
            while self.peek().is_some_and(is_space) {
                self.pos += 1;
            }
            if self.eat("lax") {
                while self.eat("lax") {}
                if !self.peek().is_some_and(is_space) {
                    return None;
                }
                continue;
            }
            return self.eat("$").then_some(());
        }
    }

    fn push(&mut self, step: Step) -> Option<()> {
        if self.steps.len() + 1 >= DEPTH_LIMIT {
            return None;
        }
        self.steps.push(step);
        Some(())
    }

    /// The steps after the `$`, to the end.
    fn steps(&mut self) -> Option<()> {
        let mut deep = false;
        loop {
            match self.peek() {
                None => return (!deep).then_some(()),
                Some(b'.') => {
                    self.pos += 1;
                    deep = self.key(deep)?;
                }
                Some(b'[') => {
                    self.pos += 1;
                    let sel = self.array()?;
                    self.push(Step::Index { sel, deep })?;
                    deep = false;
                }
                Some(b'*') => deep = self.double_star()?,
                Some(_) => return None,
            }
        }
    }

    /// `**` (at its first `*`; stars come in pairs), followed by a step: true.
    fn double_star(&mut self) -> Option<bool> {
        loop {
            if !self.eat("**") {
                return None;
            }
            if self.peek() != Some(b'*') {
                break;
            }
        }
        matches!(self.peek(), Some(b'.' | b'[')).then_some(true)
    }

    /// A key step after its `.`; returns whether a `**` follows it (ending the key).
    fn key(&mut self, deep: bool) -> Option<bool> {
        match self.peek()? {
            b'*' => {
                self.pos += 1;
                self.push(Step::Key {
                    raw: "*".into(),
                    name: None,
                    deep,
                    lost: false,
                })?;
                match self.peek() {
                    None | Some(b'.' | b'[') => Some(false),
                    Some(_) => None,
                }
            }
            b'"' => {
                self.pos += 1;
                let start = self.pos;
                loop {
                    match self.peek()? {
                        b'"' => break,
                        b'\\' => {
                            self.pos += 1;
                            self.pos += escape_len(&self.s[self.pos..])?;
                        }
                        c if is_control(c) => return None,
                        _ => self.pos += 1,
                    }
                }
                let raw = String::from_utf8_lossy(&self.s[start..self.pos]).into_owned();
                self.pos += 1;
                self.key_step(raw, deep, false)?;
                Some(false)
            }
            b'[' | b'.' | b'\\' | b'-' => None,
            c if is_control(c) => None,
            _ => {
                let start = self.pos;
                let mut star = false;
                loop {
                    match self.peek() {
                        None | Some(b'.' | b'[') => break,
                        Some(b'*') => {
                            star = true;
                            break;
                        }
                        Some(b'\\') => {
                            self.pos += 1;
                            self.pos += escape_len(&self.s[self.pos..])?;
                        }
                        Some(c) if is_control(c) => return None,
                        Some(_) => self.pos += 1,
                    }
                }
                let raw = String::from_utf8_lossy(&self.s[start..self.pos]).into_owned();
                self.key_step(raw, deep, star)?;
                if star {
                    return self.double_star();
                }
                Some(false)
            }
        }
    }

    fn key_step(&mut self, raw: String, deep: bool, lost: bool) -> Option<()> {
        let name = Some(unescape(&raw));
        self.push(Step::Key {
            raw,
            name,
            deep,
            lost,
        })
    }

    /// An array step after its `[`, through its `]`.
    fn array(&mut self) -> Option<Sel> {
        #[derive(Clone, Copy, PartialEq)]
        enum St {
            Open,
            OpenSpace,
            Star,
            Minus,
            Zero,
            Int,
            Space,
            Last,
            To,
        }
        let mut st = St::Open;
        let (mut start, mut end) = (0i32, None::<i32>);
        let mut star = false;
        let (mut negative, mut last, mut after_last) = (false, false, 0i32);
        loop {
            let c = self.peek()?;
            self.pos += 1;
            let cur = if end.is_some() {
                end.as_mut()?
            } else {
                &mut start
            };
            st = match (st, c) {
                (St::Open | St::OpenSpace, b'*') => {
                    star = true;
                    St::Star
                }
                (St::Open | St::OpenSpace, c) if is_space(c) => St::OpenSpace,
                (St::Open | St::Space | St::Last | St::To, b'-') => {
                    negative = true;
                    St::Minus
                }
                (St::Open | St::OpenSpace | St::Space | St::Minus | St::Int, b'0'..=b'9') => {
                    let d = i32::from(c - b'0');
                    if last {
                        after_last = after_last.wrapping_mul(10).wrapping_sub(d);
                        *cur = after_last.wrapping_sub(1);
                    } else if negative {
                        *cur = cur.wrapping_mul(10).wrapping_sub(d);
                    } else {
                        *cur = cur.wrapping_mul(10).wrapping_add(d);
                    }
                    if c == b'0' && matches!(st, St::Open | St::OpenSpace | St::Space) {
                        St::Zero
                    } else {
                        St::Int
                    }
                }
                (St::Open | St::OpenSpace | St::Space, b'l') => {
                    if !self.eat("ast") {
                        return None;
                    }
                    last = true;
                    after_last = 0;
                    *cur = -1;
                    St::Last
                }
                (St::Space, b't') => {
                    if !self.eat("o") {
                        return None;
                    }
                    end = Some(0);
                    negative = false;
                    last = false;
                    after_last = 0;
                    St::To
                }
                (St::Star | St::Zero | St::Int | St::Last | St::To, c) if is_space(c) => St::Space,
                (St::OpenSpace | St::Star | St::Zero | St::Int | St::Space, b']')
                | (St::Last | St::To, b']') => break,
                _ => return None,
            };
        }
        Some(if star {
            Sel::All
        } else if let Some(end) = end {
            Sel::Range(start, end)
        } else {
            Sel::One(start)
        })
    }
}
