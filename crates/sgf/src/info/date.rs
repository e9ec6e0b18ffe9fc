//! Game dates (`DT`) as inclusive ranges of Gregorian days.
//!
//! FF\[4\] writes `YYYY-MM-DD`, partial `YYYY` or `YYYY-MM`, and several dates joined by commas
//! with shorthands (`1996-05-06,07,08`, `1996-12-27,28,1997-01-03,04`, `1996-05,06`,
//! `1996,1997`). WTF writes `y-m-d` unpadded and partial (`1985-8-27`, `200`). Archives add
//! `2001/10/11 21:22:51 UT`, `2017.08.28 15:06`, `29.11.2012`, `20030506`, `2003年5月6日`,
//! `April 14-15, 1957` and plain prose. A search by date wants one interval per game, so every
//! form becomes the smallest range holding every day it names: a partial date covers its whole
//! month or year, and a list covers from its earliest to its latest day.
//!
//! Decisions:
//! - **Validation.** Years 1–9999 (year 0 and `0000-00-00` are no date); a month outside 1–12
//!   degrades the date to its year, a day outside the month (leap years counted) to its month,
//!   so `2003-02-30` reads as February 2003. In a comma list, the first bad element ends the list.
//! - **Ambiguous numbers.** A leading 1–2 digit number followed by a separator is a day-first
//!   date (`29.11.2012`) unless that can't be (`11/29/2012` is month-first); with both numbers
//!   ≤ 12, `/` means month-first (US) and `.`/`-` day-first. A bare number of 1–4 digits is a year
//!   (WTF's `200`); otherwise a year needs three or four digits. Eight digits are `YYYYMMDD`.
//! - **Text after a date** (a time, `UT`, `approx.`) is ignored; prose with no date in it is `None`.
//!   When the value does not start with a date, the first four-digit number starts one (`ca. 1850`).
//!   English month names are read with any order of day and year (`August 1, 2001`,
//!   `29th September 2012`); a two-digit year is accepted there only when it can't be a day
//!   (`march 94` → 1994; 00–49 → 20xx, 50–99 → 19xx).
//! - **Japanese eras** (`平成15年` → 2003) are converted for 明治, 大正, 昭和, 平成 and 令和.
//! - **Writing.** [`DateRange::to_sgf`] writes a single day, whole month or whole year as such;
//!   a range of at most seven days, months or years is listed in full with FF\[4\] shorthand
//!   (`1996-05-06,07,08`), a longer one as its two ends (`1996-12-27,1997-01-04`). FF\[4\]'s lists
//!   name the days played, so the in-between days of a long range are not claimed.
//!   [`DateRange::to_wtf`] writes the start only (WTF's DT is the day play began), unpadded,
//!   as `y` or `y-m` when the range is whole years or months.
//! - **Ordering.** [`Date::days_since_epoch`] counts days from 1970-01-01 in the proleptic
//!   Gregorian calendar (negative before), so ranges can be compared and indexed as integers.

use super::lex::{any_int, digit_len, fold, uint};

/// A day of the proleptic Gregorian calendar. Fields are compared year, month, day.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Date {
    pub year: i32,
    /// 1–12.
    pub month: u8,
    /// 1–31.
    pub day: u8,
}

/// An inclusive range of days; `start <= end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DateRange {
    pub start: Date,
    pub end: Date,
}

fn is_leap(year: i32) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

/// The number of days in a month (0 for a month outside 1–12).
pub fn days_in_month(year: i32, month: u8) -> u8 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap(year) => 29,
        2 => 28,
        _ => 0,
    }
}

fn valid_year(year: i32) -> bool {
    (1..=9999).contains(&year)
}

impl Date {
    /// A validated date: year 1–9999, month 1–12, day within the month.
    pub fn new(year: i32, month: u8, day: u8) -> Option<Date> {
        (valid_year(year) && day >= 1 && day <= days_in_month(year, month)).then_some(Date {
            year,
            month,
            day,
        })
    }

    /// Days since 1970-01-01 (negative before it), proleptic Gregorian: a total order on days
    /// that turns date ranges into integer ranges.
    pub fn days_since_epoch(&self) -> i64 {
        let (m, d) = (i64::from(self.month), i64::from(self.day));
        let y = i64::from(self.year) - i64::from(m <= 2);
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let mp = (m + 9) % 12;
        let doy = (153 * mp + 2) / 5 + d - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146_097 + doe - 719_468
    }

    fn first_of_month(&self) -> bool {
        self.day == 1
    }

    fn last_of_month(&self) -> bool {
        self.day == days_in_month(self.year, self.month)
    }
}

impl DateRange {
    /// One day.
    pub fn day(date: Date) -> DateRange {
        DateRange {
            start: date,
            end: date,
        }
    }

    /// A whole month, if valid.
    pub fn month(year: i32, month: u8) -> Option<DateRange> {
        Some(DateRange {
            start: Date::new(year, month, 1)?,
            end: Date::new(year, month, days_in_month(year, month))?,
        })
    }

    /// A whole year, if valid.
    pub fn year(year: i32) -> Option<DateRange> {
        Some(DateRange {
            start: Date::new(year, 1, 1)?,
            end: Date::new(year, 12, 31)?,
        })
    }

    /// The smallest range holding both.
    pub fn union(&self, other: &DateRange) -> DateRange {
        DateRange {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// Whether `date` lies in the range.
    pub fn contains(&self, date: Date) -> bool {
        self.start <= date && date <= self.end
    }

    /// Whether the two ranges share a day.
    pub fn overlaps(&self, other: &DateRange) -> bool {
        self.start <= other.end && other.start <= self.end
    }

    fn whole_years(&self) -> bool {
        (self.start.month, self.start.day) == (1, 1) && (self.end.month, self.end.day) == (12, 31)
    }

    fn whole_months(&self) -> bool {
        self.start.first_of_month() && self.end.last_of_month()
    }

    /// The canonical FF\[4\] value; see the module documentation.
    pub fn to_sgf(&self) -> String {
        const MAX_LISTED: i64 = 7;
        let (s, e) = (self.start, self.end);
        if self.whole_years() {
            let n = i64::from(e.year - s.year) + 1;
            let years: Vec<i32> = if n <= MAX_LISTED {
                (s.year..=e.year).collect()
            } else {
                vec![s.year, e.year]
            };
            return years
                .iter()
                .map(|y| format!("{y:04}"))
                .collect::<Vec<_>>()
                .join(",");
        }
        let mut out = String::new();
        if self.whole_months() {
            let index = |d: Date| i64::from(d.year) * 12 + i64::from(d.month) - 1;
            let (a, b) = (index(s), index(e));
            let months: Vec<i64> = if b - a < MAX_LISTED {
                (a..=b).collect()
            } else {
                vec![a, b]
            };
            let mut prev_year = None;
            for m in months {
                let (y, mo) = (m.div_euclid(12), m.rem_euclid(12) + 1);
                if !out.is_empty() {
                    out.push(',');
                }
                if prev_year == Some(y) {
                    out.push_str(&format!("{mo:02}"));
                } else {
                    out.push_str(&format!("{y:04}-{mo:02}"));
                }
                prev_year = Some(y);
            }
            return out;
        }
        let (a, b) = (s.days_since_epoch(), e.days_since_epoch());
        let days: Vec<Date> = if b - a < MAX_LISTED {
            let mut v = vec![s];
            let mut d = s;
            while d < e {
                d = next_day(d);
                v.push(d);
            }
            v
        } else {
            vec![s, e]
        };
        let mut prev: Option<Date> = None;
        for d in days {
            if !out.is_empty() {
                out.push(',');
            }
            match prev {
                Some(p) if (p.year, p.month) == (d.year, d.month) => {
                    out.push_str(&format!("{:02}", d.day))
                }
                Some(p) if p.year == d.year => {
                    out.push_str(&format!("{:02}-{:02}", d.month, d.day))
                }
                _ => out.push_str(&format!("{:04}-{:02}-{:02}", d.year, d.month, d.day)),
            }
            prev = Some(d);
        }
        out
    }

    /// The WTF v22 value: the start, unpadded, partial for whole years or months.
    pub fn to_wtf(&self) -> String {
        let s = self.start;
        if self.whole_years() {
            format!("{}", s.year)
        } else if self.whole_months() {
            format!("{}-{}", s.year, s.month)
        } else {
            format!("{}-{}-{}", s.year, s.month, s.day)
        }
    }
}

fn next_day(d: Date) -> Date {
    if d.day < days_in_month(d.year, d.month) {
        Date {
            day: d.day + 1,
            ..d
        }
    } else if d.month < 12 {
        Date {
            month: d.month + 1,
            day: 1,
            ..d
        }
    } else {
        Date {
            year: d.year + 1,
            month: 1,
            day: 1,
        }
    }
}

/// A date with its known parts, before it becomes a range.
#[derive(Clone, Copy, Debug)]
struct Partial {
    year: i32,
    month: Option<u8>,
    day: Option<u8>,
}

impl Partial {
    /// Validates, degrading a bad day to the month and a bad month to the year.
    fn validated(self) -> Option<Partial> {
        if !valid_year(self.year) {
            return None;
        }
        let month = self.month.filter(|m| (1..=12).contains(m));
        let day = match month {
            Some(m) => self
                .day
                .filter(|&d| d >= 1 && d <= days_in_month(self.year, m)),
            None => None,
        };
        Some(Partial {
            year: self.year,
            month,
            day,
        })
    }

    /// Whether validation kept every part given.
    fn exact(self) -> Option<Partial> {
        let v = self.validated()?;
        (v.month == self.month && v.day == self.day).then_some(v)
    }

    fn range(self) -> Option<DateRange> {
        match (self.month, self.day) {
            (Some(m), Some(d)) => Date::new(self.year, m, d).map(DateRange::day),
            (Some(m), None) => DateRange::month(self.year, m),
            _ => DateRange::year(self.year),
        }
    }
}

/// Reads a date (`DT`) into the range of days it names; `None` when there is no date in it.
pub fn parse_date(raw: &str) -> Option<DateRange> {
    let folded = fold(raw);
    let s = folded.trim();
    if s.is_empty() {
        return None;
    }
    if let Some(r) = cjk_date(s) {
        return Some(r);
    }
    if let Some(r) = year_first(s, true).or_else(|| day_first(s)) {
        return Some(r);
    }
    if let Some(r) = english(s) {
        return Some(r);
    }
    // A date later in the text: the first run of exactly four digits.
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let n = digit_len(&s[i..]);
            if n == 4 {
                if let Some(r) = year_first(&s[i..], false) {
                    return Some(r);
                }
            }
            i += n;
        } else {
            i += 1;
        }
    }
    None
}

/// The separators allowed inside one date.
fn date_sep(c: u8) -> bool {
    matches!(c, b'-' | b'/' | b'.')
}

/// One year-first element at the start of `s`: `YYYY[-M[-D]]` with `-`, `/` or `.`, or
/// `YYYYMMDD`. `lone_short_year` lets a bare 1–2 digit number be a year (only when it is all of
/// `s`). Returns the element, unvalidated, and its length.
fn year_element(s: &str, lone_short_year: bool) -> Option<(Partial, usize)> {
    let n = digit_len(s);
    if n == 8 {
        let num = |r: std::ops::Range<usize>| s[r].parse::<u32>().ok();
        let p = Partial {
            year: num(0..4)? as i32,
            month: Some(num(4..6)? as u8),
            day: Some(num(6..8)? as u8),
        };
        return Some((p, 8));
    }
    let whole = n == s.len();
    if !(n == 3 || n == 4 || ((1..=2).contains(&n) && whole && lone_short_year)) {
        return None;
    }
    let year = s[..n].parse::<i32>().ok()?;
    let mut p = Partial {
        year,
        month: None,
        day: None,
    };
    let mut pos = n;
    let bytes = s.as_bytes();
    if pos < s.len() && date_sep(bytes[pos]) {
        let sep = bytes[pos];
        if let Some((m, ml)) = uint(&s[pos + 1..], 2).filter(|_| digit_len(&s[pos + 1..]) <= 2) {
            p.month = Some(m as u8);
            pos += 1 + ml;
            if pos < s.len() && bytes[pos] == sep {
                if let Some((d, dl)) =
                    uint(&s[pos + 1..], 2).filter(|_| digit_len(&s[pos + 1..]) <= 2)
                {
                    p.day = Some(d as u8);
                    pos += 1 + dl;
                }
            }
        }
    }
    Some((p, pos))
}

/// A year-first date, with an FF\[4\] list or a range after it.
fn year_first(s: &str, lone_short_year: bool) -> Option<DateRange> {
    let (first, mut pos) = year_element(s, lone_short_year)?;
    let first = first.validated()?;
    let mut range = first.range()?;
    let mut prev = first;
    loop {
        let rest = &s[pos..];
        let Some(sep_len) = list_separator(rest, prev.day.is_some()) else {
            break;
        };
        let after_sep = &rest[sep_len..];
        let skipped = after_sep.len() - after_sep.trim_start().len();
        let item = &after_sep[skipped..];
        let Some((next, len)) = list_element(item, prev) else {
            break;
        };
        range = range.union(&next.range()?);
        prev = next;
        pos += sep_len + skipped + len;
    }
    Some(range)
}

/// The length of a list or range separator at the start of `s`: `,`, `~`, `至`, `到`, `–`, `—`
/// (spaces around allowed), or `-`/`/` after a full date.
fn list_separator(s: &str, after_day: bool) -> Option<usize> {
    let t = s.trim_start();
    let lead = s.len() - t.len();
    let c = t.chars().next()?;
    let ok = matches!(c, ',' | '~' | '至' | '到' | '–' | '—' | '、')
        || (after_day && matches!(c, '-' | '/'));
    ok.then(|| lead + c.len_utf8())
}

/// One element of an FF\[4\] list after `prev`: `YYYY[-MM[-DD]]`, `MM-DD`, or a lone `MM`/`DD`
/// read by the precision of `prev`. Returns the validated element and its length.
fn list_element(s: &str, prev: Partial) -> Option<(Partial, usize)> {
    let n = digit_len(s);
    if n == 3 || n == 4 || n == 8 {
        let (p, len) = year_element(s, false)?;
        return Some((p.exact()?, len));
    }
    if n == 0 || n > 2 {
        return None;
    }
    let a: u8 = s[..n].parse().ok()?;
    let bytes = s.as_bytes();
    if n < s.len() && bytes[n] == b'-' {
        let b_len = digit_len(&s[n + 1..]);
        if (1..=2).contains(&b_len) {
            let b: u8 = s[n + 1..n + 1 + b_len].parse().ok()?;
            let p = Partial {
                year: prev.year,
                month: Some(a),
                day: Some(b),
            };
            return Some((p.exact()?, n + 1 + b_len));
        }
    }
    let p = match (prev.month, prev.day) {
        (Some(m), Some(_)) => Partial {
            year: prev.year,
            month: Some(m),
            day: Some(a),
        },
        (Some(_), None) => Partial {
            year: prev.year,
            month: Some(a),
            day: None,
        },
        _ => return None,
    };
    Some((p.exact()?, n))
}

/// `D.M.YYYY`, `D/M/YYYY`, `M/D/YYYY` at the start of `s`.
fn day_first(s: &str) -> Option<DateRange> {
    let bytes = s.as_bytes();
    let (a, la) = uint(s, 2)?;
    if la >= s.len() || !date_sep(bytes[la]) || digit_len(s) != la {
        return None;
    }
    let sep = bytes[la];
    let rest = &s[la + 1..];
    let (b, lb) = uint(rest, 2).filter(|_| digit_len(rest) <= 2)?;
    if lb >= rest.len() || rest.as_bytes()[lb] != sep {
        return None;
    }
    let yr = &rest[lb + 1..];
    if digit_len(yr) != 4 {
        return None;
    }
    let year: i32 = yr[..4].parse().ok()?;
    let (month, day) = if a > 12 {
        (b, a)
    } else if b > 12 || sep == b'/' {
        (a, b)
    } else {
        (b, a)
    };
    Partial {
        year,
        month: Some(month as u8),
        day: Some(day as u8),
    }
    .validated()?
    .range()
}

const ERAS: &[(&str, i32)] = &[
    ("明治", 1868),
    ("大正", 1912),
    ("昭和", 1926),
    ("平成", 1989),
    ("令和", 2019),
];

/// `2003年5月6日`, `二〇〇三年五月六日`, `2003년 5월 6일`, `平成15年`, partial or with an end
/// day (`2003年5月6日-8日`, `至5月8日`).
fn cjk_date(s: &str) -> Option<DateRange> {
    if !s.contains(['年', '년']) {
        return None;
    }
    for (i, _) in s.char_indices() {
        let Some((y, yl)) = any_int(&s[i..], 4) else {
            continue;
        };
        let after = s[i + yl..].trim_start();
        let Some(after) = after
            .strip_prefix('年')
            .or_else(|| after.strip_prefix('년'))
        else {
            continue;
        };
        let mut year = y as i32;
        if let Some(&(_, base)) = ERAS.iter().find(|(name, _)| s[..i].ends_with(name)) {
            year = base + year - 1;
        }
        let (month, after) = cjk_part(after, &['月', '월']);
        let (day, after) = match month {
            Some(_) => cjk_part(after, &['日', '일', '号', '號']),
            None => (None, after),
        };
        let first = Partial { year, month, day }.validated()?;
        let mut range = first.range()?;
        // An end: `-8日`, `至5月8日`, `~2003年5月8日`.
        if first.day.is_some() {
            if let Some(sep) = list_separator(after, true) {
                let rest = after[sep..].trim_start();
                let end = cjk_date(rest).or_else(|| {
                    let (m2, r2) = cjk_part(rest, &['月', '월']);
                    let (d2, _) = cjk_part(r2, &['日', '일', '号', '號']);
                    Partial {
                        year,
                        month: m2.or(first.month),
                        day: Some(d2?),
                    }
                    .exact()?
                    .range()
                });
                if let Some(end) = end {
                    range = range.union(&end);
                }
            }
        }
        return Some(range);
    }
    None
}

/// A number followed by one of `marks`, at the start of `s` (spaces allowed before either).
fn cjk_part<'a>(s: &'a str, marks: &[char]) -> (Option<u8>, &'a str) {
    let t = s.trim_start();
    if let Some((v, len)) = any_int(t, 2) {
        let after = t[len..].trim_start();
        if let Some(c) = after.chars().next().filter(|c| marks.contains(c)) {
            if let Ok(v) = u8::try_from(v) {
                return (Some(v), &after[c.len_utf8()..]);
            }
        }
    }
    (None, s)
}

const MONTHS: &[&str] = &[
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

fn month_name(word: &str) -> Option<u8> {
    let w = word.to_ascii_lowercase();
    if w == "sept" {
        return Some(9);
    }
    MONTHS
        .iter()
        .position(|m| w == *m || (w.len() == 3 && m.starts_with(w.as_str())))
        .map(|i| i as u8 + 1)
}

/// Dates with an English month name: `August 1, 2001`, `29th September 2012`,
/// `April 14-15, 1957`, `12th and 13th march 94`.
fn english(s: &str) -> Option<DateRange> {
    // Tokens: (is_number, text, position).
    let mut words = Vec::new();
    let mut numbers = Vec::new();
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_alphabetic() {
            let n = s[i..].bytes().take_while(u8::is_ascii_alphabetic).count();
            words.push((i, &s[i..i + n]));
            i += n;
        } else if c.is_ascii_digit() {
            let n = digit_len(&s[i..]);
            numbers.push((i, &s[i..i + n]));
            i += n;
        } else {
            i += 1;
        }
    }
    let (month_pos, month) = words
        .iter()
        .find_map(|&(p, w)| month_name(w).map(|m| (p, m)))?;
    let mut year = None;
    let mut days = Vec::new();
    let mut two_digit = None;
    for &(p, text) in &numbers {
        let v: u32 = match text.parse() {
            Ok(v) => v,
            Err(_) => continue,
        };
        if text.len() == 4 && year.is_none() {
            year = Some(v as i32);
        } else if text.len() <= 2 {
            if p > month_pos && text.len() == 2 {
                two_digit = Some(v);
            }
            days.push(v);
        }
    }
    if year.is_none() {
        let v = two_digit?;
        if v <= 31 && days.len() < 2 {
            return None;
        }
        // The last two-digit number after the month is the year.
        let idx = days.iter().rposition(|&d| d == v)?;
        days.remove(idx);
        year = Some(if v < 50 {
            2000 + v as i32
        } else {
            1900 + v as i32
        });
    }
    let year = year?;
    let days: Vec<u8> = days
        .into_iter()
        .filter(|d| (1..=31).contains(d))
        .map(|d| d as u8)
        .collect();
    match days.as_slice() {
        [] => DateRange::month(year, month),
        [d, rest @ ..] => {
            let start = Date::new(year, month, *d)?;
            let end = rest
                .first()
                .and_then(|&e| Date::new(year, month, e))
                .filter(|&e| e > start)
                .unwrap_or(start);
            Some(DateRange { start, end })
        }
    }
}

/// ISO form `YYYY-MM-DD`.
impl std::fmt::Display for Date {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(year: i32, month: u8, day: u8) -> Date {
        Date::new(year, month, day).unwrap()
    }

    fn r(a: (i32, u8, u8), b: (i32, u8, u8)) -> Option<DateRange> {
        Some(DateRange {
            start: d(a.0, a.1, a.2),
            end: d(b.0, b.1, b.2),
        })
    }

    #[test]
    fn iso_and_partial() {
        assert_eq!(parse_date("2003-05-06"), r((2003, 5, 6), (2003, 5, 6)));
        assert_eq!(parse_date("2003-05"), r((2003, 5, 1), (2003, 5, 31)));
        assert_eq!(parse_date("2003"), r((2003, 1, 1), (2003, 12, 31)));
        assert_eq!(parse_date("2004-02"), r((2004, 2, 1), (2004, 2, 29)));
        assert_eq!(parse_date("1900-02"), r((1900, 2, 1), (1900, 2, 28)));
        assert_eq!(parse_date("2000-02"), r((2000, 2, 1), (2000, 2, 29)));
        assert_eq!(parse_date(" 2003-05-06 "), r((2003, 5, 6), (2003, 5, 6)));
    }

    #[test]
    fn wtf_unpadded() {
        assert_eq!(parse_date("1985-8-27"), r((1985, 8, 27), (1985, 8, 27)));
        assert_eq!(parse_date("1985-8"), r((1985, 8, 1), (1985, 8, 31)));
        assert_eq!(parse_date("200"), r((200, 1, 1), (200, 12, 31)));
        assert_eq!(parse_date("196"), r((196, 1, 1), (196, 12, 31)));
        assert_eq!(parse_date("5"), r((5, 1, 1), (5, 12, 31)));
        assert_eq!(parse_date("2003-5-6"), r((2003, 5, 6), (2003, 5, 6)));
    }

    #[test]
    fn ff4_lists() {
        assert_eq!(
            parse_date("1996-05-06,07,08"),
            r((1996, 5, 6), (1996, 5, 8))
        );
        assert_eq!(
            parse_date("1996-12-27,28,1997-01-03,04"),
            r((1996, 12, 27), (1997, 1, 4))
        );
        assert_eq!(
            parse_date("1996-05-06,06-10"),
            r((1996, 5, 6), (1996, 6, 10))
        );
        assert_eq!(parse_date("1996-05,06"), r((1996, 5, 1), (1996, 6, 30)));
        assert_eq!(parse_date("1996,1997"), r((1996, 1, 1), (1997, 12, 31)));
        assert_eq!(parse_date("1994-03-12,13"), r((1994, 3, 12), (1994, 3, 13)));
        assert_eq!(
            parse_date("2019-02-28,2020-02-29,2021-01-10,11,12,02-03"),
            r((2019, 2, 28), (2021, 2, 3))
        );
        assert_eq!(
            parse_date("2006-04-21,2006-04-22,2006-05-10,2006-08-21"),
            r((2006, 4, 21), (2006, 8, 21))
        );
        // Out of order: still the hull.
        assert_eq!(
            parse_date("2006-05-10,2006-04-22"),
            r((2006, 4, 22), (2006, 5, 10))
        );
        // A bad element ends the list.
        assert_eq!(
            parse_date("1996-05-06,07,45"),
            r((1996, 5, 6), (1996, 5, 7))
        );
        assert_eq!(parse_date("1996,07"), r((1996, 1, 1), (1996, 12, 31)));
        assert_eq!(parse_date("1996-05-06, 07"), r((1996, 5, 6), (1996, 5, 7)));
    }

    #[test]
    fn ranges() {
        assert_eq!(
            parse_date("2003-05-06~2003-05-08"),
            r((2003, 5, 6), (2003, 5, 8))
        );
        assert_eq!(parse_date("2003-05-06 ~ 08"), r((2003, 5, 6), (2003, 5, 8)));
        assert_eq!(
            parse_date("2003-05-06 - 2003-05-08"),
            r((2003, 5, 6), (2003, 5, 8))
        );
        assert_eq!(parse_date("2003-05-06至08"), r((2003, 5, 6), (2003, 5, 8)));
    }

    #[test]
    fn sloppy_separators_and_trailing_text() {
        assert_eq!(parse_date("2003/5/6"), r((2003, 5, 6), (2003, 5, 6)));
        assert_eq!(parse_date("2003.05.06"), r((2003, 5, 6), (2003, 5, 6)));
        assert_eq!(parse_date("20030506"), r((2003, 5, 6), (2003, 5, 6)));
        assert_eq!(
            parse_date("2003-05-06 12:30:00"),
            r((2003, 5, 6), (2003, 5, 6))
        );
        assert_eq!(
            parse_date("2001/10/11 21:22:51 UT"),
            r((2001, 10, 11), (2001, 10, 11))
        );
        assert_eq!(
            parse_date("2017.08.28 15:06"),
            r((2017, 8, 28), (2017, 8, 28))
        );
        assert_eq!(
            parse_date("2017-04-03T20:19:36.622069344+00:00"),
            r((2017, 4, 3), (2017, 4, 3))
        );
        assert_eq!(
            parse_date("0800 approx. {Tang dynasty}"),
            r((800, 1, 1), (800, 12, 31))
        );
        assert_eq!(parse_date("ca. 1850"), r((1850, 1, 1), (1850, 12, 31)));
        assert_eq!(
            parse_date("２００３－０５－０６"),
            r((2003, 5, 6), (2003, 5, 6))
        );
    }

    #[test]
    fn day_first_forms() {
        assert_eq!(parse_date("29.11.2012"), r((2012, 11, 29), (2012, 11, 29)));
        assert_eq!(parse_date("25.02.2014"), r((2014, 2, 25), (2014, 2, 25)));
        assert_eq!(parse_date("05.02.2014"), r((2014, 2, 5), (2014, 2, 5)));
        assert_eq!(parse_date("11/29/2012"), r((2012, 11, 29), (2012, 11, 29)));
        assert_eq!(parse_date("29/11/2012"), r((2012, 11, 29), (2012, 11, 29)));
        assert_eq!(parse_date("05/02/2014"), r((2014, 5, 2), (2014, 5, 2)));
    }

    #[test]
    fn chinese_korean_japanese() {
        assert_eq!(parse_date("2003年5月6日"), r((2003, 5, 6), (2003, 5, 6)));
        assert_eq!(parse_date("2003年5月"), r((2003, 5, 1), (2003, 5, 31)));
        assert_eq!(parse_date("2003年"), r((2003, 1, 1), (2003, 12, 31)));
        assert_eq!(
            parse_date("二〇〇三年五月六日"),
            r((2003, 5, 6), (2003, 5, 6))
        );
        assert_eq!(
            parse_date("1985年十二月二十七日"),
            r((1985, 12, 27), (1985, 12, 27))
        );
        assert_eq!(parse_date("2003년 5월 6일"), r((2003, 5, 6), (2003, 5, 6)));
        assert_eq!(parse_date("平成15年5月6日"), r((2003, 5, 6), (2003, 5, 6)));
        assert_eq!(
            parse_date("2003年5月6日-8日"),
            r((2003, 5, 6), (2003, 5, 8))
        );
        assert_eq!(
            parse_date("2003年5月30日至6月2日"),
            r((2003, 5, 30), (2003, 6, 2))
        );
        assert_eq!(
            parse_date("公元2003年5月6日 北京"),
            r((2003, 5, 6), (2003, 5, 6))
        );
        assert_eq!(parse_date("2003年13月"), r((2003, 1, 1), (2003, 12, 31)));
    }

    #[test]
    fn english_month_names() {
        assert_eq!(parse_date("August 1, 2001"), r((2001, 8, 1), (2001, 8, 1)));
        assert_eq!(
            parse_date("29th September 2012"),
            r((2012, 9, 29), (2012, 9, 29))
        );
        assert_eq!(
            parse_date("April 14-15, 1957"),
            r((1957, 4, 14), (1957, 4, 15))
        );
        assert_eq!(
            parse_date("12th and 13th march 94"),
            r((1994, 3, 12), (1994, 3, 13))
        );
        assert_eq!(parse_date("Sept 2005"), r((2005, 9, 1), (2005, 9, 30)));
        assert_eq!(parse_date("March 12"), None);
    }

    #[test]
    fn validation_degrades() {
        assert_eq!(parse_date("2003-02-30"), r((2003, 2, 1), (2003, 2, 28)));
        assert_eq!(parse_date("2003-13-01"), r((2003, 1, 1), (2003, 12, 31)));
        assert_eq!(parse_date("2003-00-00"), r((2003, 1, 1), (2003, 12, 31)));
        assert_eq!(parse_date("2004-02-29"), r((2004, 2, 29), (2004, 2, 29)));
        assert_eq!(parse_date("2003-02-29"), r((2003, 2, 1), (2003, 2, 28)));
    }

    #[test]
    fn no_date() {
        for raw in [
            "",
            "   ",
            "a sunny afternoon last summer",
            "0000-00-00",
            "0",
            "?",
            "-",
            "unknown",
            "Round 3",
            "12345",
            "年",
            "昭和元年",
        ] {
            assert_eq!(parse_date(raw), None, "{raw:?}");
        }
    }

    #[test]
    fn canonical_sgf() {
        let sgf = |raw: &str| parse_date(raw).unwrap().to_sgf();
        assert_eq!(sgf("2003/5/6"), "2003-05-06");
        assert_eq!(sgf("2003-5"), "2003-05");
        assert_eq!(sgf("2003"), "2003");
        assert_eq!(sgf("200"), "0200");
        assert_eq!(sgf("1996-05-06,07,08"), "1996-05-06,07,08");
        assert_eq!(sgf("1996-05-06,08"), "1996-05-06,07,08");
        assert_eq!(sgf("1996-05-30,06-02"), "1996-05-30,31,06-01,02");
        assert_eq!(sgf("1996-12-31,1997-01-01"), "1996-12-31,1997-01-01");
        assert_eq!(sgf("1996-12-27,28,1997-01-03,04"), "1996-12-27,1997-01-04");
        assert_eq!(sgf("1996-05,06"), "1996-05,06");
        assert_eq!(sgf("1996-11,1997-02"), "1996-11,12,1997-01,02");
        assert_eq!(sgf("1996-01,12"), "1996");
        assert_eq!(sgf("1996-01,11"), "1996-01,11");
        assert_eq!(sgf("1996,1997"), "1996,1997");
        assert_eq!(sgf("1990,2000"), "1990,2000");
    }

    #[test]
    fn sgf_output_reads_back() {
        for raw in [
            "2003-05-06",
            "1996-05-06,08",
            "1996-12-27,28,1997-01-03,04",
            "1996-11,1997-02",
            "1990,2000",
            "200",
            "1996-01,11",
        ] {
            let range = parse_date(raw).unwrap();
            assert_eq!(parse_date(&range.to_sgf()), Some(range), "{raw}");
        }
    }

    #[test]
    fn canonical_wtf() {
        let wtf = |raw: &str| parse_date(raw).unwrap().to_wtf();
        assert_eq!(wtf("1985-08-27"), "1985-8-27");
        assert_eq!(wtf("1985-08"), "1985-8");
        assert_eq!(wtf("0200"), "200");
        assert_eq!(wtf("1996-05-06,07,08"), "1996-5-6");
        assert_eq!(wtf("1996,1997"), "1996");
        assert_eq!(wtf("1996-05,06"), "1996-5");
    }

    #[test]
    fn epoch_days() {
        assert_eq!(d(1970, 1, 1).days_since_epoch(), 0);
        assert_eq!(d(1969, 12, 31).days_since_epoch(), -1);
        assert_eq!(d(2000, 3, 1).days_since_epoch(), 11_017);
        assert_eq!(d(2000, 2, 29).days_since_epoch(), 11_016);
        assert_eq!(d(1, 1, 1).days_since_epoch(), -719_162);
        assert_eq!(d(9999, 12, 31).days_since_epoch(), 2_932_896);
        // Consecutive days differ by one across month and year ends.
        let mut x = d(1899, 12, 25);
        for _ in 0..800 {
            let y = next_day(x);
            assert_eq!(y.days_since_epoch(), x.days_since_epoch() + 1);
            x = y;
        }
    }

    #[test]
    fn range_helpers() {
        let may = DateRange::month(2003, 5).unwrap();
        assert!(may.contains(d(2003, 5, 31)));
        assert!(!may.contains(d(2003, 6, 1)));
        assert!(may.overlaps(&DateRange::year(2003).unwrap()));
        assert!(!may.overlaps(&DateRange::day(d(2003, 6, 1))));
        assert_eq!(Date::new(2003, 2, 29), None);
        assert_eq!(Date::new(0, 1, 1), None);
        assert_eq!(DateRange::month(2003, 13), None);
        assert_eq!(days_in_month(2003, 0), 0);
    }
}
