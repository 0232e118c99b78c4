use super::format_text;

fn fmt(src: &str) -> String {
    format_text(src).unwrap_or_else(|d| panic!("{src}: {d:?}"))
}
