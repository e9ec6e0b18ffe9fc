//! Engine evaluations kept in the index, and the moves that lost the most by them.
//!
//! A game whose record carries evaluations (see [`sgf::eval`]) keeps them for its main line in
//! its segment's `evals.bin`; a segment holding none has no such file, so a game without
//! evaluations costs no byte. Beside it, `mistakes.bin` lists the moves whose loss (the mover's
//! evaluation before the move less the one after it, [`sgf::Eval::loss`]) is at least a small
//! floor, twice: sorted by win-probability loss, and sorted by points lost. A question "moves
//! that lost at least X" then reads the front of one list up to the first entry below X instead
//! of every evaluation; only a threshold below the floor reads the evaluations themselves.
//!
//! Numbers are kept to the precision an engine's evaluation has: Black's win probability in
//! 1/10,000, Black's lead in tenths of a point, visits whole. A loss is computed from the stored
//! (rounded) evaluations, so the lists and the evaluations read back always agree.
//!
//! `evals.bin`: the number of analysed games `n` (`u32`), then `n` pairs (game within the
//! segment, where its data starts after the table: `u32` each) by game, then where the last
//! ends (`u32`), then each game's data: its positions' count, the program's name and the
//! engine's (LEB128 length, `0` for no engine, else length + 1, then the bytes), then per
//! position a flags byte ([`HAS_EVAL`], [`HAS_LEAD`], [`HAS_VISITS`], [`BLACK_MOVED`]) and,
//! where present, the win and the lead as zigzag LEB128 differences from the last ones given
//! and the visits as LEB128.
//!
//! `mistakes.bin`: the two lists' lengths (`u32` each), then their [`ENTRY`]-byte entries: the
//! game's id (`u32`), the move number (`u16`, move k leads from position k − 1 to k), flags
//! (bit 0: Black moved, bit 1: the loss has points), a spare byte, the win loss in 1/10,000 and
//! the points lost in tenths (`i16` each). Ties are by game, then move.

use std::path::Path;

use sgf::{Color, Eval, Evals};

use crate::store::leb::{push_leb, push_leb64, read_leb, read_leb64};
use crate::store::Checked;
use crate::IndexError;

/// Reads the evaluations a record carries (`sgf::eval`'s readers); `None` for a record without.
pub type EvalReader = fn(&sgf::GameTree<'_>) -> Option<Evals>;

/// Win probabilities are kept in units of 1/10,000.
pub const WIN_UNITS: f32 = 10_000.0;
/// Leads are kept in tenths of a point.
pub const LEAD_UNITS: f32 = 10.0;
/// Moves losing at least this much win probability (3%, in 1/10,000) are in the win list.
pub const FLOOR_WIN: i32 = 300;
/// Moves losing at least this many points (1 point, in tenths) are in the points list.
pub const FLOOR_LEAD: i32 = 10;
/// A lead is kept within ±3,276.7 points, so that a loss fits the list's 16 bits.
const MAX_LEAD: i32 = i16::MAX as i32 / 2;
/// Positions kept per game: a move number fits the list's 16 bits.
const MAX_POSITIONS: usize = u16::MAX as usize;

/// Flags of a stored position.
const HAS_EVAL: u8 = 1;
const HAS_LEAD: u8 = 2;
const HAS_VISITS: u8 = 4;
/// The move into this position was Black's.
const BLACK_MOVED: u8 = 8;

/// Bytes of a mistakes entry.
pub const ENTRY: usize = 12;

/// One game's evaluations as the index keeps them (rounded to its units), with who played each
/// move.
#[derive(Clone, Debug, PartialEq)]
pub struct GameEvals {
    /// `positions[k]`: the position after the main line's first k moves (see [`Evals`]).
    pub positions: Vec<Option<Eval>>,
    /// `black_moved[k]`: whether move k (from position k − 1 to k) was Black's; `[0]` is unused.
    pub black_moved: Vec<bool>,
    /// The program the evaluations were read from.
    pub program: String,
    /// The engine or network the record names.
    pub engine: Option<String>,
}

/// A rounded evaluation: win in 1/10,000, lead in tenths.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rounded {
    pub win: i32,
    pub lead: Option<i32>,
    pub visits: Option<u32>,
}

impl Rounded {
    /// `None` for a win probability that is no number (nothing to compare a move with).
    fn of(e: &Eval) -> Option<Rounded> {
        if !e.win.is_finite() {
            return None;
        }
        Some(Rounded {
            win: (e.win.clamp(0.0, 1.0) * WIN_UNITS).round() as i32,
            lead: e
                .lead
                .filter(|l| l.is_finite())
                .map(|l| ((l * LEAD_UNITS).round() as i32).clamp(-MAX_LEAD, MAX_LEAD)),
            visits: e.visits,
        })
    }

    fn eval(&self) -> Eval {
        Eval {
            win: self.win as f32 / WIN_UNITS,
            lead: self.lead.map(|l| l as f32 / LEAD_UNITS),
            visits: self.visits,
        }
    }
}

impl GameEvals {
    /// `evals` rounded to the index's units, for a main line whose moves' colours are `movers`
    /// in order (passes included). Positions past the main line's end are dropped.
    pub fn new(evals: &Evals, movers: impl IntoIterator<Item = Color>) -> GameEvals {
        let mut black_moved = vec![false];
        black_moved.extend(movers.into_iter().map(|c| c == Color::Black));
        let keep = evals
            .positions
            .len()
            .min(black_moved.len())
            .min(MAX_POSITIONS);
        black_moved.truncate(keep.max(1));
        let positions = evals.positions[..keep]
            .iter()
            .map(|p| p.as_ref().and_then(Rounded::of).map(|r| r.eval()))
            .collect();
        GameEvals {
            positions,
            black_moved,
            program: evals.program.to_string(),
            engine: evals.engine.clone(),
        }
    }

    /// The move from position `k` (move `k + 1`): Black's evaluation after it and what it lost
    /// its player, in the index's units, as [`GameEvals::losses`] counts it; `None` unless
    /// both positions are evaluated.
    pub fn move_from(&self, k: usize) -> Option<(Rounded, Lost)> {
        let after = (*self.positions.get(k + 1)?)?;
        let lost = self.lost(k + 1)?;
        Some((Rounded::of(&after)?, lost))
    }

    /// The loss of move `k`, when both of its positions are evaluated.
    fn lost(&self, k: usize) -> Option<Lost> {
        let (before, after) = (
            self.positions.get(k.checked_sub(1)?)?.as_ref()?,
            self.positions.get(k)?.as_ref()?,
        );
        Some(lost_between(before, after, *self.black_moved.get(k)?, k))
    }

    /// The loss of each move both of whose positions are evaluated: (move k, Black moved,
    /// win loss in 1/10,000, points lost in tenths).
    pub fn losses(&self) -> impl Iterator<Item = Lost> + '_ {
        (1..self.positions.len()).filter_map(|k| self.lost(k))
    }

    fn encode(&self, out: &mut Vec<u8>) {
        push_leb(self.positions.len() as u32, out);
        push_leb(self.program.len() as u32, out);
        out.extend_from_slice(self.program.as_bytes());
        match &self.engine {
            None => push_leb(0, out),
            Some(e) => {
                push_leb(e.len() as u32 + 1, out);
                out.extend_from_slice(e.as_bytes());
            }
        }
        let (mut win, mut lead) = (0i32, 0i32);
        for (k, p) in self.positions.iter().enumerate() {
            let r = p.as_ref().and_then(Rounded::of);
            let mut flags = 0;
            if k > 0 && self.black_moved.get(k) == Some(&true) {
                flags |= BLACK_MOVED;
            }
            if let Some(r) = r {
                flags |= HAS_EVAL;
                flags |= if r.lead.is_some() { HAS_LEAD } else { 0 };
                flags |= if r.visits.is_some() { HAS_VISITS } else { 0 };
            }
            out.push(flags);
            if let Some(r) = r {
                push_leb64(zigzag(r.win - win), out);
                win = r.win;
                if let Some(l) = r.lead {
                    push_leb64(zigzag(l - lead), out);
                    lead = l;
                }
                if let Some(v) = r.visits {
                    push_leb(v, out);
                }
            }
        }
    }

    /// What [`GameEvals::encode`] wrote; `None` for bytes it cannot have written.
    fn decode(bytes: &[u8]) -> Option<GameEvals> {
        let mut walk = Walk::new(bytes)?;
        let text = |s: &[u8]| String::from_utf8(s.to_vec()).ok();
        let program = text(walk.program)?;
        let engine = match walk.engine {
            None => None,
            Some(e) => Some(text(e)?),
        };
        let mut positions = Vec::with_capacity(walk.n);
        let mut black_moved = Vec::with_capacity(walk.n.max(1));
        for _ in 0..walk.n {
            let (black, r) = walk.next()??;
            black_moved.push(black);
            positions.push(r.map(|r| r.eval()));
        }
        if black_moved.is_empty() {
            black_moved.push(false);
        }
        (walk.at == bytes.len()).then_some(GameEvals {
            positions,
            black_moved,
            program,
            engine,
        })
    }

    /// [`GameEvals::move_from`] read from the bytes [`GameEvals::encode`] wrote, through
    /// position `k + 1` only, with nothing allocated: a search's rows ask it of one move of
    /// each of thousands of games, most early in them (a corner's joseki), where a whole
    /// game's decoding cost many times more.
    pub(crate) fn move_from_bytes(bytes: &[u8], k: usize) -> Option<(Rounded, Lost)> {
        let mut walk = Walk::new(bytes)?;
        if k + 1 >= walk.n {
            return None;
        }
        let mut before = None;
        for _ in 0..k {
            walk.next()??;
        }
        if let (_, Some(r)) = walk.next()?? {
            before = Some(r);
        }
        let (black, after) = walk.next()??;
        let (before, after) = (before?, after?);
        Some((
            after,
            lost_between(&before.eval(), &after.eval(), black, k + 1),
        ))
    }
}

/// What move `k` lost its mover (Black if `black`), from the evaluations of the positions
/// before and after it, in the index's units.
fn lost_between(before: &Eval, after: &Eval, black: bool, k: usize) -> Lost {
    let loss = before.loss(after, black);
    Lost {
        k: k as u32,
        black,
        win: (loss.win * WIN_UNITS).round() as i32,
        lead: loss.lead.map(|l| (l * LEAD_UNITS).round() as i32),
    }
}

/// The bytes of one game's evaluations read position by position: the header, then for each
/// position whether Black moved to it and its evaluation, as [`GameEvals::encode`] wrote them.
struct Walk<'a> {
    bytes: &'a [u8],
    at: usize,
    /// Positions in all.
    n: usize,
    program: &'a [u8],
    engine: Option<&'a [u8]>,
    win: i64,
    lead: i64,
}

impl<'a> Walk<'a> {
    fn new(bytes: &'a [u8]) -> Option<Walk<'a>> {
        let mut at = 0;
        let n = read_leb(bytes, &mut at)? as usize;
        if n > MAX_POSITIONS || n > bytes.len() {
            return None;
        }
        let text = |at: &mut usize, len: usize| -> Option<&'a [u8]> {
            let s = bytes.get(*at..at.checked_add(len)?)?;
            *at += len;
            Some(s)
        };
        let len = read_leb(bytes, &mut at)? as usize;
        let program = text(&mut at, len)?;
        let engine = match read_leb(bytes, &mut at)? as usize {
            0 => None,
            len => Some(text(&mut at, len - 1)?),
        };
        Some(Walk {
            bytes,
            at,
            n,
            program,
            engine,
            win: 0,
            lead: 0,
        })
    }

    /// The next position: whether Black moved to it, its evaluation; `Some(None)` for bytes
    /// [`GameEvals::encode`] cannot have written, `None` past the end of the bytes.
    #[allow(clippy::option_option)]
    fn next(&mut self) -> Option<Option<(bool, Option<Rounded>)>> {
        let bytes = self.bytes;
        let flags = *bytes.get(self.at)?;
        self.at += 1;
        let black = flags & BLACK_MOVED != 0;
        if flags & HAS_EVAL == 0 {
            return Some(Some((black, None)));
        }
        let step = |walk: &mut Walk<'_>| read_leb64(bytes, &mut walk.at);
        let Some(w) = step(self) else {
            return Some(None);
        };
        self.win += unzigzag(w);
        let l = match flags & HAS_LEAD {
            0 => None,
            _ => {
                let Some(d) = step(self) else {
                    return Some(None);
                };
                self.lead += unzigzag(d);
                Some(self.lead)
            }
        };
        let visits = match flags & HAS_VISITS {
            0 => None,
            _ => match read_leb(bytes, &mut self.at) {
                Some(v) => Some(v),
                None => return Some(None),
            },
        };
        if !(0..=WIN_UNITS as i64).contains(&self.win)
            || l.is_some_and(|l| l.abs() > i64::from(MAX_LEAD))
        {
            return Some(None);
        }
        Some(Some((
            black,
            Some(Rounded {
                win: self.win as i32,
                lead: l.map(|l| l as i32),
                visits,
            }),
        )))
    }
}

fn zigzag(v: i32) -> u64 {
    let v = i64::from(v);
    ((v << 1) ^ (v >> 63)) as u64
}

fn unzigzag(v: u64) -> i64 {
    (v >> 1) as i64 ^ -((v & 1) as i64)
}

/// What one move lost, in the index's units (see [`GameEvals::losses`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lost {
    /// The move's number: it leads from position k − 1 to position k.
    pub k: u32,
    pub black: bool,
    /// Win probability lost, in 1/10,000 (negative: gained).
    pub win: i32,
    /// Points lost, in tenths, where both evaluations have a lead.
    pub lead: Option<i32>,
}

/// A move that lost at least what a [`MistakeQuery`] asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MistakeHit {
    pub game: u32,
    pub lost: Lost,
}

/// Which loss orders the hits (the larger first; ties by game, then move).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LossOrder {
    /// Win probability lost.
    #[default]
    Win,
    /// Points lost (moves without a points loss last).
    Lead,
}

/// Moves to find: those that lost at least `win` (1/10,000) and at least `lead` (tenths of a
/// point); a threshold not given asks nothing of that loss, and a points threshold leaves out
/// moves without a points loss.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MistakeQuery {
    pub win: Option<i32>,
    pub lead: Option<i32>,
    pub order: LossOrder,
}

impl MistakeQuery {
    /// Whether move loss `l` is at least what this asks.
    pub fn takes(&self, l: &Lost) -> bool {
        self.win.is_none_or(|w| l.win >= w)
            && self.lead.is_none_or(|t| l.lead.is_some_and(|x| x >= t))
    }

    /// The ordering of hits: the larger loss first, then game, then move.
    pub fn cmp(&self, a: &MistakeHit, b: &MistakeHit) -> std::cmp::Ordering {
        let key = |h: &MistakeHit| match self.order {
            LossOrder::Win => Some(h.lost.win),
            LossOrder::Lead => h.lost.lead,
        };
        key(b)
            .cmp(&key(a))
            .then(a.game.cmp(&b.game))
            .then(a.lost.k.cmp(&b.lost.k))
    }
}

/// What a search for mistakes found: the first hits in the query's order, and how many there are
/// in all.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Mistakes {
    pub hits: Vec<MistakeHit>,
    pub count: u64,
}

/// The bytes of evaluations after which a segment is closed ([`Writer::is_full`]).
const FULL_AT: u64 = u32::MAX as u64 - (16 << 20);

/// A segment's evaluations and mistakes lists, while it is written.
#[derive(Default)]
pub(crate) struct Writer {
    /// (game within the segment, start of its data) of each analysed game.
    table: Vec<(u32, u32)>,
    data: Vec<u8>,
    by_win: Vec<MistakeHit>,
    by_lead: Vec<MistakeHit>,
}

impl Writer {
    /// Keeps game `id` (the segment's `game`-th) with its evaluations.
    pub(crate) fn add(&mut self, game: u32, id: u32, evals: &GameEvals) {
        self.table.push((game, self.data.len() as u32));
        evals.encode(&mut self.data);
        for lost in evals.losses() {
            let hit = MistakeHit { game: id, lost };
            if lost.win >= FLOOR_WIN {
                self.by_win.push(hit);
            }
            if lost.lead.is_some_and(|l| l >= FLOOR_LEAD) {
                self.by_lead.push(hit);
            }
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    /// Whether the segment must close before its next game: `evals.bin`'s offsets are 32-bit,
    /// and one more game (at most 65,536 positions of a few bytes each) must still fit.
    pub(crate) fn is_full(&self) -> bool {
        self.data.len() as u64 >= FULL_AT
    }

    /// `evals.bin` and `mistakes.bin`'s bytes.
    pub(crate) fn finish(mut self) -> (Vec<u8>, Vec<u8>) {
        let mut evals = Vec::with_capacity(8 + self.table.len() * 8 + self.data.len());
        evals.extend_from_slice(&(self.table.len() as u32).to_le_bytes());
        for (game, start) in &self.table {
            evals.extend_from_slice(&game.to_le_bytes());
            evals.extend_from_slice(&start.to_le_bytes());
        }
        evals.extend_from_slice(&(self.data.len() as u32).to_le_bytes());
        evals.extend_from_slice(&self.data);
        let by_win = MistakeQuery::default();
        let by_lead = MistakeQuery {
            order: LossOrder::Lead,
            ..MistakeQuery::default()
        };
        self.by_win.sort_unstable_by(|a, b| by_win.cmp(a, b));
        self.by_lead.sort_unstable_by(|a, b| by_lead.cmp(a, b));
        let mut mistakes = Vec::with_capacity(8 + (self.by_win.len() + self.by_lead.len()) * ENTRY);
        mistakes.extend_from_slice(&(self.by_win.len() as u32).to_le_bytes());
        mistakes.extend_from_slice(&(self.by_lead.len() as u32).to_le_bytes());
        for h in self.by_win.iter().chain(&self.by_lead) {
            mistakes.extend_from_slice(&h.game.to_le_bytes());
            mistakes.extend_from_slice(&(h.lost.k as u16).to_le_bytes());
            mistakes.push(u8::from(h.lost.black) | (u8::from(h.lost.lead.is_some()) << 1));
            mistakes.push(0);
            let clamp = |v: i32| v.clamp(i16::MIN.into(), i16::MAX.into()) as i16;
            mistakes.extend_from_slice(&clamp(h.lost.win).to_le_bytes());
            mistakes.extend_from_slice(&clamp(h.lost.lead.unwrap_or(0)).to_le_bytes());
        }
        (evals, mistakes)
    }
}

fn entry(b: &[u8]) -> MistakeHit {
    let u32_at = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
    let i16_at = |i: usize| i16::from_le_bytes([b[i], b[i + 1]]);
    MistakeHit {
        game: u32_at(0),
        lost: Lost {
            k: u32::from(u16::from_le_bytes([b[4], b[5]])),
            black: b[6] & 1 != 0,
            win: i32::from(i16_at(8)),
            lead: (b[6] & 2 != 0).then(|| i32::from(i16_at(10))),
        },
    }
}

/// A segment's evaluations and mistakes lists, mapped and checked as they are read.
pub(crate) struct Stored {
    evals: Checked,
    mistakes: Checked,
    /// Analysed games.
    games: usize,
    by_win: usize,
    by_lead: usize,
}

fn u32_of(c: &Checked, at: usize) -> Option<u32> {
    c.get(at..at + 4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

impl Stored {
    /// The two files of the segment in `dir`; their lengths must be those their counts say.
    pub(crate) fn open(
        dir: &Path,
        evals: Checked,
        mistakes: Checked,
    ) -> Result<Stored, IndexError> {
        let bad = |name: &str, why: String| {
            IndexError::Corrupt(format!("{} {why}", dir.join(name).display()))
        };
        use crate::layout::segment::{EVALS, MISTAKES};
        let games = u32_of(&evals, 0).ok_or_else(|| bad(EVALS, "is too short".into()))? as usize;
        let table_end = 4 + games * 8 + 4;
        let data_len = u32_of(&evals, table_end - 4)
            .ok_or_else(|| bad(EVALS, format!("is too short for {games} games")))?;
        if evals.len() != table_end + data_len as usize {
            return Err(bad(
                EVALS,
                format!(
                    "holds {} bytes, its table says {}",
                    evals.len(),
                    table_end + data_len as usize
                ),
            ));
        }
        let (Some(by_win), Some(by_lead)) = (u32_of(&mistakes, 0), u32_of(&mistakes, 4)) else {
            return Err(bad(MISTAKES, "is too short".into()));
        };
        let (by_win, by_lead) = (by_win as usize, by_lead as usize);
        if mistakes.len() != 8 + (by_win + by_lead) * ENTRY {
            return Err(bad(
                MISTAKES,
                format!(
                    "holds {} bytes for {by_win} and {by_lead} entries",
                    mistakes.len()
                ),
            ));
        }
        Ok(Stored {
            evals,
            mistakes,
            games,
            by_win,
            by_lead,
        })
    }

    /// Bytes of `evals.bin`.
    pub(crate) fn evals_len(&self) -> usize {
        self.evals.len()
    }

    /// Bytes of `mistakes.bin`.
    pub(crate) fn mistakes_len(&self) -> usize {
        self.mistakes.len()
    }

    /// Analysed games of the segment.
    pub(crate) fn games(&self) -> usize {
        self.games
    }

    /// (game within the segment, start, end) of the `i`-th analysed game's data.
    fn slot(&self, i: usize) -> Option<(u32, usize, usize)> {
        let at = 4 + i * 8;
        let game = u32_of(&self.evals, at)?;
        let start = u32_of(&self.evals, at + 4)? as usize;
        let end = u32_of(
            &self.evals,
            at + 8 + if i + 1 == self.games { 0 } else { 4 },
        )? as usize;
        Some((game, start, end))
    }

    fn data(&self, start: usize, end: usize) -> Option<&[u8]> {
        let base = 4 + self.games * 8 + 4;
        if start > end {
            return None;
        }
        self.evals.get(base + start..base + end)
    }

    /// The evaluations of the segment's `game`-th game, if it has any (or its bytes read).
    pub(crate) fn game(&self, game: u32) -> Option<GameEvals> {
        GameEvals::decode(self.bytes_of(game)?)
    }

    /// [`GameEvals::move_from`] of the segment's `game`-th game, read only as far as it needs.
    pub(crate) fn move_from(&self, game: u32, k: usize) -> Option<(Rounded, Lost)> {
        GameEvals::move_from_bytes(self.bytes_of(game)?, k)
    }

    /// The bytes of the segment's `game`-th game's evaluations, if it has any.
    fn bytes_of(&self, game: u32) -> Option<&[u8]> {
        let (mut lo, mut hi) = (0, self.games);
        while lo < hi {
            let mid = (lo + hi) / 2;
            let (g, start, end) = self.slot(mid)?;
            match g.cmp(&game) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return self.data(start, end),
            }
        }
        None
    }

    /// Every analysed game of the segment: (game within the segment, its evaluations); a game
    /// whose bytes do not decode is left out (its file's checksums say it is damaged).
    pub(crate) fn each(&self) -> impl Iterator<Item = (u32, GameEvals)> + '_ {
        (0..self.games).filter_map(|i| {
            let (g, start, end) = self.slot(i)?;
            Some((g, GameEvals::decode(self.data(start, end)?)?))
        })
    }

    /// The `i`-th entry of the list starting at entry `from`.
    fn entry(&self, from: usize, i: usize) -> Option<MistakeHit> {
        let at = 8 + (from + i) * ENTRY;
        self.mistakes.get(at..at + ENTRY).map(entry)
    }

    /// The segment's moves that `want.q` asks for and `keep` keeps (game id, Black moved): how
    /// many, and the first ones `want` keeps. `first_game` is the segment's first id.
    pub(crate) fn find(
        &self,
        want: &Wanted<'_>,
        first_game: u32,
        keep: &(dyn Fn(u32, bool) -> bool + Sync),
    ) -> Mistakes {
        let q = want.q;
        let win_list = q.win.filter(|&w| w >= FLOOR_WIN);
        let lead_list = q.lead.filter(|&l| l >= FLOOR_LEAD);
        // The list sorted as the answer is, when its floor is low enough; else the other list;
        // else every evaluation.
        let list = match (q.order, win_list, lead_list) {
            (LossOrder::Win, Some(w), _) => Some((0, self.by_win, w, true, want.by_loss())),
            (LossOrder::Lead, _, Some(l)) => {
                Some((self.by_win, self.by_lead, l, false, want.by_loss()))
            }
            (_, Some(w), _) => Some((0, self.by_win, w, true, false)),
            (_, _, Some(l)) => Some((self.by_win, self.by_lead, l, false, false)),
            _ => None,
        };
        let mut out = Mistakes::default();
        let take = |h: MistakeHit, in_order: bool, out: &mut Mistakes| {
            if q.takes(&h.lost) && keep(h.game, h.lost.black) {
                out.count += 1;
                match in_order {
                    // The list's order is the answer's: its first hits are the first.
                    true if out.hits.len() < want.first => out.hits.push(h),
                    true => {}
                    false => want.push(&mut out.hits, h),
                }
            }
        };
        match list {
            Some((from, len, threshold, win, in_order)) => {
                let loss = |h: &MistakeHit| match win {
                    true => h.lost.win,
                    false => h.lost.lead.unwrap_or(i32::MIN),
                };
                // The list is sorted by its loss, larger first: the entries at or over the
                // threshold are its front.
                let (mut lo, mut hi) = (0, len);
                while lo < hi {
                    let mid = (lo + hi) / 2;
                    match self.entry(from, mid) {
                        Some(h) if loss(&h) >= threshold => lo = mid + 1,
                        _ => hi = mid,
                    }
                }
                let at = 8 + from * ENTRY;
                if let Some(bytes) = self.mistakes.get(at..at + lo * ENTRY) {
                    for run in bytes.chunks(ENTRY * STOP_EVERY) {
                        if want.stopped() {
                            break;
                        }
                        for e in run.chunks_exact(ENTRY) {
                            take(entry(e), in_order, &mut out);
                        }
                    }
                }
                if !in_order {
                    want.finish(&mut out.hits);
                }
            }
            None => {
                for (g, evals) in self.each() {
                    if want.stopped() {
                        break;
                    }
                    for lost in evals.losses() {
                        let hit = MistakeHit {
                            game: first_game + g,
                            lost,
                        };
                        take(hit, false, &mut out);
                    }
                }
                want.finish(&mut out.hits);
            }
        }
        out
    }
}

/// An order of hits other than by loss (a sort by date, then loss), given by the caller: no
/// list is sorted in it, so every hit is weighed.
pub type HitOrder<'a> = &'a (dyn Fn(&MistakeHit, &MistakeHit) -> std::cmp::Ordering + Sync);

/// Which of a search's hits it keeps: the first `first` in the loss order `q` asks
/// ([`MistakeQuery::cmp`]), or in the caller's order `by`. Hits gathered one by one go through
/// [`Wanted::push`], which drops those that can no longer be among the first whenever it holds
/// twice as many: a search's memory is bounded by the page it answers, not by how many moves
/// hit (tens of millions under a low threshold).
///
/// `stopped` is asked every [`STOP_EVERY`] entries or game read: once it says so, the search
/// reads no more and its answer is incomplete (the caller, who asked, knows).
#[derive(Clone, Copy)]
pub struct Wanted<'a> {
    pub q: &'a MistakeQuery,
    pub first: usize,
    pub by: Option<HitOrder<'a>>,
    pub stopped: Option<&'a (dyn Fn() -> bool + Sync)>,
}

/// How many list entries a search reads between two questions to [`Wanted::stopped`] (a few
/// microseconds' reading); an evaluated game read costs as much as many entries, and each asks.
pub const STOP_EVERY: usize = 1 << 12;

/// The fewest hits [`Wanted::push`] holds before it drops any: a small page is not worth
/// selecting among a few dozen.
const HELD_AT_LEAST: usize = 4096;

impl Wanted<'_> {
    fn stopped(&self) -> bool {
        self.stopped.is_some_and(|s| s())
    }

    /// Whether the order kept is the query's loss order, the one its lists are sorted in.
    fn by_loss(&self) -> bool {
        self.by.is_none()
    }

    fn cmp(&self, a: &MistakeHit, b: &MistakeHit) -> std::cmp::Ordering {
        match self.by {
            Some(by) => by(a, b),
            None => self.q.cmp(a, b),
        }
    }

    /// Adds `hit` to `hits`, keeping them bounded (see [`Wanted`]). Once `first` are held,
    /// `hits[first - 1]` is the last of the first `first` (each selection puts it there, and
    /// later hits only go after it): a hit that comes after it in the order can never be among
    /// the first, and is dropped at the cost of one comparison.
    pub fn push(&self, hits: &mut Vec<MistakeHit>, hit: MistakeHit) {
        let first = self.first;
        if first == 0 {
            return;
        }
        if hits.len() >= first && self.cmp(&hit, &hits[first - 1]) != std::cmp::Ordering::Less {
            return;
        }
        hits.push(hit);
        if hits.len() == first || hits.len() >= first.saturating_mul(2).max(HELD_AT_LEAST) {
            self.select(hits);
        }
    }

    /// Keeps the first `first` of `hits`, the last of them at `first - 1`, the others in no
    /// order.
    fn select(&self, hits: &mut Vec<MistakeHit>) {
        if hits.len() >= self.first {
            if self.first == 0 {
                hits.clear();
                return;
            }
            hits.select_nth_unstable_by(self.first - 1, |a, b| self.cmp(a, b));
            hits.truncate(self.first);
        }
    }

    /// Keeps the first `first` of `hits`, sorted.
    pub fn finish(&self, hits: &mut Vec<MistakeHit>) {
        self.select(hits);
        hits.sort_unstable_by(|a, b| self.cmp(a, b));
    }
}

impl crate::Index {
    /// Whether any game of the index keeps evaluations.
    pub fn has_evals(&self) -> bool {
        self.segments.iter().any(|s| s.evals().is_some())
    }

    /// Games that keep evaluations.
    pub fn analysed_games(&self) -> usize {
        self.segments
            .iter()
            .filter_map(|s| s.evals())
            .map(Stored::games)
            .sum()
    }

    /// The ids of the games that keep evaluations, ascending (none read for an index without).
    pub fn analysed_ids(&self) -> Vec<u32> {
        let mut out = Vec::new();
        for s in &self.segments {
            let Some(e) = s.evals() else { continue };
            out.extend((0..e.games()).filter_map(|i| Some(s.first_game + e.slot(i)?.0)));
        }
        out
    }

    /// The evaluations game `id` keeps; `None` for a game without (or past the index).
    pub fn evals(&self, id: u32) -> Option<GameEvals> {
        let (stored, game) = self.evals_of(id)?;
        stored.game(game)
    }

    /// [`GameEvals::move_from`] of game `id`: the move from position `k` (move `k + 1`), read
    /// without decoding the rest of the game's evaluations.
    pub fn move_from(&self, id: u32, k: usize) -> Option<(Rounded, Lost)> {
        let (stored, game) = self.evals_of(id)?;
        stored.move_from(game, k)
    }

    /// The evaluations of game `id`'s segment, and its number there.
    fn evals_of(&self, id: u32) -> Option<(&Stored, u32)> {
        let i = self
            .segments
            .partition_point(|s| s.first_game <= id)
            .checked_sub(1)?;
        let s = &self.segments[i];
        Some((s.evals()?, id - s.first_game))
    }

    /// [`crate::Index::mistakes`] among the games `games` (ascending) only, read game by game
    /// from their evaluations: for a few games (a player's, an event's) cheaper than the front
    /// of the lists, which holds every game's moves.
    pub fn mistakes_of(
        &self,
        want: Wanted<'_>,
        games: &[u32],
        keep: &(dyn Fn(u32, bool) -> bool + Sync),
    ) -> Mistakes {
        use rayon::prelude::*;
        let parts: Vec<Mistakes> = games
            .par_chunks(1024)
            .map(|chunk| {
                let mut out = Mistakes::default();
                for &g in chunk {
                    if self.is_removed(g) || want.stopped() {
                        continue;
                    }
                    let Some(evals) = self.evals(g) else { continue };
                    for lost in evals.losses() {
                        if want.q.takes(&lost) && keep(g, lost.black) {
                            out.count += 1;
                            want.push(&mut out.hits, MistakeHit { game: g, lost });
                        }
                    }
                }
                want.select(&mut out.hits);
                out
            })
            .collect();
        merged(parts, &want)
    }

    /// The moves that lost what `want.q` asks, among those `keep` keeps (game id, whether Black
    /// moved): how many, and the first ones `want` keeps, sorted. Hidden games are left out.
    /// Call [`crate::Index::check_intact`] before answering from it.
    pub fn mistakes(
        &self,
        want: Wanted<'_>,
        keep: &(dyn Fn(u32, bool) -> bool + Sync),
    ) -> Mistakes {
        use rayon::prelude::*;
        let keep = |g: u32, black: bool| !self.is_removed(g) && keep(g, black);
        let parts: Vec<Mistakes> = self
            .segments
            .par_iter()
            .filter_map(|s| Some(s.evals()?.find(&want, s.first_game, &keep)))
            .collect();
        merged(parts, &want)
    }
}

/// Parts' answers as one: their counts summed, the first hits among theirs kept, sorted.
fn merged(parts: Vec<Mistakes>, want: &Wanted<'_>) -> Mistakes {
    let mut out = Mistakes::default();
    for p in parts {
        out.count += p.count;
        for h in p.hits {
            want.push(&mut out.hits, h);
        }
    }
    want.finish(&mut out.hits);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(win: f32, lead: Option<f32>, visits: Option<u32>) -> Option<Eval> {
        Some(Eval { win, lead, visits })
    }

    #[test]
    fn a_move_read_alone_is_the_move_of_the_whole_game() {
        let mut state = 99u64;
        let mut next = move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as u32
        };
        for game in 0..200 {
            let n = 1 + next() as usize % 60;
            let positions = (0..n)
                .map(|_| {
                    (next() % 5 != 0).then(|| Eval {
                        win: (next() % 10_001) as f32 / 10_000.0,
                        lead: (next() % 3 != 0).then(|| (next() % 801) as f32 / 10.0 - 40.0),
                        visits: (next() % 2 == 0).then(|| next() % 5000),
                    })
                })
                .collect();
            let evals = Evals {
                positions,
                program: "test",
                engine: (game % 2 == 0).then(|| "KataGo".to_string()),
            };
            let movers = (0..n).map(|i| {
                if (i + game) % 3 == 0 {
                    Color::White
                } else {
                    Color::Black
                }
            });
            let g = GameEvals::new(&evals, movers);
            let mut bytes = Vec::new();
            g.encode(&mut bytes);
            for k in 0..n + 2 {
                assert_eq!(
                    GameEvals::move_from_bytes(&bytes, k),
                    g.move_from(k),
                    "game {game}, k {k}"
                );
            }
            // Bytes cut short read as nothing or as what they hold, never a panic.
            for cut in 0..bytes.len() {
                for k in 0..n {
                    if let Some(found) = GameEvals::move_from_bytes(&bytes[..cut], k) {
                        assert_eq!(Some(found), g.move_from(k));
                    }
                }
            }
        }
    }

    #[test]
    fn hits_held_stay_bounded_and_the_first_are_kept() {
        // Many more hits than a search holds, with ties of loss (the game and move decide).
        let mut state = 12345u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as u32
        };
        let all: Vec<MistakeHit> = (0..30_000)
            .map(|i| MistakeHit {
                game: next() % 5000,
                lost: Lost {
                    k: i,
                    black: i % 2 == 0,
                    win: (next() % 200) as i32,
                    lead: (i % 3 != 0).then(|| (next() % 50) as i32),
                },
            })
            .collect();
        let by_game = |a: &MistakeHit, b: &MistakeHit| (b.game, a.lost.k).cmp(&(a.game, b.lost.k));
        for order in [LossOrder::Win, LossOrder::Lead] {
            let q = MistakeQuery {
                win: None,
                lead: None,
                order,
            };
            for by in [None, Some(&by_game as HitOrder)] {
                for first in [0, 1, 10, 3000, 40_000, usize::MAX] {
                    let want = Wanted {
                        q: &q,
                        first,
                        by,
                        stopped: None,
                    };
                    let mut held = Vec::new();
                    for &h in &all {
                        want.push(&mut held, h);
                        assert!(held.len() <= first.saturating_mul(2).max(HELD_AT_LEAST));
                    }
                    want.finish(&mut held);
                    let mut sorted = all.clone();
                    sorted.sort_by(|a, b| want.cmp(a, b));
                    sorted.truncate(first);
                    assert_eq!(held, sorted, "{order:?} first {first}");
                }
            }
        }
    }

    #[test]
    fn evaluations_read_back_rounded_to_the_units() {
        let evals = Evals {
            positions: vec![
                eval(0.5, Some(0.5), Some(100)),
                None,
                eval(0.123_456, Some(-12.34), None),
                eval(1.0, None, Some(u32::MAX)),
                eval(f32::NAN, Some(1.0), None),
                eval(0.0, Some(-9_999.0), Some(0)),
                eval(0.3, Some(2.0), None),
            ],
            program: "Sabaki",
            engine: Some("KataGo b18".into()),
        };
        use Color::{Black, White};
        let g = GameEvals::new(&evals, [Black, White, Black, White, Black]);
        // Six positions: the main line has five moves.
        assert_eq!(g.positions.len(), 6);
        assert_eq!(g.positions[2], eval(0.1235, Some(-12.3), None));
        assert_eq!(g.positions[4], None);
        assert_eq!(
            g.positions[5],
            eval(0.0, Some(-(MAX_LEAD as f32) / 10.0), Some(0))
        );
        assert_eq!(g.black_moved, [false, true, false, true, false, true]);
        let mut bytes = Vec::new();
        g.encode(&mut bytes);
        assert_eq!(GameEvals::decode(&bytes), Some(g.clone()));
        // Any byte cut off is refused, never read as other numbers.
        for n in 0..bytes.len() {
            assert_eq!(GameEvals::decode(&bytes[..n]), None, "{n}");
        }
        // Only move 3 has both positions evaluated: Black's, from 12.35% to 100%, a gain.
        let losses: Vec<Lost> = g.losses().collect();
        assert_eq!(
            losses,
            [Lost {
                k: 3,
                black: true,
                win: -8765,
                lead: None
            }]
        );
    }
}
