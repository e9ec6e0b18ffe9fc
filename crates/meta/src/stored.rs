//! A check of a stored document's bytes before tantivy decodes them.
//!
//! tantivy trusts its document store: a string's length is read from the file and that much
//! memory reserved before the string is read, so one damaged length byte asks for terabytes and
//! the allocation failure aborts the process (no panic to catch). The bytes of one document are
//! at hand before that (`StoreReader::get_document_bytes`), so each length is compared with what
//! is left of them first. Only the value kinds qipu's schema stores are accepted (text, u64, i64,
//! f64, dates, bools, bytes): anything else in a qipu index is damage too.
//!
//! The layout walked here is tantivy's binary document format (a count of field values, then
//! per value a 4-byte field id, a type code and the value), as its `schema::document::se`
//! writes it.

/// Reads a VInt (7 bits a byte, low bits first, the last byte marked by its high bit).
fn vint(bytes: &mut &[u8]) -> Option<u64> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let (&b, rest) = bytes.split_first()?;
        *bytes = rest;
        v |= u64::from(b & 0x7f) << shift;
        if b & 0x80 != 0 {
            return Some(v);
        }
    }
    None
}

fn skip(bytes: &mut &[u8], n: u64) -> Option<()> {
    let n = usize::try_from(n).ok()?;
    *bytes = bytes.get(n..)?;
    Some(())
}

/// Whether `doc` is a well-formed document of the kinds qipu stores, every length within it.
pub(crate) fn plausible(mut doc: &[u8]) -> bool {
    let walk = |bytes: &mut &[u8]| -> Option<()> {
        let values = vint(bytes)?;
        for _ in 0..values {
            skip(bytes, 4)?; // field
            let (&code, rest) = bytes.split_first()?;
            *bytes = rest;
            match code {
                // text, bytes: a length, then that many bytes
                0 | 4 => {
                    let n = vint(bytes)?;
                    skip(bytes, n)?;
                }
                // u64, i64, date, f64
                1 | 2 | 5 | 6 => skip(bytes, 8)?,
                // bool
                9 => skip(bytes, 1)?,
                // null
                11 => {}
                _ => return None,
            }
        }
        Some(())
    };
    walk(&mut doc).is_some() && doc.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_past_the_end_are_refused() {
        // Two values: text "ab" in field 1, u64 7 in field 2.
        let mut doc = vec![0x82];
        doc.extend([1, 0, 0, 0, 0, 0x82, b'a', b'b']);
        doc.extend([2, 0, 0, 0, 1]);
        doc.extend(7u64.to_le_bytes());
        assert!(plausible(&doc));
        let mut long = doc.clone();
        long[6] = 0x7f; // a length of 127 + more bytes: past the end
        assert!(!plausible(&long));
        assert!(!plausible(&doc[..doc.len() - 1]));
        let mut unknown = doc.clone();
        unknown[5] = 13;
        assert!(!plausible(&unknown));
        assert!(!plausible(&[]));
    }
}
