//! `qipu help-markdown` (hidden): every command's options as Markdown tables, read from the same
//! clap definitions `--help` prints, so that the guide's option reference (`docs/options.md`)
//! is never written by hand. A test compares that page with this output and fails when they
//! differ (`QIPU_BLESS=1` rewrites the page).

use std::fmt::Write;

use clap::{Arg, Command};

/// The reference of `root`'s commands (hidden ones left out), in the order `--help` lists
/// them, as one Markdown page.
pub fn markdown(root: &Command) -> String {
    let mut out = String::new();
    out.push_str(
        "# Options\n\n\
         Every option of every command, with its default. Generated from the command line's own \
         help (`qipu help-markdown`); a test keeps this page equal to it, so edit the help texts \
         in `crates/cli/src`, not this page. What the options do together: \
         [commands.md](commands.md).\n",
    );
    let global: Vec<&Arg> = root
        .get_arguments()
        .filter(|a| a.is_global_set() && !a.is_hide_set())
        .collect();
    if !global.is_empty() {
        out.push_str("\n## Every command\n\n");
        table(&mut out, global);
    }
    for cmd in root.get_subcommands().filter(|c| !c.is_hide_set()) {
        let _ = write!(out, "\n## `qipu {}`\n\n", cmd.get_name());
        if let Some(about) = cmd.get_about() {
            let _ = writeln!(out, "{}\n", sentence(&about.to_string()));
        }
        let args: Vec<&Arg> = cmd
            .get_arguments()
            .filter(|a| !a.is_hide_set() && !matches!(a.get_id().as_str(), "help" | "version"))
            .collect();
        table(&mut out, args);
    }
    out
}

/// A table of `args`: how each is written, and its help with its default, its choices and the
/// variable it is read from.
fn table(out: &mut String, args: Vec<&Arg>) {
    out.push_str("| option | what it does |\n| --- | --- |\n");
    for arg in args {
        let _ = writeln!(out, "| {} | {} |", cell(&usage(arg)), cell(&what(arg)));
    }
}

/// How an argument is written: `--name VALUE` (with its short form), or a positional's name.
fn usage(arg: &Arg) -> String {
    let value = arg
        .get_value_names()
        .map(|names| {
            names
                .iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_else(|| arg.get_id().as_str().to_uppercase());
    let takes_value = arg.get_action().takes_values();
    let many = arg.get_num_args().is_some_and(|n| n.max_values() > 1);
    let dots = if many { "…" } else { "" };
    match arg.get_long() {
        Some(long) => {
            let mut s = String::new();
            if let Some(short) = arg.get_short() {
                let _ = write!(s, "-{short}, ");
            }
            let _ = write!(s, "--{long}");
            if takes_value {
                let _ = write!(s, " {value}{dots}");
            }
            format!("`{s}`")
        }
        None => format!("`{value}{dots}`"),
    }
}

/// An argument's help (the long one when it has one), then its default, choices and variable.
fn what(arg: &Arg) -> String {
    let mut s = arg
        .get_long_help()
        .or(arg.get_help())
        .map(|h| sentence(&h.to_string()))
        .unwrap_or_default();
    let choices: Vec<String> = arg
        .get_possible_values()
        .iter()
        .filter(|v| !v.is_hide_set())
        .map(|v| format!("`{}`", v.get_name()))
        .collect();
    if !choices.is_empty() && arg.get_action().takes_values() {
        let _ = write!(s, " One of {}.", choices.join(", "));
    }
    let defaults: Vec<String> = arg
        .get_default_values()
        .iter()
        .map(|v| v.to_string_lossy().into_owned())
        .collect();
    if !defaults.is_empty() && arg.get_action().takes_values() {
        let _ = write!(s, " Default: `{}`.", defaults.join(","));
    }
    if let Some(env) = arg.get_env() {
        let _ = write!(s, " Read from `{}` when not given.", env.to_string_lossy());
    }
    s.trim().to_string()
}

/// A help text as one line: its lines joined, blank lines as one space.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A help text as one line ending in a full stop (clap drops a one-line help's own).
fn sentence(text: &str) -> String {
    let mut s = one_line(text);
    if !s.is_empty() && !s.ends_with(['.', '!', '?']) {
        s.push('.');
    }
    s
}

/// Text fit for a Markdown table cell: a `|` escaped.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}
