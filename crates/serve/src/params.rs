//! A request's query parameters, read strictly: a parameter given twice, one no endpoint knows,
//! or a value that is not what it should be is refused with its name, so that a typing mistake
//! (`simmetry=false`) is a 400 that says so rather than an answer to another question.

use std::collections::BTreeMap;

use qipu::{Color, Handicap, KomiRange, LossThreshold, Sort};

use crate::error::ApiError;

/// The parameters of one request; each is taken once by name, and [`Params::finish`] refuses
/// what was left.
pub(crate) struct Params {
    left: BTreeMap<String, String>,
}

impl Params {
    pub(crate) fn new(pairs: Vec<(String, String)>) -> Result<Params, ApiError> {
        let mut left = BTreeMap::new();
        for (k, v) in pairs {
            if left.contains_key(&k) {
                return Err(ApiError::param(&k, format!("parameter {k} is given twice")));
            }
            left.insert(k, v);
        }
        Ok(Params { left })
    }

    /// The text of `name`, if given.
    pub(crate) fn text(&mut self, name: &str) -> Option<String> {
        self.left.remove(name)
    }

    /// Whether `name` was given (without taking it).
    pub(crate) fn has(&self, name: &str) -> bool {
        self.left.contains_key(name)
    }

    /// The text of `name`, which must be given.
    pub(crate) fn required(&mut self, name: &str, what: &str) -> Result<String, ApiError> {
        self.text(name)
            .ok_or_else(|| ApiError::param(name, format!("parameter {name} is missing: {what}")))
    }

    pub(crate) fn flag(&mut self, name: &str, default: bool) -> Result<bool, ApiError> {
        match self.text(name).as_deref() {
            None => Ok(default),
            Some("true" | "1" | "yes" | "") => Ok(true),
            Some("false" | "0" | "no") => Ok(false),
            Some(v) => Err(ApiError::param(
                name,
                format!("parameter {name}: {v:?} is not true or false"),
            )),
        }
    }

    pub(crate) fn number<T: std::str::FromStr + std::fmt::Display + PartialOrd>(
        &mut self,
        name: &str,
        default: T,
        range: std::ops::RangeInclusive<T>,
    ) -> Result<T, ApiError> {
        let Some(v) = self.text(name) else {
            return Ok(default);
        };
        match v.trim().parse::<T>() {
            Ok(n) if range.contains(&n) => Ok(n),
            _ => Err(ApiError::param(
                name,
                format!(
                    "parameter {name}: {v:?} is not a number from {} to {}",
                    range.start(),
                    range.end()
                ),
            )),
        }
    }

    /// A word of the library's vocabulary (`read`), refused with the library's message and the
    /// parameter's name.
    fn word<T>(
        &mut self,
        name: &str,
        read: impl Fn(&str) -> Result<T, qipu::Error>,
    ) -> Result<Option<T>, ApiError> {
        self.text(name)
            .map(|v| read(&v).map_err(|e| ApiError::from(e).in_param(name)))
            .transpose()
    }

    /// A colour (`to_move=B`). An empty word is refused, as the CLI and Python refuse it.
    pub(crate) fn color(&mut self, name: &str) -> Result<Option<Color>, ApiError> {
        self.word(name, qipu::parse_color)
    }

    /// `sort=newest` (default indexed).
    pub(crate) fn sort(&mut self) -> Result<Sort, ApiError> {
        Ok(self.word("sort", str::parse)?.unwrap_or_default())
    }

    /// `handicap=even|handicap|any` (default any).
    pub(crate) fn handicap(&mut self) -> Result<Handicap, ApiError> {
        Ok(self.word("handicap", str::parse)?.unwrap_or_default())
    }

    /// `komi=A..B` (or one number), inclusive.
    pub(crate) fn komi(&mut self) -> Result<Option<KomiRange>, ApiError> {
        self.word("komi", str::parse)
    }

    /// `mistakes=10%` (or `3pt`, `10%,3pt`): how much a move lost, read as the library reads it.
    pub(crate) fn loss(&mut self, name: &str) -> Result<Option<LossThreshold>, ApiError> {
        self.word(name, str::parse)
    }

    /// `C,R`: a column and a row, 0-based.
    pub(crate) fn place(&mut self) -> Result<Option<(u8, u8)>, ApiError> {
        let Some(v) = self.text("place") else {
            return Ok(None);
        };
        let bad = || {
            ApiError::param(
                "place",
                format!("parameter place: {v:?} is not COLUMN,ROW (two numbers from 0 to 51)"),
            )
        };
        let (c, r) = v.split_once(',').ok_or_else(bad)?;
        let c: u8 = c.trim().parse().map_err(|_| bad())?;
        let r: u8 = r.trim().parse().map_err(|_| bad())?;
        if c > 51 || r > 51 {
            return Err(bad());
        }
        Ok(Some((c, r)))
    }

    /// Refuses any parameter not taken.
    pub(crate) fn finish(self, endpoint: &str) -> Result<(), ApiError> {
        match self.left.into_keys().next() {
            None => Ok(()),
            Some(k) => Err(ApiError::param(
                &k,
                format!("parameter {k} is not one {endpoint} takes"),
            )),
        }
    }
}
