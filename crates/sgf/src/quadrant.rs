//! Quadrant digit notation: a 19×19 game written as plain text, e.g. `01：44、36，63、24，`.
//!
//! # Why
//!
//! The notation comes from a forum post (`specs/quadrant-notation.zh.txt`) proposing that Go, like
//! xiangqi and chess, should be writable and readable as text without a diagram. Records in this form
//! turn up in posts and commentary, so the engine reads them next to SGF; writing them lets a search
//! hit be quoted back in the same form a user typed.
//!
//! # The notation
//!
//! Tengen is `00`. The rest of the board is four quadrants numbered clockwise from the top right:
//! `01` upper right, `02` lower right, `03` lower left, `04` upper left. Each quadrant has a nine-point
//! edge and a ten-point edge; a point is two digits, first its distance (1–9) along the nine-point edge
//! from the quadrant's corner, then its distance (1–10, ten written `0`) along the ten-point edge. So
//! every two-digit number 10–99 is a label and none starts with `0`; a leading `0` marks a quadrant.
//! With `c` the column from the left and `r` the row from the top, both 1–19:
//!
//! | quadrant | points              | label                    |
//! | -------- | ------------------- | ------------------------ |
//! | `04`     | r ≤ 9, c ≤ 10       | `r`, `c mod 10`          |
//! | `01`     | r ≤ 10, c ≥ 11      | `20−c`, `r mod 10`       |
//! | `02`     | r ≥ 11, c ≥ 10      | `20−r`, `(20−c) mod 10`  |
//! | `03`     | r ≥ 10, c ≤ 9       | `c`, `(20−r) mod 10`     |
//!
//! [`label`] and [`point`] compute exactly this; the 361-row table is checked in the tests only.
//!
//! A record is a sequence of quadrant marks (`01`–`04` followed by `：`) and moves (a label followed by
//! `、` if Black played it, `，` if White did). A mark stays in force until the next one. Tengen is the
//! move `00` and needs no mark. `、。` means Black resigns, `，。` White resigns. A four-digit group
//! such as `0144` names a single point (quadrant 01, label 44) without a mark.
//!
//! # Decisions
//!
//! The post leaves these open; this module settles them as follows.
//!
//! * **Whitespace** (anything [`char::is_whitespace`], including the ideographic space, plus a
//!   byte-order mark) is ignored everywhere, even between the two digits of a label.
//! * **Accepted characters.** Digits may be ASCII or full-width (`０`–`９`). The colon may be `：` or
//!   ASCII `:`. Black's separator is `、` (or its half-width form `､`). White's is `，` or ASCII `,`: a
//!   Chinese input method in half-width mode turns the `，` key into `,`, and `,` means nothing else
//!   in the notation, so it cannot be confused with Black's mark. There is deliberately **no** ASCII
//!   spelling of Black's `、`: a `\`, `;` or `.` typed in its place is an error, never a guess. The
//!   one reading this leniency cannot catch is text that uses `,` as a colourless list separator
//!   (`01: 44, 36, 63,`): it reads as all-White moves. That is not the notation, and callers should not
//!   feed it here. The full stop of a resignation may be `。`, `｡`, `．` or ASCII `.`; it is only
//!   meaningful right after a bare separator.
//! * **Four-digit points** (`0144、`) are a one-off, as the post's "临时指出" (point out in passing)
//!   suggests: they do not change the quadrant mark in force. Neither does tengen `00`.
//! * **Strictness.** Anything else is an error carrying the byte and character offset where it was
//!   found: an unknown quadrant (`05`–`09`), `00：`, `0044` or `0000` (tengen takes neither a colon nor
//!   a label), a label starting with `0` (there is no 0 on the nine-point edge; usually a forgotten
//!   colon), a one-digit label, a missing separator (`4436，`, or a label at the very end), a move
//!   before any quadrant mark, a separator with no move, a stray full stop, and any text after a
//!   resignation. Marks with no moves after them (`01：02：44、`, or a trailing `01：`) are harmless and
//!   accepted. Colours need not alternate (handicap stones, edited records).
//! * **Passes** have no spelling in the post. [`write()`] refuses them with [`QuadrantError::Pass`]
//!   rather than inventing a token that no other reader would understand; [`parse`] never produces
//!   one.
//! * **Board size.** The notation only exists for 19×19. [`label`] returns `None` and [`write()`] returns
//!   [`QuadrantError::OffBoard`] for any point with a coordinate of 19 or more; callers holding a
//!   record of another size must not offer this format.
//! * **Writing** emits a quadrant mark only when the quadrant changes (tengen leaves the mark in force,
//!   as when reading), never uses the four-digit form, puts no whitespace anywhere and ends with the
//!   resignation mark if there is one. Whatever [`parse`] accepts, [`write()`] can write back and
//!   [`parse`] reads the same moves again.

use std::fmt;
use std::str::FromStr;

use crate::{Color, Point};

/// A point's name in the notation: its quadrant (`0` for tengen, `1`–`4`) and its two-digit label
/// within the quadrant as a number `10`–`99` (`0` for tengen).
///
/// The fields are public so that a label can be compared with the table's columns directly; a value
/// built by hand may be invalid, which [`Label::is_valid`] and [`point`] check. [`label`] and
/// [`Label::new`] only return valid ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Label {
    /// `0` tengen, `1` upper right, `2` lower right, `3` lower left, `4` upper left.
    pub quadrant: u8,
    /// The two digits as a number, e.g. `44`; `0` for tengen. The tens digit (1–9) is the distance
    /// along the nine-point edge, the units digit (0 meaning 10) the distance along the ten-point edge.
    pub digits: u8,
}

impl Label {
    /// Tengen, written `00`.
    pub const TENGEN: Label = Label {
        quadrant: 0,
        digits: 0,
    };

    /// A validated label: `(0, 0)` is tengen, otherwise `quadrant` must be 1–4 and `digits` 10–99.
    pub fn new(quadrant: u8, digits: u8) -> Option<Label> {
        let l = Label { quadrant, digits };
        l.is_valid().then_some(l)
    }

    /// Whether this names one of the 361 points.
    pub fn is_valid(self) -> bool {
        match self.quadrant {
            0 => self.digits == 0,
            1..=4 => (10..=99).contains(&self.digits),
            _ => false,
        }
    }

    /// Whether this is tengen.
    pub fn is_tengen(self) -> bool {
        self == Label::TENGEN
    }

    /// The distance (1–9) along the quadrant's nine-point edge from its corner; 0 for tengen.
    pub fn nine_edge(self) -> u8 {
        self.digits / 10
    }

    /// The distance (1–10) along the quadrant's ten-point edge from its corner; 0 for tengen.
    pub fn ten_edge(self) -> u8 {
        match (self.is_tengen(), self.digits % 10) {
            (true, _) => 0,
            (false, 0) => 10,
            (false, d) => d,
        }
    }
}

/// The four-digit form, `0144`, or `00` for tengen. Meaningful only for valid labels.
impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_tengen() {
            f.write_str("00")
        } else {
            write!(f, "{:02}{:02}", self.quadrant, self.digits)
        }
    }
}

/// Reads the four-digit form (`0144`) or `00`, surrounding whitespace allowed, ASCII or full-width
/// digits. Errors are the same as [`parse`] gives for that group.
impl FromStr for Label {
    type Err = QuadrantError;

    fn from_str(s: &str) -> Result<Label, QuadrantError> {
        let toks = lex(s)?;
        let end = end_pos(s);
        let (run, next) = digit_run(&toks, 0);
        if run.len == 0 {
            let (pos, kind) = match toks.first() {
                Some(&(pos, tok)) => (pos, unexpected(tok)),
                None => (end, ParseErrorKind::MissingLabel),
            };
            return Err(QuadrantError::at(pos, kind));
        }
        if let Some(&(pos, tok)) = toks.get(next) {
            return Err(QuadrantError::at(pos, unexpected(tok)));
        }
        match run.len {
            2 if run.value() == 0 => Ok(Label::TENGEN),
            2 => Err(QuadrantError::at(
                run.start,
                ParseErrorKind::MissingQuadrant,
            )),
            4 => four_digit(&run),
            _ => Err(run.length_error(end)),
        }
    }
}

/// The label of a point on a 19×19 board, or `None` if `p` is off that board.
pub fn label(p: Point) -> Option<Label> {
    if p.x >= 19 || p.y >= 19 {
        return None;
    }
    let (c, r) = (p.x + 1, p.y + 1);
    let (quadrant, nine, ten) = if c == 10 && r == 10 {
        return Some(Label::TENGEN);
    } else if r <= 9 && c <= 10 {
        (4, r, c)
    } else if r <= 10 && c >= 11 {
        (1, 20 - c, r)
    } else if r >= 11 && c >= 10 {
        (2, 20 - r, 20 - c)
    } else {
        (3, c, 20 - r)
    };
    Some(Label {
        quadrant,
        digits: nine * 10 + ten % 10,
    })
}

/// The point a label names, or `None` if the label is invalid (see [`Label::is_valid`]).
pub fn point(label: Label) -> Option<Point> {
    if !label.is_valid() {
        return None;
    }
    if label.is_tengen() {
        return Some(Point::new(9, 9));
    }
    let (a, t) = (label.nine_edge(), label.ten_edge());
    let (c, r) = match label.quadrant {
        4 => (t, a),
        1 => (20 - a, t),
        2 => (20 - t, 20 - a),
        _ => (a, 20 - t),
    };
    Some(Point::new(c - 1, r - 1))
}

/// A record read by [`parse`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct QuadrantRecord {
    /// Every move in order. The notation has no passes, so every move is a point.
    pub moves: Vec<(Color, Point)>,
    /// The colour that resigned (`、。` Black, `，。` White), if the record ends with a resignation.
    pub resigned: Option<Color>,
}

/// What went wrong at a position in the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    /// A character that has no meaning in the notation.
    #[error("unexpected character {0:?}")]
    UnexpectedChar(char),
    /// A quadrant number other than 01–04 (or 00 for tengen), as a mark or in a four-digit point.
    #[error("unknown quadrant {0:02}: quadrants are 01-04, tengen is 00")]
    UnknownQuadrant(u8),
    /// `00：` — tengen is a move on its own, not a quadrant mark.
    #[error("00 is tengen and takes no colon")]
    TengenWithColon,
    /// `00xx` — tengen takes no label.
    #[error("00 is tengen and takes no label")]
    TengenWithLabel,
    /// A label (10–99) followed by a colon.
    #[error("{0} is a label, not a quadrant mark (marks are 01-04)")]
    LabelAsQuadrant(u8),
    /// A four-digit point followed by a colon.
    #[error("a four-digit point cannot be a quadrant mark")]
    FourDigitMark,
    /// A label whose first digit (the nine-point edge) is 0.
    #[error("label {0:02} starts with 0, but the nine-point edge counts 1-9 (a quadrant mark needs a colon)")]
    LeadingZeroLabel(u8),
    /// A single digit where a two-digit label was expected.
    #[error("a label has two digits")]
    ShortLabel,
    /// Digits not followed by `、` or `，` (includes runs of three or more than four digits).
    #[error("missing separator: expected 、 (Black) or ， (White) after the label")]
    MissingSeparator,
    /// A two-digit label with no quadrant mark in force.
    #[error("move before any quadrant mark")]
    MissingQuadrant,
    /// Expected a label and found nothing (only from [`Label::from_str`]).
    #[error("expected a label")]
    MissingLabel,
    /// A separator with no label before it and no full stop after it.
    #[error("separator {0:?} without a move")]
    SeparatorWithoutMove(char),
    /// A colon with no quadrant number before it.
    #[error("colon without a quadrant number")]
    ColonWithoutQuadrant,
    /// A full stop that does not follow a bare separator.
    #[error("stray full stop: only 、。 and ，。 (resignation) use it")]
    StrayFullStop,
    /// Anything but whitespace after a resignation.
    #[error("text after the resignation")]
    AfterResignation,
}

/// An error from reading or writing the notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum QuadrantError {
    /// Malformed text. `byte` is the byte offset into the `&str`, `char` the offset in characters
    /// (both 0-based; both equal the text's length for "unexpected end").
    #[error("quadrant notation, character {char} (byte {byte}): {kind}")]
    Parse {
        byte: usize,
        char: usize,
        kind: ParseErrorKind,
    },
    /// Move number `index` (0-based) is a pass, which the notation cannot express.
    #[error("move {index} is a pass, which quadrant notation cannot write")]
    Pass { index: usize },
    /// Move number `index` (0-based) is not on a 19×19 board.
    #[error("move {index} at ({}, {}) is off the 19x19 board quadrant notation is for", point.x, point.y)]
    OffBoard { index: usize, point: Point },
}

impl QuadrantError {
    fn at(pos: Pos, kind: ParseErrorKind) -> QuadrantError {
        QuadrantError::Parse {
            byte: pos.byte,
            char: pos.char,
            kind,
        }
    }

    /// The parse error's kind, if this is one.
    pub fn kind(&self) -> Option<ParseErrorKind> {
        match *self {
            QuadrantError::Parse { kind, .. } => Some(kind),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pos {
    byte: usize,
    char: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok {
    Digit(u8),
    Colon,
    Sep(Color, char),
    Stop,
}

fn end_pos(text: &str) -> Pos {
    Pos {
        byte: text.len(),
        char: text.chars().count(),
    }
}

/// Splits the text into tokens, dropping whitespace; fails on the first character with no meaning.
fn lex(text: &str) -> Result<Vec<(Pos, Tok)>, QuadrantError> {
    let mut toks = Vec::with_capacity(text.len() / 2);
    for (char, (byte, ch)) in text.char_indices().enumerate() {
        let pos = Pos { byte, char };
        let tok = match ch {
            '0'..='9' => Tok::Digit(ch as u8 - b'0'),
            '０'..='９' => Tok::Digit((ch as u32 - '０' as u32) as u8),
            '：' | ':' => Tok::Colon,
            '、' | '､' => Tok::Sep(Color::Black, ch),
            '，' | ',' => Tok::Sep(Color::White, ch),
            '。' | '｡' | '．' | '.' => Tok::Stop,
            '\u{feff}' => continue,
            c if c.is_whitespace() => continue,
            c => return Err(QuadrantError::at(pos, ParseErrorKind::UnexpectedChar(c))),
        };
        toks.push((pos, tok));
    }
    Ok(toks)
}

fn unexpected(tok: Tok) -> ParseErrorKind {
    match tok {
        Tok::Digit(d) => ParseErrorKind::UnexpectedChar((b'0' + d) as char),
        Tok::Colon => ParseErrorKind::ColonWithoutQuadrant,
        Tok::Sep(_, c) => ParseErrorKind::SeparatorWithoutMove(c),
        Tok::Stop => ParseErrorKind::StrayFullStop,
    }
}

/// A run of consecutive digits (whitespace between them already dropped).
struct Run {
    start: Pos,
    /// Position of the third digit, if any (where a too-long run goes wrong).
    third: Option<Pos>,
    /// Position of the fifth digit, if any.
    fifth: Option<Pos>,
    /// The first four digits.
    digits: [u8; 4],
    len: usize,
}

impl Run {
    /// The first two digits as a number.
    fn value(&self) -> u8 {
        self.digits[0] * 10 + self.digits[1]
    }

    /// The error for a run of 1, 3 or more than 4 digits.
    fn length_error(&self, next: Pos) -> QuadrantError {
        match self.len {
            1 => QuadrantError::at(self.start, ParseErrorKind::ShortLabel),
            // `443`, `4436`: a label with its separator missing.
            _ if self.digits[0] != 0 => {
                QuadrantError::at(self.third.unwrap_or(next), ParseErrorKind::MissingSeparator)
            }
            // `014`: a four-digit point cut short, or a mark missing its colon.
            3 => QuadrantError::at(self.start, ParseErrorKind::ShortLabel),
            // `014436`: a four-digit point with its separator missing.
            _ => QuadrantError::at(self.fifth.unwrap_or(next), ParseErrorKind::MissingSeparator),
        }
    }
}

/// Collects the digits from `toks[i]` on; returns the run and the index after it.
fn digit_run(toks: &[(Pos, Tok)], mut i: usize) -> (Run, usize) {
    let mut run = Run {
        start: toks.get(i).map_or(Pos { byte: 0, char: 0 }, |t| t.0),
        third: None,
        fifth: None,
        digits: [0; 4],
        len: 0,
    };
    while let Some(&(pos, Tok::Digit(d))) = toks.get(i) {
        if run.len < 4 {
            run.digits[run.len] = d;
        }
        match run.len {
            2 => run.third = Some(pos),
            4 => run.fifth = Some(pos),
            _ => {}
        }
        run.len = run.len.saturating_add(1);
        i += 1;
    }
    (run, i)
}

/// Reads a four-digit point (`run.len == 4`).
fn four_digit(run: &Run) -> Result<Label, QuadrantError> {
    let quadrant = run.value();
    let digits = run.digits[2] * 10 + run.digits[3];
    let kind = match quadrant {
        0 => ParseErrorKind::TengenWithLabel,
        1..=4 if run.digits[2] == 0 => ParseErrorKind::LeadingZeroLabel(digits),
        1..=4 => return Ok(Label { quadrant, digits }),
        q if q < 10 => ParseErrorKind::UnknownQuadrant(q),
        // `4436`: two labels with the separator between them missing.
        _ => {
            return Err(QuadrantError::at(
                run.third.unwrap_or(run.start),
                ParseErrorKind::MissingSeparator,
            ))
        }
    };
    Err(QuadrantError::at(run.start, kind))
}

/// Reads a whole record in the notation. See the module documentation for what is accepted.
pub fn parse(text: &str) -> Result<QuadrantRecord, QuadrantError> {
    let toks = lex(text)?;
    let end = end_pos(text);
    let mut record = QuadrantRecord::default();
    let mut mark: Option<u8> = None;
    let mut i = 0;
    while let Some(&(pos, tok)) = toks.get(i) {
        if record.resigned.is_some() {
            return Err(QuadrantError::at(pos, ParseErrorKind::AfterResignation));
        }
        match tok {
            Tok::Digit(_) => {
                let (run, next) = digit_run(&toks, i);
                let after = toks.get(next).copied();
                let next_pos = after.map_or(end, |t| t.0);
                if run.len != 2 && run.len != 4 {
                    return Err(run.length_error(next_pos));
                }
                match after {
                    Some((_, Tok::Colon)) => {
                        if run.len == 4 {
                            return Err(if run.digits[0] == 0 {
                                QuadrantError::at(run.start, ParseErrorKind::FourDigitMark)
                            } else {
                                run.length_error(next_pos)
                            });
                        }
                        let kind = match run.value() {
                            0 => ParseErrorKind::TengenWithColon,
                            q @ 1..=4 => {
                                mark = Some(q);
                                i = next + 1;
                                continue;
                            }
                            q @ 5..=9 => ParseErrorKind::UnknownQuadrant(q),
                            q => ParseErrorKind::LabelAsQuadrant(q),
                        };
                        return Err(QuadrantError::at(run.start, kind));
                    }
                    Some((_, Tok::Sep(color, _))) => {
                        let label = if run.len == 4 {
                            four_digit(&run)?
                        } else {
                            match run.value() {
                                0 => Label::TENGEN,
                                d @ 1..=9 => {
                                    return Err(QuadrantError::at(
                                        run.start,
                                        ParseErrorKind::LeadingZeroLabel(d),
                                    ))
                                }
                                digits => match mark {
                                    Some(quadrant) => Label { quadrant, digits },
                                    None => {
                                        return Err(QuadrantError::at(
                                            run.start,
                                            ParseErrorKind::MissingQuadrant,
                                        ))
                                    }
                                },
                            }
                        };
                        // Every label built above is valid, so this never falls back.
                        let p = point(label).ok_or(QuadrantError::at(
                            run.start,
                            ParseErrorKind::MissingQuadrant,
                        ))?;
                        record.moves.push((color, p));
                        i = next + 1;
                    }
                    // End of text, a full stop, or (impossible) another digit.
                    _ => {
                        return Err(QuadrantError::at(
                            next_pos,
                            ParseErrorKind::MissingSeparator,
                        ))
                    }
                }
            }
            Tok::Sep(color, c) => match toks.get(i + 1) {
                Some((_, Tok::Stop)) => {
                    record.resigned = Some(color);
                    i += 2;
                }
                _ => {
                    return Err(QuadrantError::at(
                        pos,
                        ParseErrorKind::SeparatorWithoutMove(c),
                    ))
                }
            },
            Tok::Colon | Tok::Stop => return Err(QuadrantError::at(pos, unexpected(tok))),
        }
    }
    Ok(record)
}

/// Writes moves (and an optional resignation) in the notation.
///
/// A quadrant mark is written before the first move and whenever the quadrant changes; tengen is a
/// bare `00` and leaves the mark in force. Fails with [`QuadrantError::Pass`] on a pass and
/// [`QuadrantError::OffBoard`] on a point outside 19×19.
pub fn write(
    moves: &[(Color, Option<Point>)],
    resigned: Option<Color>,
) -> Result<String, QuadrantError> {
    let mut out = String::with_capacity(moves.len() * 3 + 8);
    let mut mark: Option<u8> = None;
    for (index, &(color, p)) in moves.iter().enumerate() {
        let p = p.ok_or(QuadrantError::Pass { index })?;
        let l = label(p).ok_or(QuadrantError::OffBoard { index, point: p })?;
        if l.is_tengen() {
            out.push_str("00");
        } else {
            if mark != Some(l.quadrant) {
                mark = Some(l.quadrant);
                push_two(&mut out, l.quadrant);
                out.push('：');
            }
            push_two(&mut out, l.digits);
        }
        out.push(separator(color));
    }
    if let Some(color) = resigned {
        out.push(separator(color));
        out.push('。');
    }
    Ok(out)
}

fn push_two(out: &mut String, n: u8) {
    out.push((b'0' + n / 10) as char);
    out.push((b'0' + n % 10) as char);
}

fn separator(color: Color) -> char {
    match color {
        Color::Black => '、',
        Color::White => '，',
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A few rows of `specs/quadrant-labels.tsv`: sgf, quadrant, label, four-digit. The corners and
    /// edges of every quadrant, so the formulas are checked even without the file.
    const ROWS: &[(&str, u8, u8, &str)] = &[
        ("aa", 4, 11, "0411"),
        ("ja", 4, 10, "0410"),
        ("ai", 4, 91, "0491"),
        ("ji", 4, 90, "0490"),
        ("ka", 1, 91, "0191"),
        ("sa", 1, 11, "0111"),
        ("sj", 1, 10, "0110"),
        ("kj", 1, 90, "0190"),
        ("pd", 1, 44, "0144"),
        ("qf", 1, 36, "0136"),
        ("ss", 2, 11, "0211"),
        ("js", 2, 10, "0210"),
        ("sk", 2, 91, "0291"),
        ("jk", 2, 90, "0290"),
        ("as", 3, 11, "0311"),
        ("aj", 3, 10, "0310"),
        ("is", 3, 91, "0391"),
        ("ij", 3, 90, "0390"),
        ("dp", 3, 44, "0344"),
        ("jj", 0, 0, "00"),
    ];

    #[test]
    fn embedded_rows() {
        for &(sgf, quadrant, digits, four) in ROWS {
            let p = Point::parse_sgf(sgf.as_bytes()).unwrap();
            let l = Label { quadrant, digits };
            assert_eq!(label(p), Some(l), "{sgf}");
            assert_eq!(point(l), Some(p), "{sgf}");
            assert_eq!(l.to_string(), four);
            assert_eq!(four.parse::<Label>(), Ok(l));
        }
    }

    #[test]
    fn invalid_labels() {
        assert_eq!(
            point(Label {
                quadrant: 5,
                digits: 44
            }),
            None
        );
        assert_eq!(
            point(Label {
                quadrant: 1,
                digits: 9
            }),
            None
        );
        assert_eq!(
            point(Label {
                quadrant: 1,
                digits: 100
            }),
            None
        );
        assert_eq!(
            point(Label {
                quadrant: 0,
                digits: 44
            }),
            None
        );
        assert_eq!(label(Point::new(19, 0)), None);
        assert_eq!(label(Point::new(0, 19)), None);
        assert_eq!(
            Label::new(2, 10),
            Some(Label {
                quadrant: 2,
                digits: 10
            })
        );
        assert_eq!(Label::new(2, 100), None);
    }

    #[test]
    fn post_example() {
        let r = parse("01：44、36，63、24，33、39，").unwrap();
        let sgf: Vec<String> = r.moves.iter().map(|(_, p)| p.sgf_string()).collect();
        assert_eq!(sgf, ["pd", "qf", "nc", "rd", "qc", "qi"]);
    }
}
