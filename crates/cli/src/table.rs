//! Tables in columns measured in display width: a Chinese, Japanese or Korean character takes
//! two columns of a terminal, so counting characters (or bytes) would push every column after
//! such a name out of line. Widths come from `unicode-width` (Unicode's East Asian Width); a
//! column is as wide as its widest cell, so nothing is cut to fit.

use std::fmt::Write as _;

use anstyle::Style;
use unicode_width::UnicodeWidthStr;

use crate::color::{self, HEADER};

/// How many terminal columns `s` takes.
pub fn width(s: &str) -> usize {
    UnicodeWidthStr::width(s)
}

/// One cell: its text and how it is painted when colour is on.
pub struct Cell {
    text: String,
    style: Style,
}

impl Cell {
    /// A cell painted in `style`.
    pub fn styled(text: impl Into<String>, style: Style) -> Cell {
        Cell {
            text: visible(text.into()),
            style,
        }
    }
}

impl From<String> for Cell {
    fn from(text: String) -> Cell {
        Cell::styled(text, Style::new())
    }
}

impl From<&str> for Cell {
    fn from(text: &str) -> Cell {
        Cell::styled(text, Style::new())
    }
}

/// A name from a record may hold a tab or a line break, which would break the table's lines,
/// or a terminal's escape sequence (`ESC[2J` clears the screen): such characters are shown as
/// escapes (`\t`, `\u{1b}`), which have a width. Every text from a record or a file name that
/// the human output prints goes through here; JSON keeps it exact.
pub fn visible(text: String) -> String {
    if !text.chars().any(char::is_control) {
        return text;
    }
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

enum Line {
    Row(Vec<Cell>),
    /// A line under the previous row, outside the columns (a diagnostic).
    Note(String),
}

/// A table: a header row, rows, and notes between them.
pub struct Table {
    head: Vec<(&'static str, bool)>,
    lines: Vec<Line>,
}

impl Table {
    /// A table with these columns: `(header, right-aligned)`.
    pub fn new(head: &[(&'static str, bool)]) -> Table {
        Table {
            head: head.to_vec(),
            lines: Vec::new(),
        }
    }

    /// Adds a row (missing cells are empty, extra ones ignored).
    pub fn row(&mut self, cells: Vec<Cell>) {
        self.lines.push(Line::Row(cells));
    }

    /// Adds a line outside the columns, under the last row.
    pub fn note(&mut self, text: String) {
        self.lines.push(Line::Note(text));
    }

    /// The table as text, each line starting with `indent`; cells two spaces apart, no space
    /// after the last.
    pub fn render(&self, indent: &str) -> String {
        let mut widths: Vec<usize> = self.head.iter().map(|(h, _)| width(h)).collect();
        for line in &self.lines {
            if let Line::Row(cells) = line {
                for (w, c) in widths.iter_mut().zip(cells) {
                    *w = (*w).max(width(&c.text));
                }
            }
        }
        let mut s = String::new();
        let head: Vec<Cell> = self
            .head
            .iter()
            .map(|(h, _)| Cell::styled(*h, HEADER))
            .collect();
        self.write_row(&mut s, indent, &widths, &head);
        for line in &self.lines {
            match line {
                Line::Row(cells) => self.write_row(&mut s, indent, &widths, cells),
                Line::Note(text) => {
                    let _ = writeln!(s, "{indent}{text}");
                }
            }
        }
        s
    }

    fn write_row(&self, s: &mut String, indent: &str, widths: &[usize], cells: &[Cell]) {
        let mut line = String::from(indent);
        let empty = Cell::from("");
        let last = widths.len().saturating_sub(1);
        for (i, (&w, &(_, right))) in widths.iter().zip(&self.head).enumerate() {
            let cell = cells.get(i).unwrap_or(&empty);
            let pad = " ".repeat(w - width(&cell.text));
            let text = color::paint(cell.style, &cell.text);
            if i > 0 {
                line.push_str("  ");
            }
            if right {
                line.push_str(&pad);
                line.push_str(&text);
            } else {
                line.push_str(&text);
                if i < last {
                    line.push_str(&pad);
                }
            }
        }
        let _ = writeln!(s, "{}", line.trim_end());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_line_up_in_display_width() {
        let mut t = Table::new(&[("black", false), ("n", true), ("white", false)]);
        t.row(vec!["李世石".into(), "1".into(), "AlphaGo".into()]);
        t.row(vec!["Lee Sedol".into(), "12".into(), "이세돌".into()]);
        t.note("! a note".into());
        let text = t.render("  ");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "  black       n  white");
        assert_eq!(lines[1], "  李世石      1  AlphaGo");
        assert_eq!(lines[2], "  Lee Sedol  12  이세돌");
        assert_eq!(lines[3], "  ! a note");
        // Every white column starts at the same display column.
        let at = |l: &str| width(&l[..l.find(['A', '이', 'w']).unwrap()]);
        assert_eq!(at(lines[0]), at(lines[1]));
        assert_eq!(at(lines[1]), at(lines[2]));
    }

    #[test]
    fn control_characters_are_shown_not_obeyed() {
        let mut t = Table::new(&[("a", false), ("b", false)]);
        t.row(vec!["x\ty".into(), "z".into()]);
        assert_eq!(t.render("").lines().nth(1), Some("x\\ty  z"));
    }
}
