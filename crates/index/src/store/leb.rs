//! LEB128 numbers (7 bits a byte, low first, the high bit saying that more follow): the
//! variable-length lists of the corner table and of the vacated points, the variation lines
//! and the pre-aggregated cells.

/// Appends a number in LEB128 (7 bits a byte, low first, the high bit saying that more follow).
pub(crate) fn push_leb(v: u32, out: &mut Vec<u8>) {
    push_leb64(u64::from(v), out);
}

/// [`push_leb`] for a 64-bit number (the rank sums of the pre-aggregated cells).
pub(crate) fn push_leb64(mut v: u64, out: &mut Vec<u8>) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// The LEB128 number at `*at`, moving past it; `None` when it runs past the bytes or over 32
/// bits.
#[inline]
pub(crate) fn read_leb(bytes: &[u8], at: &mut usize) -> Option<u32> {
    read_bits(bytes, at, 32).map(|v| v as u32)
}

/// [`read_leb`] for a 64-bit number.
pub(crate) fn read_leb64(bytes: &[u8], at: &mut usize) -> Option<u64> {
    read_bits(bytes, at, 64)
}

/// The LEB128 number at `*at` if it fits in `bits` (32 or 64) bits, moving past it.
#[inline]
fn read_bits(bytes: &[u8], at: &mut usize, bits: u32) -> Option<u64> {
    let mut v: u64 = 0;
    let mut shift = 0;
    loop {
        let b = *bytes.get(*at)?;
        *at += 1;
        let part = u64::from(b & 0x7f);
        // The bits of this byte that the number's width has no room for.
        if bits - shift < 7 && part >> (bits - shift) != 0 {
            return None;
        }
        v |= part << shift;
        if b & 0x80 == 0 {
            return Some(v);
        }
        shift += 7;
        if shift >= bits {
            return None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_back_and_too_wide_ones_are_refused() {
        let mut out = Vec::new();
        let small = [0u32, 1, 127, 128, 16_383, 16_384, u32::MAX];
        small.iter().for_each(|&v| push_leb(v, &mut out));
        let wide = [u64::from(u32::MAX) + 1, u64::MAX];
        wide.iter().for_each(|&v| push_leb64(v, &mut out));
        let at = &mut 0;
        for v in small {
            assert_eq!(read_leb(&out, at), Some(v));
        }
        let rest = *at;
        for v in wide {
            assert_eq!(read_leb64(&out, at), Some(v));
        }
        assert_eq!(*at, out.len());
        // A 64-bit number is too wide for `read_leb`, and a byte past 64 bits for `read_leb64`.
        assert_eq!(read_leb(&out, &mut rest.clone()), None);
        let mut over = vec![0xff; 9];
        over.push(0x02);
        assert_eq!(read_leb64(&over, &mut 0), None);
        over[9] = 0x01;
        assert_eq!(read_leb64(&over, &mut 0), Some(u64::MAX));
        // Cut short.
        assert_eq!(read_leb(&[0x80], &mut 0), None);
    }
}
