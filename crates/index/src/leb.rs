//! LEB128 numbers (7 bits a byte, low first, the high bit saying that more follow): the
//! variable-length lists of the corner table and of the vacated points.

/// Appends a number in LEB128 (7 bits a byte, low first, the high bit saying that more follow).
pub(crate) fn push_leb(mut v: u32, out: &mut Vec<u8>) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// The LEB128 number at `*at`, moving past it; `None` when it runs past the bytes or over 32
/// bits.
pub(crate) fn read_leb(bytes: &[u8], at: &mut usize) -> Option<u32> {
    let mut v: u64 = 0;
    let mut shift = 0;
    loop {
        let b = *bytes.get(*at)?;
        *at += 1;
        v |= u64::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            return u32::try_from(v).ok();
        }
        shift += 7;
        if shift > 28 {
            return None;
        }
    }
}
