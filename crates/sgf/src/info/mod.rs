//! Game information, normalised: results, dates, ranks and numbers, each kept beside its raw text.
