//! The `//PARAM:` lines of the annotated corpus (documented at the top of `tests/corpus.rs`):
//! which modes and domains a program is analysed in, its clang arguments and its harness.

use watts::config::HarnessSpec;
use watts::{DomainKind, Mode};

/// The domains, weakest first.
pub const DOMAINS: [DomainKind; 2] = [DomainKind::Interval, DomainKind::Octagon];

pub fn parse_mode(s: &str) -> Option<Mode> {
    Mode::ALL.into_iter().find(|m| m.name() == s)
}

pub fn parse_domain(s: &str) -> Option<DomainKind> {
    DOMAINS.into_iter().find(|d| d.name() == s)
}

/// What the `//PARAM:` lines of one file ask for.
#[derive(Debug, Default)]
pub struct Params {
    /// The modes to analyse in, weakest first (every mode when no line names one).
    pub modes: Vec<Mode>,
    /// The domains, weakest first (both when no line names one).
    pub domains: Vec<DomainKind>,
    pub clang_args: Vec<String>,
    /// The driver harness (`--init`, `--entry`, `--entries-from`, `--entries-exported`).
    pub harness: HarnessSpec,
    /// `--assume-no-write` functions.
    pub assume_no_write: Vec<String>,
}

impl Params {
    /// Adds the words of one `//PARAM:` line (`rest`, after the prefix); a mistake becomes an
    /// error naming line `lineno`.
    pub fn read(&mut self, rest: &str, lineno: u32, errors: &mut Vec<String>) {
        let mut words = rest.split_whitespace();
        while let Some(w) = words.next() {
            match w {
                "--" => self.clang_args.extend(words.by_ref().map(String::from)),
                "--mode" => match words.next().and_then(parse_mode) {
                    Some(m) => self.modes.push(m),
                    None => errors.push(format!("{lineno}: //PARAM: --mode needs a mode")),
                },
                "--domain" => match words.next().and_then(parse_domain) {
                    Some(d) => self.domains.push(d),
                    None => errors.push(format!("{lineno}: //PARAM: --domain needs a domain")),
                },
                "--init" => self.harness.init = words.next().map(String::from),
                "--entry" => match words.next().map(str::parse) {
                    Some(Ok(e)) => self.harness.entries.push(e),
                    _ => errors.push(format!("{lineno}: //PARAM: --entry needs FN[:N|*]")),
                },
                "--entries-from" => match words.next().map(watts::config::parse_table) {
                    Some(Ok(e)) => self.harness.tables.push(e),
                    _ => errors.push(format!(
                        "{lineno}: //PARAM: --entries-from needs TABLE[:N|*]"
                    )),
                },
                "--entries-exported" => self.harness.exported = true,
                "--assume-no-write" => self.assume_no_write.extend(words.next().map(String::from)),
                other => errors.push(format!("{lineno}: unknown //PARAM: option `{other}`")),
            }
        }
    }

    /// Every mode and domain when none was named; both lists in order, without repeats.
    pub fn finish(&mut self) {
        if self.modes.is_empty() {
            self.modes = Mode::ALL.to_vec();
        }
        if self.domains.is_empty() {
            self.domains = DOMAINS.to_vec();
        }
        self.modes
            .sort_by_key(|m| Mode::ALL.iter().position(|x| x == m));
        self.modes.dedup();
        self.domains
            .sort_by_key(|d| DOMAINS.iter().position(|x| x == d));
        self.domains.dedup();
    }

    /// The parameters of a whole file.
    pub fn of_file(text: &str) -> Result<Params, Vec<String>> {
        let mut params = Params::default();
        let mut errors = Vec::new();
        for (i, line) in text.lines().enumerate() {
            if let Some(rest) = line.trim_start().strip_prefix("//PARAM:") {
                params.read(rest, i as u32 + 1, &mut errors);
            }
        }
        params.finish();
        if errors.is_empty() {
            Ok(params)
        } else {
            Err(errors)
        }
    }
}
