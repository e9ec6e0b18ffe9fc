//! Quadrant digit notation: the whole label table, the post's examples, round trips, every error and
//! a garbage feed that must never panic.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use sgf::quadrant::{self, Label, ParseErrorKind, QuadrantError, QuadrantRecord};
use sgf::{Color, Point};
use testdata::Rng;

const B: Color = Color::Black;
const W: Color = Color::White;

fn pt(sgf: &str) -> Point {
    Point::parse_sgf(sgf.as_bytes()).unwrap()
}

fn table() -> String {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/specs/quadrant-labels.tsv");
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "the label table {} is needed by this test and could not be read: {e}",
            path.display()
        )
    })
}

#[test]
fn whole_table() {
    let text = table();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("sgf\tgtp\tcolumn_from_left\trow_from_top\tquadrant\tlabel\tfour_digit")
    );
    let mut per_quadrant: HashMap<u8, usize> = HashMap::new();
    let mut points = HashSet::new();
    let mut labels = HashSet::new();
    let mut rows = 0;
    for line in lines.filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 7, "row {line:?}");
        let p = pt(f[0]);
        assert_eq!(u32::from(p.x) + 1, f[2].parse::<u32>().unwrap(), "{line}");
        assert_eq!(u32::from(p.y) + 1, f[3].parse::<u32>().unwrap(), "{line}");
        let want = Label {
            quadrant: f[4].parse().unwrap(),
            digits: f[5].parse().unwrap(),
        };
        assert_eq!(quadrant::label(p), Some(want), "label of {line}");
        assert_eq!(quadrant::point(want), Some(p), "point of {line}");
        assert_eq!(want.to_string(), f[6], "four-digit form of {line}");
        assert_eq!(f[6].parse::<Label>(), Ok(want), "parsing {line}");
        assert_eq!(format!("{}{}", f[4], f[5]).len(), 4);
        *per_quadrant.entry(want.quadrant).or_default() += 1;
        assert!(points.insert(p), "duplicate point {line}");
        assert!(labels.insert(want), "duplicate label {line}");
        rows += 1;
    }
    assert_eq!(rows, 361);
    assert_eq!(per_quadrant[&0], 1);
    for q in 1..=4 {
        assert_eq!(per_quadrant[&q], 90, "quadrant {q}");
    }
}

#[test]
fn ninety_per_quadrant_from_the_formulas() {
    let mut per_quadrant = [0usize; 5];
    for x in 0..19 {
        for y in 0..19 {
            let p = Point::new(x, y);
            let l = quadrant::label(p).unwrap();
            assert!(l.is_valid());
            assert_eq!(quadrant::point(l), Some(p));
            per_quadrant[l.quadrant as usize] += 1;
        }
    }
    assert_eq!(per_quadrant, [1, 90, 90, 90, 90]);
    for q in 0..=9u8 {
        for d in 0..=255u8 {
            let l = Label {
                quadrant: q,
                digits: d,
            };
            let valid = (q == 0 && d == 0) || ((1..=4).contains(&q) && (10..=99).contains(&d));
            assert_eq!(l.is_valid(), valid, "{q} {d}");
            assert_eq!(quadrant::point(l).is_some(), valid, "{q} {d}");
            assert_eq!(Label::new(q, d).is_some(), valid);
        }
    }
}

fn moves(s: &[(Color, &str)]) -> Vec<(Color, Point)> {
    s.iter().map(|&(c, p)| (c, pt(p))).collect()
}

#[test]
fn post_examples() {
    let joseki = moves(&[
        (B, "pd"),
        (W, "qf"),
        (B, "nc"),
        (W, "rd"),
        (B, "qc"),
        (W, "qi"),
    ]);
    let mirror = moves(&[
        (B, "pd"),
        (W, "nc"),
        (B, "qf"),
        (W, "pb"),
        (B, "qc"),
        (W, "kc"),
    ]);
    for (text, want) in [
        ("01：44、36，63、24，33、39，", &joseki),
        ("01：44、63，36、42，33、93，", &mirror),
    ] {
        let r = quadrant::parse(text).unwrap();
        assert_eq!(&r.moves, want);
        assert_eq!(r.resigned, None);
        let back: Vec<_> = want.iter().map(|&(c, p)| (c, Some(p))).collect();
        assert_eq!(quadrant::write(&back, None).unwrap(), text);
    }
}

#[test]
fn marks_tengen_four_digit_and_lenient_characters() {
    // A mark stays in force; tengen and four-digit points do not change it.
    let r = quadrant::parse("03：44、00，0244、33，04：33，").unwrap();
    assert_eq!(
        r.moves,
        moves(&[(B, "dp"), (W, "jj"), (B, "pp"), (W, "cq"), (W, "cc")])
    );
    // Tengen before any mark, a four-digit point before any mark.
    let r = quadrant::parse("00、0144，").unwrap();
    assert_eq!(r.moves, moves(&[(B, "jj"), (W, "pd")]));
    // Whitespace anywhere, ASCII colon and comma, full-width digits.
    let spaced = " 0 1 :\n4 4 、\t36 ,　６３、\r\n";
    let r = quadrant::parse(spaced).unwrap();
    assert_eq!(r.moves, moves(&[(B, "pd"), (W, "qf"), (B, "nc")]));
    // Redundant and trailing marks are harmless; an empty record is empty.
    assert_eq!(
        quadrant::parse("01：02：44、04：").unwrap().moves,
        moves(&[(B, "pp")])
    );
    assert_eq!(quadrant::parse("").unwrap(), QuadrantRecord::default());
    assert_eq!(quadrant::parse(" \n ").unwrap(), QuadrantRecord::default());
    assert_eq!("\u{feff}0144".parse::<Label>().unwrap().to_string(), "0144");
}

#[test]
fn resignation() {
    let r = quadrant::parse("01：44、36，、。").unwrap();
    assert_eq!(r.moves.len(), 2);
    assert_eq!(r.resigned, Some(B));
    let r = quadrant::parse("01：44、，。\n").unwrap();
    assert_eq!(r.resigned, Some(W));
    assert_eq!(quadrant::parse(",.").unwrap().resigned, Some(W));
    assert_eq!(quadrant::parse("、。").unwrap().moves, vec![]);
    assert_eq!(
        quadrant::write(&[(B, Some(pt("pd")))], Some(W)).unwrap(),
        "01：44、，。"
    );
    assert_eq!(quadrant::write(&[], Some(B)).unwrap(), "、。");
}

fn err(text: &str) -> (usize, usize, ParseErrorKind) {
    match quadrant::parse(text) {
        Err(QuadrantError::Parse { byte, char, kind }) => (byte, char, kind),
        other => panic!("{text:?} should not parse: {other:?}"),
    }
}

#[test]
fn errors() {
    use ParseErrorKind::*;
    // (text, char offset, kind). `：` and `、` are 3 bytes each in UTF-8.
    let cases: &[(&str, usize, ParseErrorKind)] = &[
        ("05：44、", 0, UnknownQuadrant(5)),
        ("0944、", 0, UnknownQuadrant(9)),
        ("00：44、", 0, TengenWithColon),
        ("0044、", 0, TengenWithLabel),
        ("0000、", 0, TengenWithLabel),
        ("44：", 0, LabelAsQuadrant(44)),
        ("0144：", 0, FourDigitMark),
        ("01：04、", 3, LeadingZeroLabel(4)),
        ("0104、", 0, LeadingZeroLabel(4)),
        ("01：4、", 3, ShortLabel),
        ("014、", 0, ShortLabel),
        ("01：4436，", 5, MissingSeparator),
        ("01：443，", 5, MissingSeparator),
        ("01：44", 5, MissingSeparator),
        ("01：44。", 5, MissingSeparator),
        ("01443，", 4, MissingSeparator),
        ("44、", 0, MissingQuadrant),
        ("01：44、、", 6, SeparatorWithoutMove('、')),
        ("：44、", 0, ColonWithoutQuadrant),
        ("01：：44、", 3, ColonWithoutQuadrant),
        ("01：44、。", 6, StrayFullStop),
        ("。", 0, StrayFullStop),
        ("、。01：44、", 2, AfterResignation),
        ("，。，。", 2, AfterResignation),
        ("01：44\\", 5, UnexpectedChar('\\')),
        ("01：44;36，", 5, UnexpectedChar(';')),
        ("B[pd]", 0, UnexpectedChar('B')),
    ];
    for &(text, char, kind) in cases {
        let (byte, got_char, got_kind) = err(text);
        assert_eq!((got_char, got_kind), (char, kind), "{text:?}");
        let want_byte = text.char_indices().nth(char).map_or(text.len(), |(b, _)| b);
        assert_eq!(byte, want_byte, "{text:?}");
        // Messages name the position.
        let msg = quadrant::parse(text).unwrap_err().to_string();
        assert!(msg.contains(&format!("character {char} ")), "{msg}");
    }
    // Whitespace counts in offsets.
    assert_eq!(err("01： 4"), (6, 4, ShortLabel));
}

#[test]
fn label_from_str_errors() {
    for bad in [
        "", "44", "0544", "01", "014", "01440", "0144、", "01：44", "x",
    ] {
        assert!(bad.parse::<Label>().is_err(), "{bad:?}");
    }
    assert_eq!("00".parse::<Label>(), Ok(Label::TENGEN));
    assert_eq!(
        " ０２１０ ".parse::<Label>(),
        Ok(Label {
            quadrant: 2,
            digits: 10
        })
    );
}

#[test]
fn write_refuses_passes_and_other_boards() {
    assert_eq!(
        quadrant::write(&[(B, Some(pt("pd"))), (W, None)], None),
        Err(QuadrantError::Pass { index: 1 })
    );
    let off = Point::new(19, 3);
    assert_eq!(
        quadrant::write(&[(B, Some(off))], None),
        Err(QuadrantError::OffBoard {
            index: 0,
            point: off
        })
    );
    assert!(quadrant::write(&[(B, Some(Point::new(3, 25)))], None).is_err());
    assert!(QuadrantError::Pass { index: 1 }
        .to_string()
        .contains("pass"));
}

#[test]
fn write_marks_only_on_change() {
    let ms = [
        (B, Some(pt("pd"))),
        (W, Some(pt("jj"))),
        (B, Some(pt("qf"))),
        (W, Some(pt("dp"))),
        (B, Some(pt("dd"))),
        (W, Some(pt("cc"))),
    ];
    assert_eq!(
        quadrant::write(&ms, None).unwrap(),
        "01：44、00，36、03：44，04：44、33，"
    );
}

#[test]
fn random_round_trips() {
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    for _ in 0..2000 {
        let len = rng.below(60) as usize;
        let ms: Vec<(Color, Option<Point>)> = (0..len)
            .map(|_| {
                let c = if rng.below(2) == 0 { B } else { W };
                // Bias towards one corner now and then, so runs without a mark occur.
                let (x, y) = if rng.below(3) == 0 {
                    (rng.below(9) as u8 + 10, rng.below(9) as u8)
                } else {
                    (rng.below(19) as u8, rng.below(19) as u8)
                };
                (c, Some(Point::new(x, y)))
            })
            .collect();
        let resigned = match rng.below(3) {
            0 => None,
            1 => Some(B),
            _ => Some(W),
        };
        let text = quadrant::write(&ms, resigned).unwrap();
        let r = quadrant::parse(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let back: Vec<_> = r.moves.iter().map(|&(c, p)| (c, Some(p))).collect();
        assert_eq!(back, ms, "{text}");
        assert_eq!(r.resigned, resigned, "{text}");
    }
}

/// Parses, and when that succeeds checks that writing and reading again gives the same record.
fn check_garbage(text: &str) {
    if let Ok(r) = quadrant::parse(text) {
        let ms: Vec<_> = r.moves.iter().map(|&(c, p)| (c, Some(p))).collect();
        let written = quadrant::write(&ms, r.resigned).unwrap();
        assert_eq!(
            quadrant::parse(&written).as_ref(),
            Ok(&r),
            "{text:?} -> {written:?}"
        );
    } else if let Err(QuadrantError::Parse { byte, char, .. }) = quadrant::parse(text) {
        assert!(
            byte <= text.len() && text.is_char_boundary(byte),
            "{text:?}"
        );
        assert!(char <= text.chars().count(), "{text:?}");
    }
    let _ = text.parse::<Label>();
}

#[test]
fn garbage_never_panics() {
    const ALPHABET: &[char] = &[
        '0', '0', '0', '1', '2', '3', '4', '5', '9', '０', '４', '：', ':', '、', '､', '，', ',',
        '。', '.', '．', ' ', '\n', 'a', 'é', '\u{feff}', '𝄞', '\u{3000}',
    ];
    // Every string of up to four characters over a small alphabet.
    let small: &[char] = &['0', '1', '4', '：', '、', '，', '。'];
    let mut stack = vec![String::new()];
    while let Some(s) = stack.pop() {
        check_garbage(&s);
        if s.chars().count() < 4 {
            for &c in small {
                let mut t = s.clone();
                t.push(c);
                stack.push(t);
            }
        }
    }
    let mut rng = Rng::new(0xDEAD_BEEF_CAFE_F00D);
    for _ in 0..20_000 {
        let len = rng.below(24) as usize;
        let s: String = (0..len)
            .map(|_| {
                if rng.below(10) == 0 {
                    char::from_u32(rng.below(0x11_0000) as u32).unwrap_or('?')
                } else {
                    ALPHABET[rng.below(ALPHABET.len() as u64) as usize]
                }
            })
            .collect();
        check_garbage(&s);
    }
    // Valid records with one character mutated.
    let base: Vec<char> = "01：44、36，63、24，00、0233，03：39，、。"
        .chars()
        .collect();
    for _ in 0..5_000 {
        let mut v = base.clone();
        let i = rng.below(v.len() as u64) as usize;
        match rng.below(3) {
            0 => v[i] = ALPHABET[rng.below(ALPHABET.len() as u64) as usize],
            1 => {
                v.remove(i);
            }
            _ => v.insert(i, ALPHABET[rng.below(ALPHABET.len() as u64) as usize]),
        }
        check_garbage(&v.into_iter().collect::<String>());
    }
    // Long digit runs must not overflow anything.
    check_garbage(&"9".repeat(10_000));
    check_garbage(&format!("01：{}、", "4".repeat(1000)));
}
