//! A small, explicit binary codec for everything tutti puts in its log or on the wire.
//!
//! Little-endian fixed-width integers, u32-length-prefixed byte strings. Decoding never
//! panics and never trusts a length field beyond the bytes actually present, so damaged
//! or hostile input yields a [`WsrepError`], not a crash or a huge allocation.

use crate::WsrepError;

/// Appends encoded fields to a byte vector.
#[derive(Default, Debug)]
pub struct Encoder {
    buf: Vec<u8>,
}

impl Encoder {
    /// An encoder with room for `n` bytes.
    pub fn with_capacity(n: usize) -> Self {
        Encoder {
            buf: Vec::with_capacity(n),
        }
    }
    /// Appends one byte.
    pub fn u8(&mut self, v: u8) -> &mut Self {
        self.buf.push(v);
        self
    }
    /// Appends a little-endian u32.
    pub fn u32(&mut self, v: u32) -> &mut Self {
        self.buf.extend_from_slice(&v.to_le_bytes());
        self
    }
    /// Appends a little-endian u64.
    pub fn u64(&mut self, v: u64) -> &mut Self {
        self.buf.extend_from_slice(&v.to_le_bytes());
        self
    }
    /// Appends a little-endian i64.
    pub fn i64(&mut self, v: i64) -> &mut Self {
        self.buf.extend_from_slice(&v.to_le_bytes());
        self
    }
    /// Appends a u32 length and the bytes.
    pub fn bytes(&mut self, v: &[u8]) -> &mut Self {
        self.u32(v.len() as u32);
        self.buf.extend_from_slice(v);
        self
    }
    /// Appends a string as length-prefixed UTF-8.
    pub fn str(&mut self, v: &str) -> &mut Self {
        self.bytes(v.as_bytes())
    }
    /// Appends a u32 count followed by each u64.
    pub fn u64s(&mut self, v: &[u64]) -> &mut Self {
        self.u32(v.len() as u32);
        for x in v {
            self.u64(*x);
        }
        self
    }
    /// Appends a u32 count followed by each string.
    pub fn strs(&mut self, v: &[String]) -> &mut Self {
        self.u32(v.len() as u32);
        for s in v {
            self.str(s);
        }
        self
    }
    /// The bytes written so far.
    pub fn finish(self) -> Vec<u8> {
        self.buf
    }
}

/// Reads fields back from a byte slice, checking every length.
#[derive(Debug)]
pub struct Decoder<'a> {
    buf: &'a [u8],
    what: &'static str,
}

impl<'a> Decoder<'a> {
    /// A decoder over `buf`; `what` names the structure in error messages.
    pub fn new(buf: &'a [u8], what: &'static str) -> Self {
        Decoder { buf, what }
    }
    fn take(&mut self, n: usize) -> Result<&'a [u8], WsrepError> {
        if self.buf.len() < n {
            return Err(WsrepError::Truncated(self.what));
        }
        let (head, tail) = self.buf.split_at(n);
        self.buf = tail;
        Ok(head)
    }
    /// Reads one byte.
    pub fn u8(&mut self) -> Result<u8, WsrepError> {
        Ok(self.take(1)?[0])
    }
    /// Reads a little-endian u32.
    pub fn u32(&mut self) -> Result<u32, WsrepError> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }
    /// Reads a little-endian u64.
    pub fn u64(&mut self) -> Result<u64, WsrepError> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }
    /// Reads a little-endian i64.
    pub fn i64(&mut self) -> Result<i64, WsrepError> {
        Ok(i64::from_le_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }
    /// Reads a length-prefixed byte string.
    pub fn bytes(&mut self) -> Result<&'a [u8], WsrepError> {
        let n = self.u32()? as usize;
        self.take(n)
    }
    /// Reads a length-prefixed UTF-8 string.
    pub fn str(&mut self) -> Result<String, WsrepError> {
        let b = self.bytes()?;
        String::from_utf8(b.to_vec()).map_err(|_| WsrepError::Utf8(self.what))
    }
    /// Reads a counted list of u64 (the count is checked against the bytes left).
    pub fn u64s(&mut self) -> Result<Vec<u64>, WsrepError> {
        let n = self.u32()? as usize;
        if n.saturating_mul(8) > self.buf.len() {
            return Err(WsrepError::Truncated(self.what));
        }
        (0..n).map(|_| self.u64()).collect()
    }
    /// Reads a counted list of strings.
    pub fn strs(&mut self) -> Result<Vec<String>, WsrepError> {
        let n = self.u32()? as usize;
        if n.saturating_mul(4) > self.buf.len() {
            return Err(WsrepError::Truncated(self.what));
        }
        (0..n).map(|_| self.str()).collect()
    }
    /// Bytes not read yet.
    pub fn remaining(&self) -> usize {
        self.buf.len()
    }
    /// Fails unless every byte was consumed.
    pub fn finish(self) -> Result<(), WsrepError> {
        if self.buf.is_empty() {
            Ok(())
        } else {
            Err(WsrepError::Invalid {
                what: "trailing bytes",
                value: self.buf.len() as u64,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_truncation() {
        let mut e = Encoder::default();
        e.u8(7)
            .u32(9)
            .u64(u64::MAX)
            .i64(-5)
            .str("héllo")
            .u64s(&[1, 2])
            .strs(&["a".into()]);
        let b = e.finish();
        let mut d = Decoder::new(&b, "test");
        assert_eq!(d.u8().unwrap(), 7);
        assert_eq!(d.u32().unwrap(), 9);
        assert_eq!(d.u64().unwrap(), u64::MAX);
        assert_eq!(d.i64().unwrap(), -5);
        assert_eq!(d.str().unwrap(), "héllo");
        assert_eq!(d.u64s().unwrap(), vec![1, 2]);
        assert_eq!(d.strs().unwrap(), vec!["a".to_string()]);
        d.finish().unwrap();
        for cut in 0..b.len() {
            let mut d = Decoder::new(&b[..cut], "test");
            let r = (|| -> Result<(), WsrepError> {
                d.u8()?;
                d.u32()?;
                d.u64()?;
                d.i64()?;
                d.str()?;
                d.u64s()?;
                d.strs()?;
                Ok(())
            })();
            assert!(r.is_err(), "cut at {cut} decoded");
        }
    }

    #[test]
    fn hostile_counts_do_not_allocate() {
        let mut e = Encoder::default();
        e.u32(u32::MAX);
        let b = e.finish();
        assert!(Decoder::new(&b, "t").u64s().is_err());
        assert!(Decoder::new(&b, "t").strs().is_err());
        assert!(Decoder::new(&b, "t").bytes().is_err());
    }
}
