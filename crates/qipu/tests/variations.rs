//! Variation lines (`BuildOptions::variations`): on a small hand-written record, every hit, path,
//! branch point and continuation row exactly; a selection by information takes a game's lines
//! with it; the setting is kept by later runs and a different one refused; an index built
//! without it answers as before, to the byte. On Kogo's joseki dictionary (shared data), a known
//! joseki line is found with its path, and not without variations.

use qipu::{build, BuildOptions, ErrorKind, Index, Query};
use testdata::Scratch;

/// Main line B[pd] W[dp] B[pp] W[dd] B[fq]; at W[dp] (node depth 2) two other children:
/// B[dd] W[pp] (then B[pj], or B[jp] as the second child of W[pp], depth 4) and B[qp].
const RECORD: &str = "(;GM[1]FF[4]SZ[19]PB[Black]PW[White]RE[B+R]DT[2020-01-01]
;B[pd];W[dp]
 (;B[pp];W[dd];B[fq])
 (;B[dd];W[pp]
   (;B[pj])
   (;B[jp]))
 (;B[qp]))";

/// A second record, added by a later run: one variation at the root's child.
const LATER: &str =
    "(;GM[1]FF[4]SZ[19]PB[Later]PW[Run]RE[W+R]DT[2021-01-01];B[qd](;W[dc])(;W[cd]))";

fn index(scratch: &Scratch, variations: Option<bool>) -> Index {
    let options = BuildOptions {
        variations,
        ..BuildOptions::default()
    };
    build(
        scratch.0.join("index"),
        &[scratch.0.join("games")],
        &options,
        |_| {},
    )
    .unwrap();
    Index::open(scratch.0.join("index")).unwrap()
}

/// (path or "" for the main line, moves) of each hit, in order.
fn hits(answer: &qipu::Answer) -> Vec<(String, Vec<u32>)> {
    answer
        .hits
        .iter()
        .map(|h| {
            (
                h.variation
                    .as_ref()
                    .map_or(String::new(), |v| v.path.clone()),
                h.moves.clone(),
            )
        })
        .collect()
}

/// (point, count, variations) of each continuation row, in order.
fn rows(answer: &qipu::Answer) -> Vec<(String, u32, u32)> {
    answer
        .continuations
        .iter()
        .map(|c| {
            (
                c.point.map_or(String::new(), |p| p.sgf_string()),
                c.count,
                c.variations,
            )
        })
        .collect()
}

fn position(black: &str, white: &str) -> Query {
    Query::points(19, black, white).unwrap().symmetry(false)
}

#[test]
fn variation_lines_answer_from_their_branch_point_with_their_paths() {
    let scratch = Scratch::new("variations-small");
    scratch.write("games/v.sgf", RECORD.as_bytes());
    let index = index(&scratch, Some(true));
    // Four ids: the game and its three lines, right after it.
    assert_eq!(index.len(), 4);
    let stats = index.stats(5).unwrap();
    assert_eq!((stats.games, stats.variation_lines), (1, Some(3)));

    // After B[pd] W[dp]: the main line (next B[pp], played), and the two lines that branch
    // there (next B[dd] and B[qp], counted as variations only); the line branching at move 4
    // is not a hit here, since before its branch point it is the first line.
    let a = index.search(&position("pd", "dp")).unwrap();
    assert_eq!(
        hits(&a),
        [
            (String::new(), vec![2]),
            ("2:1".to_string(), vec![2]),
            ("2:2".to_string(), vec![2])
        ]
    );
    assert_eq!(
        rows(&a),
        [
            ("pp".to_string(), 1, 0),
            ("dd".to_string(), 0, 1),
            ("qp".to_string(), 0, 1)
        ]
    );
    assert_eq!((a.summary.games, a.summary.variations), (1, 2));
    let played = &a.continuations[0];
    assert_eq!((played.black_wins, played.other), (1, 0));
    let line = &a.continuations[1];
    assert_eq!((line.black_wins, line.white_wins, line.other), (0, 0, 0));
    assert_eq!(line.first_year, None);
    // The date profile counts the game once, not its lines.
    assert_eq!(a.profile.years.len(), 1);
    assert_eq!(a.profile.years[0].games, 1);
    // A line's hit names its game and the information is the game's.
    let v = a.hits[1].variation.as_ref().unwrap();
    assert_eq!((v.game, v.from), (a.hits[0].game, 2));
    assert_eq!(a.hits[1].info, a.hits[0].info);

    // After B[pd] W[dp] B[dd] W[pp]: only the lines (the main line played B[pp] W[dd]).
    let b = index.search(&position("pd,dd", "dp,pp")).unwrap();
    assert_eq!(
        hits(&b),
        [
            ("2:1".to_string(), vec![4]),
            ("2:1,4:1".to_string(), vec![4])
        ]
    );
    assert_eq!(
        rows(&b),
        [("jp".to_string(), 0, 1), ("pj".to_string(), 0, 1)]
    );
    assert_eq!((b.summary.games, b.summary.variations), (0, 2));
    assert!(b.profile.years.is_empty());

    // After B[pd] only: the main line; the lines share it and are not counted twice.
    let c = index.search(&position("pd", "")).unwrap();
    assert_eq!(hits(&c), [(String::new(), vec![1])]);
    assert_eq!(rows(&c), [("dp".to_string(), 1, 0)]);

    // A move sequence completed on a line, and a pattern that appears only on one.
    let seq = index
        .search(
            &Query::moves("B[pd] W[dp] B[qp]", 19)
                .unwrap()
                .symmetry(false),
        )
        .unwrap();
    assert_eq!(hits(&seq), [("2:2".to_string(), vec![3])]);
    let jp = index
        .search(&Query::pattern("X").unwrap().place(9, 15).symmetry(false))
        .unwrap();
    assert_eq!(hits(&jp), [("2:1,4:1".to_string(), vec![5])]);

    // A line's moves, as `main_line` reads them for it.
    let line_id = b.hits[1].game;
    let moves: Vec<String> = index
        .main_line(line_id)
        .unwrap()
        .moves
        .iter()
        .map(|m| m.point.unwrap().sgf_string())
        .collect();
    assert_eq!(moves, ["pd", "dp", "dd", "pp", "jp"]);

    // Information selects the lines with their game; a metadata query alone answers games.
    let won = index
        .search(&position("pd", "dp").filter("winner:B"))
        .unwrap();
    assert_eq!(hits(&won).len(), 3);
    let lost = index
        .search(&position("pd", "dp").filter("winner:W"))
        .unwrap();
    assert!(lost.hits.is_empty());
    let games = index.search(&Query::metadata("winner:B")).unwrap();
    assert_eq!(hits(&games), [(String::new(), vec![])]);
    let dated = index
        .search(&position("pd", "dp").since("2020").unwrap())
        .unwrap();
    assert_eq!(hits(&dated).len(), 3);

    // The export names the line a hit is on.
    let sgf = String::from_utf8(index.export_sgf(&b.hits).unwrap()).unwrap();
    assert!(sgf.starts_with("(;QH[4]QV[2:1]"), "{sgf}");
}

#[test]
fn the_setting_is_kept_by_later_runs_and_another_one_refused() {
    let scratch = Scratch::new("variations-runs");
    scratch.write("games/v.sgf", RECORD.as_bytes());
    index(&scratch, Some(true));
    // A later run that says nothing keeps it: the new record's line is indexed too.
    scratch.write("games/later.sgf", LATER.as_bytes());
    let index_again = index(&scratch, None);
    let stats = index_again.stats(5).unwrap();
    assert_eq!((stats.games, stats.variation_lines), (2, Some(4)));
    let later = index_again.search(&position("qd", "cd")).unwrap();
    assert_eq!(hits(&later), [("1:1".to_string(), vec![2])]);
    drop(index_again);
    // Asking the other way on this index is the user's mistake, and changes nothing.
    let refused = build(
        scratch.0.join("index"),
        &[scratch.0.join("games")],
        &BuildOptions {
            variations: Some(false),
            ..BuildOptions::default()
        },
        |_| {},
    )
    .unwrap_err();
    assert_eq!(refused.kind(), ErrorKind::BadInput);
    assert!(refused.to_string().contains("--rebuild"), "{refused}");
    // A rebuild may change it.
    let rebuilt = {
        let options = BuildOptions {
            rebuild: true,
            variations: Some(false),
            ..BuildOptions::default()
        };
        build(
            scratch.0.join("index"),
            &[scratch.0.join("games")],
            &options,
            |_| {},
        )
        .unwrap();
        Index::open(scratch.0.join("index")).unwrap()
    };
    assert_eq!(rebuilt.len(), 2);
    assert_eq!(rebuilt.stats(5).unwrap().variation_lines, None);
    assert!(rebuilt
        .search(&position("qd", "cd"))
        .unwrap()
        .hits
        .is_empty());
}

#[test]
fn without_variations_answers_are_as_before_to_the_byte() {
    let scratch = Scratch::new("variations-off");
    scratch.write("games/v.sgf", RECORD.as_bytes());
    let index = index(&scratch, None);
    assert_eq!(index.len(), 1);
    // The lines are not there...
    assert!(index
        .search(&position("pd,dd", "dp,pp"))
        .unwrap()
        .hits
        .is_empty());
    // ...and an answer's lines are what they were before variations existed: no `variation`,
    // no `variations` key anywhere.
    let a = index.search(&position("pd", "dp")).unwrap();
    let printed: Vec<String> = qipu::lines::lines(&a, 10)
        .filter(|l| !matches!(l, qipu::lines::Line::Summary(_)))
        .map(|l| serde_json::to_string(&l).unwrap())
        .collect();
    assert_eq!(
        printed,
        [
            r#"{"type":"hit","file":"v.sgf","game":0,"moves":[2],"black":"Black","white":"White","date":"2020-01-01","result":"B+R","event":null,"copy":false}"#,
            r#"{"type":"continuation","color":"B","point":"pp","count":1,"tenuki":0,"black_wins":1,"white_wins":0,"other":0,"mover_rank":null,"mover_ranked":0,"opponent_rank":null,"opponent_ranked":0,"first_year":2020,"last_year":2020,"example":"v.sgf#0","analysed":0,"black_win_after":null,"black_lead_after":null,"win_loss":null,"points_loss":null}"#,
            r#"{"type":"profile","years":[{"year":2020,"games":1,"black_wins":1,"white_wins":0}],"undated":0}"#,
        ]
    );
    let summary = serde_json::to_value(qipu::lines::SummaryLine::of(&a)).unwrap();
    let keys: Vec<&String> = summary.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["elapsed_ms", "games", "positions"]);
    assert!(index.stats(5).unwrap().variation_lines.is_none());
}

#[test]
fn kogos_dictionary_answers_a_joseki_line_with_its_path() {
    let Some(diverse) = testdata::dataset("diverse") else {
        return;
    };
    let kogo = diverse.join("torture/kogo_joseki_dictionary_gosei");
    let scratch = Scratch::new("variations-kogo");
    let build_with = |variations: bool, name: &str| {
        let options = BuildOptions {
            variations: Some(variations),
            ..BuildOptions::default()
        };
        let dir = scratch.0.join(name);
        build(&dir, std::slice::from_ref(&kogo), &options, |_| {}).unwrap();
        Index::open(dir).unwrap()
    };
    // The 4-4 point (the root's third child), the one-space low approach (its first), the
    // one-space low pincer (the approach's fifth child), then the 3-3 invasion and its usual
    // sequence, the dictionary's first choice at each move.
    let joseki = "B[pd] W[qf] B[qh] W[qc] B[qd] W[pc] B[od] W[rd] B[re]";
    let with = build_with(true, "with");
    let stats = with.stats(5).unwrap();
    assert_eq!((stats.games, stats.variation_lines), (1, Some(7_720)));
    assert_eq!(stats.variation_lines_left, Some(0));
    let a = with
        .search(&Query::moves(joseki, 19).unwrap().symmetry(false))
        .unwrap();
    assert_eq!(hits(&a), [("0:2,2:4".to_string(), vec![9])]);
    assert_eq!(a.hits[0].variation.as_ref().unwrap().from, 2);
    assert_eq!(a.summary.games, 0);
    // What the dictionary plays next there: the hane W[rc].
    assert_eq!(rows(&a)[0], ("rc".to_string(), 0, 1));
    let without = build_with(false, "without");
    let b = without
        .search(&Query::moves(joseki, 19).unwrap().symmetry(false))
        .unwrap();
    assert!(b.hits.is_empty());
    assert_eq!(without.stats(5).unwrap().variation_lines, None);
}
