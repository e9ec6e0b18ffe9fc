//! Decoding zstd streams (concatenated frames, the datasets' large window) into one buffer, within
//! the record limit, keeping what decoded before any damage.

use std::io::{self, BufRead, BufReader, Read};

use crate::limits::{too_large, ZSTD_WINDOW_LOG_MAX};

/// Decompresses a zstd stream (frames concatenated), accepting the datasets' large window.
///
/// The first frame's header usually says how large it is decompressed: the output is sized from
/// it, instead of growing by doubling (copying each time, and touching fresh memory twice). The
/// decoder writes straight into the output's spare capacity: through `Read::read_to_end`, each
/// stretch of it was zero-filled first, a visible part of a build's profile with the page
/// faults it caused (BENCHMARKS.md, Indexing: zstd inputs decoded into spare capacity).
/// On an error, what decoded before it is returned with the error.
pub(crate) fn decode_zstd<R: Read>(reader: R, max: u64) -> (Vec<u8>, Option<io::Error>) {
    use zstd::zstd_safe::{DCtx, DParameter, InBuffer, OutBuffer};
    let mut reader = BufReader::with_capacity(DCtx::in_size(), reader);
    let size_hint = match reader.fill_buf() {
        Ok(head) => zstd::zstd_safe::get_frame_content_size(head)
            .ok()
            .flatten()
            .unwrap_or(0),
        Err(err) => return (Vec::new(), Some(err)),
    };
    let mut dctx = DCtx::create();
    if let Err(code) = dctx.set_parameter(DParameter::WindowLogMax(ZSTD_WINDOW_LOG_MAX)) {
        return (Vec::new(), Some(zstd_error(code)));
    }
    // The hint comes from a header: trust it only for a modest preallocation.
    let mut out: Vec<u8> = Vec::with_capacity(size_hint.min(64 << 20) as usize);
    // A frame has begun and not ended.
    let mut in_frame = false;
    loop {
        let input = match reader.fill_buf() {
            Ok(input) => input,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) => return (out, Some(err)),
        };
        if input.is_empty() {
            break;
        }
        let mut source = InBuffer::around(input);
        loop {
            if out.len() == out.capacity() {
                // Grown by doubling, but never past the limit: a few kilobytes of zstd can
                // stand for any amount of output.
                let limit = max as usize + 1;
                if out.len() >= limit {
                    return (Vec::new(), Some(too_large(max)));
                }
                out.reserve_exact(out.capacity().max(1 << 16).min(limit - out.len()));
            }
            let filled = out.len();
            let mut sink = OutBuffer::around_pos(&mut out, filled);
            match dctx.decompress_stream(&mut sink, &mut source) {
                Ok(hint) => in_frame = hint != 0,
                Err(code) => return (out, Some(zstd_error(code))),
            }
            // All input taken, and the frame ended or room left over: the decoder holds
            // nothing back. (Called again after a frame's end, it would await the next one.)
            if source.pos() == input.len() && (!in_frame || out.len() < out.capacity()) {
                break;
            }
        }
        let used = source.pos();
        reader.consume(used);
    }
    if in_frame {
        return (
            out,
            Some(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "incomplete zstd frame",
            )),
        );
    }
    if out.len() as u64 > max {
        return (Vec::new(), Some(too_large(max)));
    }
    (out, None)
}

/// A zstd error code as an I/O error, with zstd's own words.
fn zstd_error(code: usize) -> io::Error {
    io::Error::other(zstd::zstd_safe::get_error_name(code))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::MAX_RECORD_BYTES;

    #[test]
    fn zstd_frames_decode_whole_or_up_to_the_damage() {
        let text = |n: usize| -> Vec<u8> { (0..n).map(|i| b"(;B[pd];W[dp])\n"[i % 15]).collect() };
        let (a, b) = (text(300_000), text(70_001));
        // Two frames: the first declares its size (the output is sized to it), then grows.
        let mut two = zstd::bulk::compress(&a, 3).unwrap();
        two.extend(zstd::bulk::compress(&b, 3).unwrap());
        let (got, err) = decode_zstd(&two[..], MAX_RECORD_BYTES);
        assert!(err.is_none(), "{err:?}");
        assert_eq!(got, [a.clone(), b].concat());
        // Without declared sizes, through the streaming encoder.
        let streamed = zstd::stream::encode_all(&a[..], 1).unwrap();
        let (got, err) = decode_zstd(&streamed[..], MAX_RECORD_BYTES);
        assert!(err.is_none(), "{err:?}");
        assert_eq!(got, a);
        // Cut: a prefix of the text, with an error.
        let (got, err) = decode_zstd(&two[..two.len() / 3], MAX_RECORD_BYTES);
        assert!(err.is_some());
        assert!(a.starts_with(&got));
        // Garbage and nothing.
        assert!(decode_zstd(&b"not zstd at all"[..], MAX_RECORD_BYTES)
            .1
            .is_some());
        let (got, err) = decode_zstd(&b""[..], MAX_RECORD_BYTES);
        assert!(got.is_empty() && err.is_none());
    }

    #[test]
    fn a_zstd_stream_past_the_record_limit_is_refused_without_panic() {
        // A few hundred kilobytes that stand for just over MAX_RECORD_BYTES of zeros, with and
        // without the size in the frame header (1 GiB of memory, briefly).
        let size = MAX_RECORD_BYTES + 1;
        for declared in [false, true] {
            let mut encoder = zstd::stream::Encoder::new(Vec::new(), 1).unwrap();
            if declared {
                encoder.set_pledged_src_size(Some(size)).unwrap();
            }
            io::copy(&mut io::repeat(0).take(size), &mut encoder).unwrap();
            let bomb = encoder.finish().unwrap();
            let (got, err) = decode_zstd(&bomb[..], MAX_RECORD_BYTES);
            assert!(got.is_empty(), "declared {declared}");
            let err = err.expect("an error");
            assert!(err.to_string().contains("larger than"), "{err}");
        }
    }
}
