//! Reading a whole input (a file or standard input) with a size limit, so
//! that `pfir opt /dev/zero` stops with an error instead of filling memory.

use std::io::Read;
use std::path::Path;

/// The largest input pfir reads: 1 GiB. Spans are byte offsets that may
/// become `u32` one day, so the limit stays well under 4 GiB; a real
/// `.pfir` file is many orders of magnitude smaller.
pub const MAX_INPUT_BYTES: u64 = 1 << 30;

/// Why an input could not be read.
#[derive(Debug)]
pub enum ReadError {
    /// An I/O error, already phrased for the user.
    Io(String),
    /// The input has more than `limit` bytes.
    TooLarge { name: String, limit: u64 },
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Io(message) => f.write_str(message),
            ReadError::TooLarge { name, limit } => write!(
                f,
                "{name} is larger than the input size limit of {}",
                describe_size(*limit)
            ),
        }
    }
}

/// `1 GiB (1073741824 bytes)`, `100 bytes`.
pub fn describe_size(bytes: u64) -> String {
    const UNITS: [(u64, &str); 3] = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")];
    for (unit, name) in UNITS {
        if bytes >= unit && bytes.is_multiple_of(unit) {
            return format!("{} {name} ({bytes} bytes)", bytes / unit);
        }
    }
    format!("{bytes} bytes")
}

/// Reads `path` (`None` or `-`: standard input) whole, refusing more than
/// `limit` bytes. Returns the name to show for it and its bytes. A regular
/// file is measured before it is read; a stream (stdin, `/dev/zero`) is
/// read up to one byte past the limit.
pub fn read_limited(path: Option<&Path>, limit: u64) -> Result<(String, Vec<u8>), ReadError> {
    match path {
        Some(p) if p.as_os_str() != "-" => {
            let name = format!("'{}'", p.display());
            let io = |e: std::io::Error| ReadError::Io(format!("cannot read {name}: {e}"));
            let file = std::fs::File::open(p).map_err(io)?;
            let meta = file.metadata().map_err(io)?;
            if meta.is_dir() {
                return Err(ReadError::Io(format!(
                    "cannot read {name}: it is a directory"
                )));
            }
            if meta.is_file() && meta.len() > limit {
                return Err(ReadError::TooLarge { name, limit });
            }
            let bytes = read_up_to(file, limit, meta.is_file().then_some(meta.len()))
                .map_err(io)?
                .ok_or(ReadError::TooLarge {
                    name: name.clone(),
                    limit,
                })?;
            Ok((p.display().to_string(), bytes))
        }
        _ => {
            let name = "standard input".to_string();
            let bytes = read_up_to(crate::io::stdio::stdin(), limit, None)
                .map_err(|e| ReadError::Io(format!("cannot read {name}: {e}")))?
                .ok_or(ReadError::TooLarge { name, limit })?;
            Ok(("<stdin>".to_string(), bytes))
        }
    }
}

/// The bytes read between two cancellation checkpoints: 1 MiB.
const READ_PIECE: u64 = 1 << 20;

/// Reads `reader` to its end; `None` when it holds more than `limit` bytes.
fn read_up_to(
    reader: impl Read,
    limit: u64,
    hint: Option<u64>,
) -> std::io::Result<Option<Vec<u8>>> {
    let capacity = hint.unwrap_or(0).min(limit).min(usize::MAX as u64) as usize;
    let mut bytes = Vec::with_capacity(capacity);
    // In pieces, so that a cancelled run stops between two of them.
    let mut reader = reader.take(limit.saturating_add(1));
    loop {
        fsutil::cancel::checkpoint();
        let read = (&mut reader).take(READ_PIECE).read_to_end(&mut bytes)?;
        if read == 0 {
            break;
        }
    }
    Ok((bytes.len() as u64 <= limit).then_some(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_stop_one_byte_past_the_limit() {
        // /dev/zero never ends: the read stops at the limit.
        match read_limited(Some(Path::new("/dev/zero")), 4096) {
            Err(ReadError::TooLarge { limit, .. }) => assert_eq!(limit, 4096),
            other => panic!("expected TooLarge, got {other:?}"),
        }
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f");
        std::fs::write(&p, [b'a'; 100]).unwrap();
        assert_eq!(read_limited(Some(&p), 100).unwrap().1.len(), 100);
        let e = read_limited(Some(&p), 99).unwrap_err();
        assert!(
            e.to_string()
                .contains("larger than the input size limit of 99 bytes"),
            "{e}"
        );
        assert!(matches!(
            read_limited(Some(dir.path()), 100),
            Err(ReadError::Io(_))
        ));
    }

    #[test]
    fn large_regular_files_are_refused_before_reading() {
        // A sparse file far over the limit costs nothing to create.
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("huge");
        std::fs::File::create(&p)
            .unwrap()
            .set_len(MAX_INPUT_BYTES + 1)
            .unwrap();
        let e = read_limited(Some(&p), MAX_INPUT_BYTES).unwrap_err();
        assert!(
            e.to_string()
                .ends_with("larger than the input size limit of 1 GiB (1073741824 bytes)"),
            "{e}"
        );
    }
}
