//! Colour in what qipu prints: on when standard output is a terminal that takes it, off when it
//! is piped or redirected, as `--color never|auto|always` says otherwise. In `auto`, anstream's
//! detection decides (the one clap uses for its own messages): `NO_COLOR` set and not empty turns
//! colour off, `CLICOLOR_FORCE` on, `TERM=dumb` off. The choice is made once, before anything is
//! printed; the styles are painted into the text, so every table and diagram is built the same
//! way with colour or without.

use std::sync::atomic::{AtomicBool, Ordering};

use anstyle::{AnsiColor, Style};

/// `--color`: when to colour the output.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum When {
    /// Never.
    Never,
    /// When standard output is a terminal and `NO_COLOR` is not set (the default).
    #[default]
    Auto,
    /// Always, piped or not.
    Always,
}

static ON: AtomicBool = AtomicBool::new(false);

/// Decides, once, whether this run colours its output.
pub fn init(when: When) {
    let on = match when {
        When::Never => false,
        When::Always => true,
        When::Auto => {
            anstream::AutoStream::choice(&std::io::stdout()) != anstream::ColorChoice::Never
        }
    };
    ON.store(on, Ordering::Relaxed);
}

/// Column headers and a report's first line.
pub const HEADER: Style = Style::new().bold();
/// Black stones on a diagram.
pub const BLACK: Style = Style::new()
    .fg_color(Some(anstyle::Color::Ansi(AnsiColor::BrightBlue)))
    .bold();
/// White stones on a diagram.
pub const WHITE: Style = Style::new()
    .fg_color(Some(anstyle::Color::Ansi(AnsiColor::BrightWhite)))
    .bold();
/// Continuation letters on a diagram and in the table.
pub const LABEL: Style = Style::new()
    .fg_color(Some(anstyle::Color::Ansi(AnsiColor::Yellow)))
    .bold();
/// The winner's name in a hit list.
pub const WINNER: Style = Style::new()
    .fg_color(Some(anstyle::Color::Ansi(AnsiColor::Green)))
    .bold();
/// Board coordinates and other text that only helps to read the rest.
pub const DIM: Style = Style::new().dimmed();

/// `text` in `style` when colour is on; `text` as it is otherwise.
pub fn paint(style: Style, text: &str) -> String {
    if ON.load(Ordering::Relaxed) && style != Style::new() {
        format!("{}{text}{}", style.render(), style.render_reset())
    } else {
        text.to_string()
    }
}
