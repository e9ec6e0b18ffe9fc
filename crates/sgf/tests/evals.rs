//! Engine evaluations read from records as each program writes them (`tests/evals/`, their
//! origins in `datasets.md`): the numbers the program shows, from Black's side, on the position
//! they belong to; each fixture has a position where White leads, so that a reader taking the
//! wrong side fails. Then what a record with several gives, bad values, and analyze-sgf's real
//! reviews in the shared `diverse/` set.

use std::io::Write;
use std::path::Path;

use sgf::eval::{read, read_checked};
use sgf::{Eval, Evals, Problem, Records};

fn evals_of(bytes: &[u8]) -> Option<Evals> {
    let records = Records::read(bytes);
    let tree = records.game(0).expect("a game");
    read(&tree)
}

fn fixture(name: &str) -> Evals {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/evals")
        .join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    evals_of(&bytes).unwrap_or_else(|| panic!("{name}: no evaluations read"))
}

/// `Some(win, lead, visits)` per position, with a tolerance for the f32s.
type Want = Option<(f32, Option<f32>, Option<u32>)>;

fn check(got: &Evals, want: &[(usize, Want)], len: usize) {
    assert_eq!(
        got.positions.len(),
        len,
        "positions: one per move, plus the start"
    );
    for &(k, w) in want {
        let g = got.positions[k];
        match (g, w) {
            (None, None) => {}
            (Some(Eval { win, lead, visits }), Some((ww, wl, wv))) => {
                assert!(
                    (win - ww).abs() < 1e-4,
                    "position {k}: win {win}, want {ww}"
                );
                match (lead, wl) {
                    (None, None) => {}
                    (Some(l), Some(x)) => {
                        assert!((l - x).abs() < 1e-4, "position {k}: lead {l}, want {x}")
                    }
                    _ => panic!("position {k}: lead {lead:?}, want {wl:?}"),
                }
                assert_eq!(visits, wv, "position {k}: visits");
            }
            _ => panic!("position {k}: {g:?}, want {w:?}"),
        }
    }
}

#[test]
fn sabaki_sbkv_and_sbks_are_blacks_after_the_nodes_move() {
    let e = fixture("sabaki.sgf");
    assert_eq!((e.program, e.engine.as_deref()), ("Sabaki", None));
    check(
        &e,
        &[
            (0, Some((0.4612, Some(-0.53), None))),
            (1, Some((0.452, Some(-0.71), None))),
            // White leads after White's move: Sabaki wrote Black's 23.5% and -6.25.
            (2, Some((0.235, Some(-6.25), None))),
            (3, None),
            (4, Some((0.60, Some(1.5), None))),
        ],
        5,
    );
}

#[test]
fn lizzie_lz_is_the_movers_win_rate_and_its_candidates_lead_the_player_to_move() {
    let e = fixture("lizzie.sgf");
    assert_eq!((e.program, e.engine.as_deref()), ("Lizzie", None));
    check(
        &e,
        &[
            // Lizzie writes no LZ on the root.
            (0, None),
            // After Black's move: 45.3 is Black's; the candidates' scoreMean (White to move,
            // 0.8 over 900 visits, 0.5 over 600) is White's 0.68.
            (1, Some((0.453, Some(-0.68), Some(1500)))),
            // After White's move: 76.5 is White's, so Black's 23.5%; Black to move, -6.25.
            (2, Some((0.235, Some(-6.25), Some(12_000)))),
            // 0 playouts: Lizzie's made-up 50.0 is not read.
            (3, None),
            // No scoreMean (a Leela Zero analysis): no lead.
            (4, Some((0.479, None, Some(850)))),
        ],
        5,
    );
}

#[test]
fn lizzieyzy_lz_and_root_lzop_name_the_engine_and_the_lead_of_the_player_to_move() {
    let e = fixture("lizzieyzy.sgf");
    assert_eq!(
        (e.program, e.engine.as_deref()),
        ("lizzieyzy", Some("KataGo-b18"))
    );
    check(
        &e,
        &[
            // The root (Black to move): 46.6 is White's, 0.6 Black's.
            (0, Some((0.534, Some(0.6), Some(2300)))),
            (1, Some((0.466, Some(-0.5), Some(2100)))),
            (2, Some((0.235, Some(-6.2), Some(12_000)))),
            (3, None),
            (4, Some((0.42, Some(-2.4), Some(1_200_000)))),
        ],
        5,
    );
}

/// lizzieyzy's double-engine mode: the second engine's `LZ2` (and root `LZOP2`) beside the
/// first's `LZ`. The second evaluated more positions here, so the record gives the second's,
/// and only the second's: the position only the first evaluated stays empty.
#[test]
fn lizzieyzy_lz2_is_the_second_engine_read_whole_where_it_is_the_richer() {
    let e = fixture("lizzieyzy-double.sgf");
    assert_eq!(
        (e.program, e.engine.as_deref()),
        ("lizzieyzy LZ2", Some("KataGo-b40"))
    );
    check(
        &e,
        &[
            // The root, Black to move: LZOP2's 45.8 is White's, its 0.8 Black's.
            (0, Some((0.542, Some(0.8), Some(3100)))),
            // After Black's move: 47.9 is Black's; 0.4 is White's (to move).
            (1, Some((0.479, Some(-0.4), Some(2600)))),
            // After White's: 77.2 is White's; -6.5 is Black's (to move): White leads.
            (2, Some((0.228, Some(-6.5), Some(12_000)))),
            // The first engine's LZ alone: not mixed in.
            (3, None),
            // `1200k`, as lizzieyzy shortens 1 200 000 playouts.
            (4, Some((0.305, Some(-3.2), Some(1_200_000)))),
            (5, Some((0.39, Some(-1.9), Some(850)))),
        ],
        6,
    );
}

/// Where both engines evaluated the same positions the rule for several programs decides: the
/// one with leads, else the first engine's `LZ`.
#[test]
fn lizzieyzy_lz_and_lz2_alike_give_the_first_engine_unless_only_the_second_has_leads() {
    let kata = |name: &str, prop: &str, win: &str, lead: &str| {
        format!("{prop}[{name} {win} 1.5k {lead} 12.0\nmove Q16 visits 1500 winrate 5000 prior 1000 scoreMean {lead} pv Q16 info ]")
    };
    let lz = |prop: &str, win: &str| {
        format!("{prop}[LeelaZero-40b {win} 1.5k\nmove Q16 visits 1500 winrate 5000 prior 1000 pv Q16 info ]")
    };
    let both = format!(
        "(;GM[1]SZ[19]DZ[G];B[pd]{}{};W[dd]{}{})",
        kata("KataGo-b18", "LZ", "40.0", "2.0"),
        kata("KataGo-b40", "LZ2", "45.0", "1.0"),
        kata("KataGo-b18", "LZ", "70.0", "-3.0"),
        kata("KataGo-b40", "LZ2", "75.0", "-4.0"),
    );
    let e = evals_of(both.as_bytes()).unwrap();
    assert_eq!(
        (e.program, e.engine.as_deref()),
        ("lizzieyzy", Some("KataGo-b18"))
    );
    check(
        &e,
        &[
            (1, Some((0.40, Some(-2.0), Some(1500)))),
            (2, Some((0.30, Some(-3.0), Some(1500)))),
        ],
        3,
    );
    // Leela Zero first, KataGo second: only the second has leads.
    let leela_first = format!(
        "(;GM[1]SZ[19];B[pd]{}{};W[dd]{}{})",
        lz("LZ", "40.0"),
        kata("KataGo-b40", "LZ2", "45.0", "1.0"),
        lz("LZ", "70.0"),
        kata("KataGo-b40", "LZ2", "75.0", "-4.0"),
    );
    let e = evals_of(leela_first.as_bytes()).unwrap();
    assert_eq!(
        (e.program, e.engine.as_deref()),
        ("lizzieyzy LZ2", Some("KataGo-b40"))
    );
    check(
        &e,
        &[
            (1, Some((0.45, Some(-1.0), Some(1500)))),
            (2, Some((0.25, Some(-4.0), Some(1500)))),
        ],
        3,
    );
    // An LZ2 beside Sabaki's properties keeps its own numbers: Sabaki's are not the second
    // engine's.
    let with_sabaki = format!(
        "(;GM[1]SZ[19];B[pd]SBKV[61.25]SBKS[3.5]{})",
        kata("KataGo-b40", "LZ2", "45.0", "1.0")
    );
    let e = evals_of(with_sabaki.as_bytes()).unwrap();
    assert_eq!(e.program, "lizzieyzy LZ2");
    check(&e, &[(1, Some((0.45, Some(-1.0), Some(1500))))], 2);
}

#[test]
fn katrain_kt_is_katagos_root_info_from_blacks_side() {
    let e = fixture("katrain.sgf");
    assert_eq!(e.program, "KaTrain");
    check(
        &e,
        &[
            (0, Some((0.4612, Some(-0.53), Some(500)))),
            (1, Some((0.452, Some(-0.71), Some(512)))),
            (2, Some((0.231, Some(-6.2), Some(640)))),
            (3, None),
        ],
        4,
    );
}

#[test]
fn katago_selfplay_comments_evaluate_the_position_before_their_move() {
    // KataGo's own test output: White's win, loss, no-result, score.
    let e = fixture("katago-selfplay-5x5.sgf");
    assert_eq!(e.program, "KataGo");
    check(
        &e,
        &[
            // B[ae]C[0.52 0.48 0.00 0.5 v=80]: the start, White 52%.
            (0, Some((0.48, Some(-0.5), Some(80)))),
            (1, Some((0.49, Some(-1.2), Some(20)))),
            // v=20 rv=80: the values are the reanalysis's, 80 visits.
            (2, Some((0.50, Some(0.2), Some(80)))),
            // The last move's comment is the position before it; after it, nothing.
            (21, Some((0.04, Some(-5.1), Some(80)))),
            (22, None),
        ],
        23,
    );
    // startTurnIdx=1: the first move has no comment; no-result counts half; "Pass for ko".
    let e = fixture("katago-selfplay-9x1-passforko.sgf");
    check(
        &e,
        &[
            (0, None),
            (1, Some((0.41, Some(-1.4), Some(2)))),
            (19, Some((0.46, Some(-0.8), Some(2)))),
            (24, Some((0.23, Some(-4.4), Some(2)))),
            (25, None),
        ],
        26,
    );
    // The 2018 form: integers times 10000, no points.
    let e = fixture("katago-selfplay-integer.sgf");
    check(
        &e,
        &[
            (0, Some((0.515, None, None))),
            (1, Some((0.479, None, None))),
            (2, Some((0.75, None, None))),
            (3, None),
        ],
        4,
    );
}

/// GoReviewPartner's review with Leela: each move's `BWWR` is Black's and White's win rate of
/// the position *before* the move (the bot was asked there); `MCWR` and `VNWR` beside it and
/// the bot's variations off the main line are not read.
#[test]
fn goreviewpartner_bwwr_is_blacks_win_rate_before_the_move() {
    let e = fixture("grp-leela.rsgf");
    assert_eq!(
        (e.program, e.engine.as_deref()),
        ("GoReviewPartner", Some("Leela 0.11.0"))
    );
    check(
        &e,
        &[
            (0, Some((0.4627, None, None))),
            (1, Some((0.521, None, None))),
            // Before Black's third move White leads: Black's 24.5%.
            (2, Some((0.245, None, None))),
            // The last move was not analysed, and nothing evaluates the position after it.
            (3, None),
            (4, None),
        ],
        5,
    );
    // Leela Zero (and PhoenixGo) write only the value network's `VNWR`; White's move 2 was
    // asked with White to move, written Black's first all the same.
    let e = evals_of(
        b"(;GM[1]SZ[19]BOT[Leela Zero]BOTV[0.17]RSGF[Analysis by GoReviewPartner\n]\
          ;B[pd]VNWR[45.0%/55.0%];W[dd]VNWR[38.25%/61.75%]CBM[Q4];B[pp])",
    )
    .unwrap();
    assert_eq!(e.engine.as_deref(), Some("Leela Zero 0.17"));
    check(
        &e,
        &[
            (0, Some((0.45, None, None))),
            (1, Some((0.3825, None, None))),
            (2, None),
        ],
        4,
    );
}

#[test]
fn a_comment_that_only_looks_like_katagos_is_not_read() {
    // Four numbers without `v=` and without KataGo's root comment: somebody's note.
    assert_eq!(
        evals_of(b"(;GM[1]SZ[19];B[pd]C[0.50 0.50 0.00 3.5];W[dd]C[12 30 45 3])"),
        None
    );
    // Nor the integer form without the root's mark.
    assert_eq!(
        evals_of(b"(;GM[1]SZ[19];B[pd]C[4800 5100 100 -1234])"),
        None
    );
}

/// The properties as `qipu analyse` writes them: Sabaki's and lizzieyzy's, side by side.
const BOTH: &[u8] = b"(;GM[1]FF[4]SZ[19]KM[7.5]SBKV[46.12]SBKS[-0.53]\
LZOP[KataGo 53.9 500 -0.5 10.0\nmove Q16 visits 500 winrate 4612 scoreMean -0.53 pv Q16]\
;B[pd]SBKV[23.5]SBKS[-6.25]LZ[KataGo 23.5 1.2k 6.3 10.0\nmove D4 visits 1200 winrate 7650 scoreMean 6.25 pv D4])";

#[test]
fn a_record_with_several_gives_the_richest_and_each_reads_back_alone() {
    // lizzieyzy's has visits as well: it is chosen, with Sabaki's win rate and lead where both
    // evaluate a position (to a hundredth, where LZ has a tenth).
    let e = evals_of(BOTH).unwrap();
    assert_eq!(
        (e.program, e.engine.as_deref()),
        ("lizzieyzy", Some("KataGo"))
    );
    check(
        &e,
        &[
            (0, Some((0.4612, Some(-0.53), Some(500)))),
            (1, Some((0.235, Some(-6.25), Some(1200)))),
        ],
        2,
    );
    let strip = |id: &str| {
        let text = std::str::from_utf8(BOTH).unwrap();
        let mut out = String::new();
        let mut rest = text;
        while let Some(i) = rest.find(&format!("{id}[")) {
            out.push_str(&rest[..i]);
            let after = &rest[i..];
            rest = &after[after.find(']').unwrap() + 1..];
        }
        out.push_str(rest);
        out
    };
    let sabaki = strip("LZOP");
    let sabaki = evals_of(strip_all(&sabaki, "LZ").as_bytes()).unwrap();
    assert_eq!(sabaki.program, "Sabaki");
    check(
        &sabaki,
        &[
            (0, Some((0.4612, Some(-0.53), None))),
            (1, Some((0.235, Some(-6.25), None))),
        ],
        2,
    );
    let lz = evals_of(strip_all(&strip("SBKV"), "SBKS").as_bytes()).unwrap();
    assert_eq!(lz.program, "lizzieyzy");
    check(
        &lz,
        &[
            (0, Some((0.461, Some(-0.5), Some(500)))),
            (1, Some((0.235, Some(-6.3), Some(1200)))),
        ],
        2,
    );
}

/// A stale `PL` (Black to move in a handicap game whose first move is White's): the root's
/// `LZOP` is read from the side of the player not to move by the moves, as `qipu analyse`
/// asked KataGo, not by `PL`.
#[test]
fn the_first_move_played_says_who_is_to_move_at_the_root() {
    let stale = b"(;GM[1]FF[4]SZ[19]HA[2]AB[dp][pd]PL[B]\
LZOP[KataGo 10.0 500 5.0 10.0\nmove Q3 visits 500 winrate 1000 scoreMean -5.0 pv Q3]\
;W[qp]LZ[KataGo 12.0 600 4.0 10.0\nmove C3 visits 600 winrate 8800 scoreMean 4.0 pv C3])";
    let e = evals_of(stale).unwrap();
    // At the root White is to move: LZOP's 10% is Black's (the player not to move), so Black
    // stands at 10%, not 90%, and its lead of 5 is White's; after White's move, LZ's 12% is
    // White's (who just moved) and its lead Black's (to move).
    check(
        &e,
        &[
            (0, Some((0.10, Some(-5.0), Some(500)))),
            (1, Some((0.88, Some(4.0), Some(600)))),
        ],
        2,
    );
}

fn strip_all(text: &str, id: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find(&format!("{id}[")) {
        out.push_str(&rest[..i]);
        let after = &rest[i..];
        rest = &after[after.find(']').unwrap() + 1..];
    }
    out.push_str(rest);
    out
}

#[test]
fn a_record_without_evaluations_gives_none() {
    assert_eq!(
        evals_of(b"(;GM[1]SZ[19]C[a game]PB[x];B[pd]C[good];W[dd]LB[dd:A])"),
        None
    );
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

fn b64(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

#[test]
fn bad_values_are_skipped_and_said_where() {
    let good = b64(&gzip(
        br#"{"root": {"winrate": 0.25, "scoreLead": -3.0, "visits": 10}}"#,
    ));
    let not_json = b64(&gzip(b"[1, 2"));
    // 64 MiB of zeros: a blob of a few tens of kilobytes.
    let bomb = {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        let zeros = vec![b' '; 1 << 20];
        for _ in 0..64 {
            enc.write_all(&zeros).unwrap();
        }
        b64(&enc.finish().unwrap())
    };
    let truncated = &good[..good.len() / 2];
    let record = format!(
        "(;GM[1]SZ[19]KTV[1.0];B[aa]KT[][][{good}];W[bb]KT[][][{truncated}];B[cc]KT[][][{bomb}]\
         ;W[dd]KT[][][{not_json}];B[ee]KT[][][%%%];W[ff]KT[only one])"
    );
    let records = Records::read(record.as_bytes());
    let tree = records.game(0).unwrap();
    let (e, problems) = read_checked(&tree);
    let e = e.unwrap();
    assert_eq!(e.count(), 1);
    check(
        &e,
        &[
            (1, Some((0.25, Some(-3.0), Some(10)))),
            (2, None),
            (3, None),
        ],
        7,
    );
    let said: Vec<String> = problems.iter().map(|d| d.problem.to_string()).collect();
    assert_eq!(problems.len(), 5, "{said:#?}");
    assert!(said.iter().all(|s| s.starts_with("KT: ")), "{said:#?}");
    assert!(said[1].contains("more than"), "{said:#?}");
    // Each at its value's byte.
    let at = record.find(&format!("[{truncated}]")).unwrap() + 1;
    assert!(problems.iter().any(|d| d.offset == at));

    let record = "(;GM[1]SZ[19];B[aa]SBKV[abc];W[bb]SBKV[NaN];B[cc]SBKV[150]\
                  ;W[dd]SBKV[-1];B[ee]SBKV[inf];W[ff]SBKV[40]SBKS[1e999];B[gg]SBKV[]\
                  ;W[hh]SBKV[55,5]SBKS[0])";
    let records = Records::read(record.as_bytes());
    let tree = records.game(0).unwrap();
    let (e, problems) = read_checked(&tree);
    let e = e.unwrap();
    check(
        &e,
        &[
            (1, None),
            (2, None),
            (3, None),
            (4, None),
            (5, None),
            (6, Some((0.40, None, None))),
            (7, None),
            (8, Some((0.555, Some(0.0), None))),
        ],
        9,
    );
    assert_eq!(problems.len(), 7, "{problems:#?}");
    assert!(matches!(
        &problems[0].problem,
        Problem::BadEvaluation {
            property: "SBKV",
            ..
        }
    ));
    assert_eq!(problems[0].offset, record.find("abc").unwrap());

    let record = "(;GM[1]SZ[19];B[aa]LZ[KataGo];W[bb]LZ[KataGo x 100];B[cc]LZ[KataGo 40 lots]\
                  ;W[dd]LZ[KataGo 40 100 NaN];B[ee]LZ[KataGo 101 100];W[ff]LZ[KataGo 40 99999999999])";
    let records = Records::read(record.as_bytes());
    let tree = records.game(0).unwrap();
    let (e, problems) = read_checked(&tree);
    assert_eq!(e, None);
    assert_eq!(problems.len(), 6, "{problems:#?}");

    // The second engine's, said as its own property.
    let record = "(;GM[1]SZ[19]LZOP2[KataGo 40];B[aa]LZ2[KataGo x 100])";
    let records = Records::read(record.as_bytes());
    let (e, problems) = read_checked(&records.game(0).unwrap());
    assert_eq!(e, None);
    let said: Vec<String> = problems.iter().map(|d| d.problem.to_string()).collect();
    assert_eq!(problems.len(), 2, "{said:#?}");
    assert!(
        said[0].starts_with("LZOP2: ") && said[1].starts_with("LZ2: "),
        "{said:#?}"
    );
    assert_eq!(problems[1].offset, record.find("KataGo x").unwrap());

    let record =
        "(;GM[1]SZ[19];B[aa]BWWR[x%/y%];W[bb]BWWR[101%/-1%];B[cc]BWWR[40.5];W[dd]BWWR[40%/60%])";
    let records = Records::read(record.as_bytes());
    let (e, problems) = read_checked(&records.game(0).unwrap());
    check(&e.unwrap(), &[(3, Some((0.40, None, None)))], 5);
    let said: Vec<String> = problems.iter().map(|d| d.problem.to_string()).collect();
    assert_eq!(problems.len(), 3, "{said:#?}");
    assert!(said.iter().all(|s| s.starts_with("BWWR: ")), "{said:#?}");
    assert_eq!(problems[0].offset, record.find("x%").unwrap());

    // KaTrain's later formats are not guessed at.
    let record = format!("(;GM[1]SZ[19]KTV[2.0];B[aa]KT[][][{good}])");
    let records = Records::read(record.as_bytes());
    let (e, problems) = read_checked(&records.game(0).unwrap());
    assert_eq!((e, problems.len()), (None, 1));
}

#[test]
fn a_huge_comment_costs_no_panic_and_is_not_taken_for_katagos() {
    let mut record = b"(;GM[1]SZ[19]C[startTurnIdx=0];B[aa]C[".to_vec();
    for _ in 0..200_000 {
        record.extend_from_slice(b"0.50 0.50 0.00 1.0 v=1 ");
    }
    record.extend_from_slice(b"];W[bb]C[0.40 0.60 0.00 -2.0 v=5 weight=1.00])");
    let e = evals_of(&record).unwrap();
    check(&e, &[(0, None), (1, Some((0.6, Some(2.0), Some(5))))], 3);
}

/// analyze-sgf's reviews in the shared set: every main-line move's comment says the win rate
/// and lead as analyze-sgf shows them (`* Win rate: W 95.10%`, `* Score lead: W 19.82`,
/// `* Visits: 2001`); the reader gives the same numbers from Black's side.
#[test]
fn analyze_sgf_reviews_read_as_their_comments_show() {
    let Some(dir) = testdata::dataset("diverse") else {
        return;
    };
    let dir = dir.join("torture/katago_analyzed_pro_ogs-data-analysis-tools");
    let mut files = 0;
    let mut checked = 0;
    let mut white_led = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|x| x != "sgf") {
            continue;
        }
        files += 1;
        let bytes = std::fs::read(&path).unwrap();
        let records = Records::read(&bytes);
        let tree = records.game(0).unwrap();
        let e = read(&tree).unwrap_or_else(|| panic!("{}: nothing read", path.display()));
        assert_eq!(
            (e.program, e.engine.as_deref()),
            ("analyze-sgf", Some("KataGo"))
        );
        let mut k = 0;
        for node in tree.main_line().skip(1) {
            if node.get(sgf::ids::B).is_some() || node.get(sgf::ids::W).is_some() {
                k += 1;
            }
            let Some(c) = node.get(sgf::ids::C) else {
                continue;
            };
            let text = c.text();
            let field = |key: &str| {
                let i = text.find(key)? + key.len();
                let mut w = text[i..].split_whitespace();
                Some((w.next()?.to_string(), w.next().map(str::to_string)))
            };
            let Some((side, Some(pct))) = field("* Win rate: ") else {
                continue;
            };
            let pct: f32 = pct.trim_end_matches('%').parse().unwrap();
            let win = if side == "B" { pct } else { 100.0 - pct } / 100.0;
            let (lside, lead) = field("* Score lead: ").unwrap();
            let lead: f32 = lead.unwrap().parse().unwrap();
            let lead = if lside == "B" { lead } else { -lead };
            let visits: u32 = field("* Visits: ").unwrap().0.parse().unwrap();
            let got = e.positions[k].unwrap_or_else(|| panic!("{}: move {k}", path.display()));
            assert!(
                (got.win - win).abs() < 1.5e-4,
                "{}: move {k}: {got:?}",
                path.display()
            );
            assert!((got.lead.unwrap() - lead).abs() < 1e-4, "move {k}");
            assert_eq!(got.visits, Some(visits));
            white_led += (side == "W") as usize;
            checked += 1;
        }
    }
    assert!(
        files >= 5 && checked > 500,
        "{files} files, {checked} moves"
    );
    assert!(white_led > 100, "positions where White leads: {white_led}");
}

/// q5Go's own tutorials (q5Go 2.1.3, the shared `diverse/` set): every `QKGV` on a move is read
/// as q5Go wrote it, Black's win probability and score, on the position after the move; those
/// on nodes that edit the board after the first move are not, and a move's own is dropped when
/// the board is edited before the next move (it evaluates another board than that move's).
#[test]
fn q5go_qkgv_reads_as_q5go_wrote_it_in_its_tutorials() {
    let Some(dir) = testdata::dataset("diverse") else {
        return;
    };
    let dir = dir.join("torture/q5go/src/sgfs");
    // bentfour.sgf's one `QKGV` is on a board edited after the moves: nothing is read.
    let bytes = std::fs::read(dir.join("bentfour.sgf")).unwrap();
    let records = Records::read(&bytes);
    assert_eq!(read(&records.game(0).unwrap()), None);

    let bytes = std::fs::read(dir.join("lnd2.sgf")).unwrap();
    let records = Records::read(&bytes);
    let tree = records.game(0).unwrap();
    let e = read(&tree).expect("lnd2.sgf: nothing read");
    assert_eq!(
        (e.program, e.engine.as_deref()),
        ("q5Go", Some("KataGo 1.9 s1056"))
    );
    // What q5Go wrote, counted by this test: `VISITS:WINRATE:SCOREMEAN:…` per position after
    // the node's moves, the first node saying it; those on an edited board left out.
    let qkgv = sgf::PropId::new("QKGV");
    let mut moves = 0;
    let mut skipped = 0;
    let mut want: Vec<Option<(f32, f32, u32)>> = vec![None; e.positions.len()];
    for node in tree.main_line() {
        let moved = node.get(sgf::ids::B).is_some() || node.get(sgf::ids::W).is_some();
        let edits = [sgf::ids::AB, sgf::ids::AW, sgf::ids::AE]
            .iter()
            .any(|&id| node.get(id).is_some());
        let before = moves;
        moves += moved as usize;
        if before > 0 && edits {
            // What was said before the edit evaluates another board than position `before`
            // (the board the next move is played from).
            want[before] = None;
        }
        let Some(v) = node.get(qkgv) else { continue };
        if before > 0 && edits {
            skipped += 1;
            continue;
        }
        let text = v.text();
        let f: Vec<&str> = text.split(':').collect();
        let (visits, win, lead) = (
            f[0].parse().unwrap(),
            f[1].parse().unwrap(),
            f[2].parse().unwrap(),
        );
        want[moves].get_or_insert((win, lead, visits));
    }
    let mut checked = 0;
    for (k, w) in want.iter().enumerate() {
        let got = e.positions[k];
        match (w, got) {
            (None, None) => {}
            (Some((win, lead, visits)), Some(g)) => {
                assert!((g.win - win).abs() < 1e-6, "position {k}: {g:?}");
                assert!((g.lead.unwrap() - lead).abs() < 1e-4, "position {k}");
                assert_eq!(g.visits, Some(*visits));
                // Black's side both: a low win rate goes with a negative score.
                assert_eq!(g.win < 0.5, g.lead.unwrap() < 0.0, "position {k}");
                checked += 1;
            }
            _ => panic!("position {k}: {got:?}, want {w:?}"),
        }
    }
    // Five values on moves, one of them before an edit: four read.
    assert_eq!((checked, skipped), (4, 6));
}

/// q5Go's other forms, written as `append_to_sgf` writes them: `QLZV` (no score), a node with
/// two analyses (the record's first is read throughout), `::ENGINE` without a komi.
#[test]
fn q5go_values_take_the_records_first_analysis_and_qlzv_has_no_lead() {
    let e = evals_of(
        b"(;GM[1]SZ[19];B[pd]QLZV[1500:0.453000:7.5:LeelaZero 0.17][900:0.470000:6.5:LeelaZero 0.17]\
          ;W[dd]QLZV[800:0.470000:6.5:LeelaZero 0.17][1600:0.235000:7.5:LeelaZero 0.17];B[pp])",
    )
    .unwrap();
    assert_eq!(
        (e.program, e.engine.as_deref()),
        ("q5Go", Some("LeelaZero 0.17"))
    );
    check(
        &e,
        &[
            (0, None),
            (1, Some((0.453, None, Some(1500)))),
            (2, Some((0.235, None, Some(1600)))),
            (3, None),
        ],
        4,
    );
    // A board edited between two moves: the evaluation before the edit is not the position the
    // next move is played from, so that move has no loss (not the edit's effect).
    let e = evals_of(
        b"(;GM[1]SZ[9];B[ee]QKGV[100:0.500000:0:1];AB[aa][ba][ca]QKGV[100:0.900000:20:1]\
          ;W[cc]QKGV[100:0.900000:20:1])",
    )
    .unwrap();
    check(
        &e,
        &[
            (0, None),
            (1, None),
            (2, Some((0.9, Some(20.0), Some(100)))),
        ],
        3,
    );
    // A bad value is said where it is.
    let record = "(;GM[1]SZ[19]QKGV[400:0.512000:0.6:12.1::KataGo];B[pd]QKGV[x:0.5:1:1::KataGo])";
    let records = Records::read(record.as_bytes());
    let (e, problems) = read_checked(&records.game(0).unwrap());
    let e = e.unwrap();
    assert_eq!(e.engine.as_deref(), Some("KataGo"));
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].offset, record.find("x:0.5").unwrap());
    assert!(problems[0].problem.to_string().starts_with("QKGV: "));
    check(
        &e,
        &[(0, Some((0.512, Some(0.6), Some(400)))), (1, None)],
        2,
    );
}

/// Every fixture cut short and with bytes overwritten, thousands of ways: reading never panics,
/// every position it gives is a probability, and there is one slot per move plus the start.
#[test]
fn damaged_fixtures_never_panic_and_give_only_probabilities() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/evals");
    let mut rng = testdata::Rng::new(0x5eed_e7a1);
    let noise = b"[]\\;()0123456789.-,kmKM eE\nBWCLZSKVTOP";
    for entry in std::fs::read_dir(&dir).unwrap() {
        let original = std::fs::read(entry.unwrap().path()).unwrap();
        for _ in 0..400 {
            let mut bytes = original.clone();
            bytes.truncate(1 + rng.below(bytes.len() as u64) as usize);
            for _ in 0..rng.below(8) {
                let at = rng.below(bytes.len() as u64) as usize;
                bytes[at] = noise[rng.below(noise.len() as u64) as usize];
            }
            let records = Records::read(&bytes);
            for i in 0..records.len() {
                let Ok(tree) = records.game(i) else { continue };
                let moves: usize = tree
                    .main_line()
                    .map(|n| {
                        n.get(sgf::ids::B).is_some() as usize
                            + n.get(sgf::ids::W).is_some() as usize
                    })
                    .sum();
                if let Some(e) = read_checked(&tree).0 {
                    assert_eq!(e.positions.len(), moves + 1);
                    for p in e.positions.iter().flatten() {
                        assert!((0.0..=1.0).contains(&p.win), "{p:?}");
                        assert!(p.lead.is_none_or(f32::is_finite), "{p:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn katagos_rounded_probabilities_never_make_more_than_a_certainty() {
    // Two decimals each may sum to 1.01: Black's win stays 1.
    let e = evals_of(b"(;GM[1]SZ[19];B[pd]C[0.00 1.00 0.01 -30.0 v=100 weight=1.00])").unwrap();
    check(&e, &[(0, Some((1.0, Some(30.0), Some(100))))], 2);
}
