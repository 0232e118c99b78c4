//! "Did you mean ...?" suggestions for misspelt names.

/// The candidate closest to `name`, when it is close enough to be a typo.
pub fn closest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).max(1);
    candidates
        .filter(|c| *c != name && c.len().abs_diff(name.len()) <= limit)
        .map(|c| (strsim::levenshtein(name, c), c))
        .filter(|(d, _)| *d <= limit)
        .min()
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_names_only() {
        let names = ["tids", "tids_next", "kernel"];
        assert_eq!(closest("tid", names.iter().copied()), Some("tids"));
        assert_eq!(closest("kernl", names.iter().copied()), Some("kernel"));
        assert_eq!(closest("zzz", names.iter().copied()), None);
    }
}
