//! Every real GIB, NGF, UGF/UGI and kifu-line file of the shared `diverse/` set, read as the SGF it
//! stands for: players, ranks, date, komi, handicap stones, result, the first moves and the move
//! count are pinned to what the files hold (checked by hand against the files, and against the
//! expectations of Sabaki's own tests of the same files where it has them).

use std::path::PathBuf;

use sgf::write::to_sgf;
use sgf::{ids, GameInfo, GameTree, PropId, Records};
use testdata::dataset;

fn file(rel: &str) -> Option<Vec<u8>> {
    let root: PathBuf = dataset("diverse")?;
    Some(std::fs::read(root.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}")))
}

/// What one file must read as.
struct Expect {
    file: &'static str,
    format: &'static str,
    black: &'static str,
    black_rank: &'static str,
    white: &'static str,
    white_rank: &'static str,
    date: &'static str,
    komi: Option<f64>,
    handicap: &'static [&'static str],
    result: &'static str,
    first: &'static str,
    moves: usize,
    charset: &'static str,
}

fn prop(tree: &GameTree<'_>, id: PropId) -> String {
    tree.root()
        .get(id)
        .map(|p| p.text().into_owned())
        .unwrap_or_default()
}

fn main_line(tree: &GameTree<'_>) -> Vec<String> {
    tree.main_line()
        .filter_map(|n| {
            let (c, p) = n
                .get(ids::B)
                .map(|p| ('B', p))
                .or_else(|| n.get(ids::W).map(|p| ('W', p)))?;
            Some(format!("{c}[{}]", String::from_utf8_lossy(p.raw())))
        })
        .collect()
}

fn check(e: &Expect) {
    let Some(bytes) = file(e.file) else { return };
    let records = Records::read(&bytes);
    assert_eq!(records.format().name(), e.format, "{}", e.file);
    assert_eq!(records.len(), 1, "{}: {:?}", e.file, records.diagnostics());
    assert!(
        records.diagnostics().is_empty(),
        "{}: {:?}",
        e.file,
        records.diagnostics()
    );
    let tree = records.game(0).unwrap();
    // KaTrain's test.gib holds U+FFFD itself (its event and place were damaged before it was
    // shared), in valid UTF-8: kept as written, and not said to be bytes that did not decode,
    // as a plain SGF file holding it is not.
    let diags = tree.diagnostics();
    assert!(diags.is_empty(), "{}: {diags:?}", e.file);
    let info = GameInfo::read(&tree);
    let name = |n: &Option<String>| n.clone().unwrap_or_default();
    assert_eq!(name(&info.black), e.black, "{}", e.file);
    assert_eq!(name(&info.white), e.white, "{}", e.file);
    assert_eq!(prop(&tree, ids::BR), e.black_rank, "{}", e.file);
    assert_eq!(prop(&tree, ids::WR), e.white_rank, "{}", e.file);
    if !e.black_rank.is_empty() {
        assert!(
            info.black_rank.as_ref().unwrap().value.is_some(),
            "{}: {:?}",
            e.file,
            info.black_rank
        );
    }
    assert_eq!(prop(&tree, ids::DT), e.date, "{}", e.file);
    assert_eq!(
        info.komi.as_ref().and_then(|k| k.value),
        e.komi,
        "{}",
        e.file
    );
    let ab: Vec<String> = tree
        .root()
        .get(ids::AB)
        .map(|p| {
            p.raw_values()
                .map(|(v, _)| String::from_utf8_lossy(v).into_owned())
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(ab, e.handicap, "{}", e.file);
    let ha = info.handicap.as_ref().and_then(|h| h.value).unwrap_or(0);
    assert_eq!(
        usize::from(ha),
        if e.handicap.is_empty() {
            0
        } else {
            e.handicap.len()
        }
    );
    assert_eq!(prop(&tree, ids::RE), e.result, "{}", e.file);
    let moves = main_line(&tree);
    assert_eq!(moves.len(), e.moves, "{}", e.file);
    assert_eq!(moves[..4].join(""), e.first, "{}", e.file);
    assert_eq!(
        tree.charset()
            .original
            .unwrap_or(tree.charset().encoding)
            .name(),
        e.charset,
        "{}",
        e.file
    );
    // The SGF written from it reads back as the same game.
    let out = to_sgf(&tree);
    let again = Records::read(out.as_bytes());
    assert_eq!(again.format().name(), "sgf");
    let back = again.game(0).unwrap();
    assert_eq!(main_line(&back), moves, "{}", e.file);
    assert_eq!(GameInfo::read(&back), info, "{}", e.file);
}

const GIB: &str = "other_formats/gib/";
const NGF: &str = "other_formats/ngf/";

#[test]
fn gib_files() {
    let cases = [
        Expect {
            file: "other_formats/gib/glift__test__testdata__tygem_example.gib",
            format: "gib",
            black: "go48",
            black_rank: "2K",
            white: "Radagast",
            white_rank: "2K",
            date: "2014-01-27",
            komi: Some(6.5),
            handicap: &[],
            // GRLT:1 with ZIPSU:595: White by 59.5 ("white 59.5 win").
            result: "W+59.5",
            first: "B[pp]W[dc]B[dq]W[pd]",
            moves: 298,
            charset: "UTF-8",
        },
        Expect {
            file: "other_formats/gib/katrain__tests__data__test.gib",
            format: "gib",
            black: "kim",
            black_rank: "2D",
            white: "wildsim1",
            white_rank: "2D",
            date: "2020-06-14",
            komi: Some(6.5),
            handicap: &[],
            // GRLT:8: White on time ("white wins by time").
            result: "W+T",
            first: "B[pd]W[dp]B[qp]W[nc]",
            moves: 232,
            charset: "UTF-8",
        },
        Expect {
            file: "other_formats/gib/sabaki_app__test__gib__euc-kr.gib",
            format: "gib",
            black: "dustkd1015",
            black_rank: "1급",
            white: "dongjik",
            white_rank: "1급",
            date: "2015-08-29",
            komi: Some(6.5),
            handicap: &[],
            // GRLT:7: Black on time ("흑 시간승").
            result: "B+T",
            first: "B[qc]W[dp]B[qo]W[dd]",
            moves: 49,
            charset: "EUC-KR",
        },
        Expect {
            file: "other_formats/gib/sabaki_app__test__gib__gb2312.gib",
            format: "gib",
            black: "石下之臣",
            black_rank: "2段",
            white: "harpmaster",
            white_rank: "3段",
            date: "2012-11-22",
            komi: Some(0.0),
            handicap: &["pd", "dp", "dd", "pp", "jj"],
            result: "W+11",
            first: "W[qn]B[nq]W[qf]B[qj]",
            moves: 268,
            charset: "GBK",
        },
        Expect {
            // Sabaki's test: PW leejw977 10K, PB jy512 15K, HA 3 with AB dp pd dd (Tygem's third
            // stone upper left), KM 0, first moves W pp, B nq, W qn, B no.
            file: "other_formats/gib/sabaki_app__test__gib__utf8.gib",
            format: "gib",
            black: "jy512",
            black_rank: "15K",
            white: "leejw977",
            white_rank: "10K",
            date: "2016-03-26",
            komi: Some(0.0),
            handicap: &["pd", "dp", "dd"],
            // GRLT:255: no result.
            result: "",
            first: "W[pp]B[nq]W[qn]B[no]",
            moves: 118,
            charset: "UTF-8",
        },
        Expect {
            file: "other_formats/gib/sabaki_app__test__nonSGF__gib__GB2312 China even.gib",
            format: "gib",
            black: "玻璃中国风",
            black_rank: "8段",
            white: "harpmaster",
            white_rank: "3段",
            date: "2012-12-03",
            komi: Some(6.5),
            handicap: &[],
            result: "B+1.5",
            first: "B[pd]W[dp]B[qo]W[dd]",
            moves: 209,
            charset: "GBK",
        },
        Expect {
            file: "other_formats/gib/sabaki_app__test__nonSGF__gib__UTF-8 Global even.gib",
            format: "gib",
            black: "Silver Star",
            black_rank: "8K",
            white: "redacted",
            white_rank: "5K",
            date: "2017-03-16",
            komi: Some(0.0),
            handicap: &["pd", "dp", "dd"],
            result: "B+4",
            first: "W[pp]B[mq]W[qf]B[pf]",
            moves: 252,
            charset: "UTF-8",
        },
    ];
    for e in &cases {
        assert!(e.file.starts_with(GIB));
        check(e);
    }
}

#[test]
fn ngf_files() {
    let cases = [
        Expect {
            file: "other_formats/ngf/katrain__tests__data__handicap2.ngf",
            format: "ngf",
            black: "p81587",
            black_rank: "5d*",
            white: "ace550",
            white_rank: "7d*",
            date: "2017-03-16",
            // A handicap game: no half point implied.
            komi: Some(0.0),
            handicap: &["pd", "dp"],
            result: "W+R",
            first: "W[pq]B[dd]W[fq]B[hq]",
            moves: 189,
            charset: "UTF-8",
        },
        Expect {
            // Sabaki's test: KM 7.5, PW LQC 9p, PB CYY 9p, DT 2017-03-16, RE B+0.5, moves qd dd
            // pq dp.
            file: "other_formats/ngf/sabaki_app__test__ngf__even.NGF",
            format: "ngf",
            black: "CYY",
            black_rank: "9p",
            white: "LQC",
            white_rank: "9p",
            date: "2017-03-16",
            komi: Some(7.5),
            handicap: &[],
            result: "B+0.5",
            first: "B[qd]W[dd]B[pq]W[dp]",
            moves: 333,
            charset: "UTF-8",
        },
        Expect {
            // The older `GI` layout, GB2312 text, the result after the moves (黑中盘胜).
            file: "other_formats/ngf/sabaki_app__test__ngf__gb2312.ngf",
            format: "ngf",
            black: "李载雄",
            black_rank: "五段",
            white: "朴承华",
            white_rank: "初段",
            date: "2006-09-05",
            komi: Some(6.5),
            handicap: &[],
            result: "B+R",
            first: "B[qd]W[dd]B[pq]W[oc]",
            moves: 211,
            // NGF names no charset; the format's own is GB18030 (GBK is its subset).
            charset: "gb18030",
        },
        Expect {
            file: "other_formats/ngf/sabaki_app__test__nonSGF__ngf__pro_game_1.NGF",
            format: "ngf",
            black: "Lin.H.C",
            black_rank: "7p",
            white: "Kobayashi.",
            white_rank: "9p",
            date: "2017-03-16",
            komi: Some(6.5),
            handicap: &[],
            result: "W+R",
            first: "B[qd]W[pp]B[dc]W[cp]",
            moves: 244,
            charset: "UTF-8",
        },
    ];
    for e in &cases {
        assert!(e.file.starts_with(NGF));
        check(e);
    }
}

#[test]
fn ugf_and_ugi_files() {
    // Sabaki's test of amateur.ugf: KM -5.50 (kept as written, though Black won by 7.5), PW YINNI
    // 8d, PB kaziwami 7d, DT 2019-03-08, RE B+7.50, moves qd dd pq dq.
    check(&Expect {
        file: "other_formats/ugf_ugi/sabaki_app__test__ugf__amateur.ugf",
        format: "ugf",
        black: "kaziwami",
        black_rank: "7d",
        white: "YINNI",
        white_rank: "8d",
        date: "2019-03-08",
        komi: Some(-5.5),
        handicap: &[],
        result: "B+7.5",
        first: "B[qd]W[dd]B[pq]W[dq]",
        moves: 254,
        charset: "UTF-8",
    });
    let review = "other_formats/ugf_ugi/sabaki_app__test__ugf__review.ugi";
    check(&Expect {
        file: review,
        format: "ugf",
        black: "ken03110",
        black_rank: "2k",
        white: "apetresc",
        white_rank: "2k?",
        date: "2020-06-23",
        komi: Some(6.5),
        handicap: &[],
        result: "B+2.5",
        first: "B[qd]W[dc]B[pq]W[dp]",
        moves: 222,
        charset: "UTF-8",
    });
    // The review's variations and comments hang on the main line.
    let Some(bytes) = file(review) else { return };
    let records = Records::read(&bytes);
    let tree = records.game(0).unwrap();
    let branching = tree.nodes().filter(|n| n.children().count() > 1).count();
    assert!(branching >= 2, "{branching} branching nodes");
    let comments: Vec<String> = tree
        .nodes()
        .filter_map(|n| n.get(ids::C).map(|c| c.text().into_owned()))
        .collect();
    assert!(comments
        .iter()
        .any(|c| c.contains("I think white is ahead already?")));
    assert!(comments
        .iter()
        .any(|c| c.contains("This probably salvages")));
    // The file's node 55 (the root is its node 1: White's move 54) holds its comment, and the
    // variation listed after node 54 is the second child of node 54.
    let line: Vec<_> = tree.main_line().collect();
    assert!(line[54]
        .get(ids::C)
        .unwrap()
        .text()
        .contains("Game-losing move"));
    assert_eq!(line[53].children().count(), 2);
}

#[test]
fn kifu_line_pair() {
    let (Some(index), Some(moves)) = (
        file("kifu_line_format/tom_2003-09.index"),
        file("kifu_line_format/tom_2003-09.kifu"),
    ) else {
        return;
    };
    let pair = Records::read_kifu_pair(&index, &moves);
    assert!(pair.diagnostics().is_empty(), "{:?}", pair.diagnostics());
    let index_lines = String::from_utf8(index.clone()).unwrap();
    let index_lines: Vec<Vec<&str>> = index_lines
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| l.split('\t').collect())
        .collect();
    assert_eq!(pair.len(), index_lines.len());
    for (i, fields) in index_lines.iter().enumerate() {
        let tree = pair.game(i).unwrap();
        let info = GameInfo::read(&tree);
        // Tom's index: id, date, White, Black, komi, result, move count, time.
        assert_eq!(prop(&tree, ids::GN), fields[0]);
        assert_eq!(info.white.as_deref(), Some(fields[2]));
        assert_eq!(info.black.as_deref(), Some(fields[3]));
        assert_eq!(info.komi.as_ref().and_then(|k| k.value), Some(6.5));
        assert_eq!(main_line(&tree).len(), fields[6].parse::<usize>().unwrap());
    }
    let first = pair.game(0).unwrap();
    assert_eq!(prop(&first, ids::DT), "2003-09-25");
    assert_eq!(prop(&first, ids::RE), "B+0.5");
    assert_eq!(prop(&first, ids::PW), "忧郁的孤影");
    assert_eq!(main_line(&first)[..4].join(""), "B[nd]W[pp]B[fp]W[dd]");
    assert_eq!(prop(&pair.game(3).unwrap(), ids::RE), "B+R");
    assert_eq!(prop(&pair.game(9).unwrap(), ids::RE), "B+T");

    // Packed as one record (as folder readers do), the pair reads the same.
    let packed = sgf::pack_kifu_pair(&index, &moves);
    let again = Records::read(&packed);
    assert_eq!(again.len(), pair.len());
    assert!(again.diagnostics().is_empty(), "{:?}", again.diagnostics());
    assert_eq!(prop(&again.game(0).unwrap(), ids::PW), "忧郁的孤影");
    // A cut or garbled packing is read as what it is, never a panic.
    for cut in [1, 10, 25, packed.len() / 2] {
        let _ = Records::read(&packed[..cut]);
    }

    // Packed with named index files, their names and order travel with the moves: the first
    // that has an id gives it, and a disagreement names both files.
    let text = String::from_utf8(index.clone()).unwrap();
    let other = text.replacen("忧郁的孤影", "江城子", 1);
    let files = [
        sgf::KifuIndexFile {
            name: "tom_2003-09.index",
            bytes: &index,
        },
        sgf::KifuIndexFile {
            name: "../Kifu.index",
            bytes: other.as_bytes(),
        },
    ];
    let packed = sgf::pack_kifu_indexes(&files, &moves);
    let named = Records::read(&packed);
    assert_eq!(named.len(), pair.len());
    assert_eq!(prop(&named.game(0).unwrap(), ids::PW), "忧郁的孤影");
    let reasons: Vec<String> = named.diagnostics().iter().map(|d| d.to_string()).collect();
    assert_eq!(
        reasons,
        ["byte 0: kifu-line line 1: game 354460 is in tom_2003-09.index and in ../Kifu.index, with \
          different players: those of tom_2003-09.index are taken"]
    );
    for cut in 1..packed.len().min(200) {
        let _ = Records::read(&packed[..cut]);
    }

    // Alone, the move file gives the games without information and says so; the index alone
    // gives no game and says where they are.
    let alone = Records::read(&moves);
    assert_eq!(alone.format().name(), "kifu-line");
    assert_eq!(alone.len(), index_lines.len());
    assert!(alone.diagnostics()[0]
        .to_string()
        .contains("without its index"));
    let idx = Records::read(&index);
    assert!(idx.is_empty());
    assert!(idx.diagnostics()[0].to_string().contains("move file"));
}
