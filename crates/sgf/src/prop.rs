//! Property identifiers and the value type each known property carries.
//!
//! An identifier is packed into a `u64` (base 27, up to 12 upper-case letters) so that looking a
//! property up is an integer comparison, not a string one. FF[1]–FF[3] files write ids with
//! lower-case letters inside (`AddBlack`); only the upper-case letters count (`AB`), as the
//! standard says. Ids longer than 12 letters are rare custom ones; they get a hashed id with the
//! top bit set and keep their full name in the source bytes. So do ids with a digit after their
//! first letter, which FF[4] does not allow but lizzieyzy writes (`LZ2`, `LZOP2`, a second
//! engine's analysis): the digits count, so that `LZ2` is not `LZ`.

use std::fmt;

/// A property identifier, as its upper-case letters.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PropId(u64);

const LONG: u64 = 1 << 63;

impl PropId {
    /// The id made of the upper-case letters of `name` (other bytes are ignored).
    #[inline]
    pub fn from_name(name: &[u8]) -> PropId {
        let mut v = 0u64;
        let mut n = 0;
        let mut digit = false;
        for &c in name {
            if c.is_ascii_uppercase() {
                v = v.wrapping_mul(27).wrapping_add((c - b'A' + 1) as u64);
                n += 1;
            } else {
                digit |= c.is_ascii_digit();
            }
        }
        if n == 0 || (n <= 12 && !digit) {
            return PropId(v);
        }
        PropId::hashed(name)
    }

    /// The id of a name base 27 cannot hold (over 12 letters, or a digit): a hash of its
    /// upper-case letters and digits, with the top bit set. A `const fn`, so that
    /// [`PropId::new`] gives the same id at compile time.
    const fn hashed(name: &[u8]) -> PropId {
        let mut hash = 0xcbf2_9ce4_8422_2325u64;
        let mut i = 0;
        while i < name.len() {
            let c = name[i];
            if c.is_ascii_uppercase() || c.is_ascii_digit() {
                hash = (hash ^ c as u64).wrapping_mul(0x100_0000_01b3);
            }
            i += 1;
        }
        PropId(hash | LONG)
    }

    /// Builds an id from a literal of upper-case letters (and digits after the first) at
    /// compile time, the same id [`PropId::from_name`] gives.
    pub const fn new(name: &str) -> PropId {
        let b = name.as_bytes();
        let mut v = 0u64;
        let mut i = 0;
        while i < b.len() {
            if b[i].is_ascii_digit() || b.len() > 12 {
                return PropId::hashed(b);
            }
            v = v * 27 + (b[i] - b'A' + 1) as u64;
            i += 1;
        }
        PropId(v)
    }

    /// True for a one-letter id (`B`, `W`, `C`…): one comparison that passes over the moves.
    #[inline]
    pub(crate) fn is_one_letter(self) -> bool {
        self.0 < 27
    }

    /// True when the name had no upper-case letter at all.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The letters, for ids of up to 12 letters; `None` for the long, hashed ones (and those
    /// with a digit).
    pub fn letters(self) -> Option<String> {
        if self.0 & LONG != 0 {
            return None;
        }
        let mut v = self.0;
        let mut out = Vec::new();
        while v > 0 {
            out.push(b'A' + ((v % 27) as u8) - 1);
            v /= 27;
        }
        out.reverse();
        Some(String::from_utf8(out).unwrap_or_default())
    }
}

impl fmt::Debug for PropId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.letters() {
            Some(s) => write!(f, "PropId({s})"),
            None => write!(f, "PropId(#{:x})", self.0),
        }
    }
}

macro_rules! ids {
    ($($name:ident),* $(,)?) => {
        $(pub const $name: PropId = PropId::new(stringify!($name));)*
    };
}

/// Well-known property ids.
pub mod ids {
    use super::PropId;
    ids!(
        B, W, KO, MN, AB, AW, AE, PL, C, DM, GB, GW, HO, N, UC, V, BM, DO, IT, TE, AR, CR, DD, LB,
        LN, MA, SL, SQ, TR, AP, CA, FF, GM, ST, SZ, AN, BR, BT, CP, DT, EV, GN, GC, ON, OT, PB, PC,
        PW, RE, RO, RU, SO, TM, US, WR, WT, BL, OB, OW, WL, FG, PM, VW, HA, KM, TB, TW,
    );
}

/// The value types of SGF FF[4].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueType {
    None,
    Number,
    Real,
    Double,
    Color,
    SimpleText,
    Text,
    Point,
    Move,
    Stone,
    /// A list of points, possibly compressed as rectangles (`aa:cc`).
    PointList,
    /// Two values joined by `:`; the types of both halves.
    Compose(ValueType2, ValueType2),
    /// `SZ`: a number, or two numbers joined by `:`.
    Size,
    /// Not a standard property: kept as raw text.
    Unknown,
}

/// The halves of a composed value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueType2 {
    Point,
    SimpleText,
    Number,
}

impl ValueType {
    /// The type of a property's values, from the FF[4] property list.
    pub fn of(id: PropId) -> ValueType {
        use ids::*;
        use ValueType as T;
        match id {
            B | W => T::Move,
            KO | DO | IT => T::None,
            V | KM | TM | BL | WL => T::Real,
            MN | OB | OW | HA | FF | GM | ST | PM => T::Number,
            AB | AW | AE | CR | DD | MA | SL | SQ | TR | TB | TW | VW => T::PointList,
            PL => T::Color,
            C | GC => T::Text,
            DM | GB | GW | HO | UC | BM | TE => T::Double,
            N | AN | BR | BT | CP | DT | EV | GN | ON | OT | PB | PC | PW | RE | RO | RU | SO
            | US | WR | WT | CA => T::SimpleText,
            AR | LN => T::Compose(ValueType2::Point, ValueType2::Point),
            LB => T::Compose(ValueType2::Point, ValueType2::SimpleText),
            AP => T::Compose(ValueType2::SimpleText, ValueType2::SimpleText),
            FG => T::Compose(ValueType2::Number, ValueType2::SimpleText),
            SZ => T::Size,
            _ => T::Unknown,
        }
    }

    /// Whether the values hold human text (so they matter for charset detection and decoding).
    pub fn is_text(self) -> bool {
        matches!(
            self,
            ValueType::Text
                | ValueType::SimpleText
                | ValueType::Unknown
                | ValueType::Compose(_, ValueType2::SimpleText)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_pack_upper_case_letters_only() {
        assert_eq!(PropId::from_name(b"AB"), ids::AB);
        assert_eq!(PropId::from_name(b"AddBlack"), ids::AB);
        assert_eq!(PropId::from_name(b"CoPyright"), ids::CP);
        assert_eq!(ids::AB.letters().as_deref(), Some("AB"));
        assert_ne!(PropId::from_name(b"B"), PropId::from_name(b"BB"));
        assert!(PropId::from_name(b"abc").is_empty());
        let long = PropId::from_name(b"ABCDEFGHIJKLMN");
        assert_eq!(long.letters(), None);
        assert_ne!(long, PropId::from_name(b"ABCDEFGHIJKLMO"));
        assert_eq!(
            PropId::from_name(b"ABCDEFGHIJKL").letters().as_deref(),
            Some("ABCDEFGHIJKL")
        );
    }

    #[test]
    fn value_types() {
        assert_eq!(ValueType::of(ids::B), ValueType::Move);
        assert_eq!(ValueType::of(ids::KO), ValueType::None);
        assert_eq!(ValueType::of(ids::V), ValueType::Real);
        assert_eq!(ValueType::of(ids::AB), ValueType::PointList);
        assert_eq!(ValueType::of(ids::PB), ValueType::SimpleText);
        assert_eq!(ValueType::of(PropId::new("XYZ")), ValueType::Unknown);
        assert!(ValueType::of(ids::C).is_text());
        assert!(!ValueType::of(ids::W).is_text());
    }
}
