//! Packet guards around opensrv-mysql.
//!
//! opensrv-mysql answers commands it does not know with a silent OK, reads packets of any
//! size, and reports a failed login as error 1698. The guards fix that without forking it:
//!
//! - [`InputGuard`] reads the client's packets first. A logical packet larger than
//!   `max_allowed_packet` is skipped (never buffered whole) and replaced by a marker query;
//!   so is every command opensrv does not handle (COM_STMT_RESET, COM_RESET_CONNECTION,
//!   COM_SET_OPTION, and unknown ones). The shim answers markers: an error
//!   (`ER_NET_PACKET_TOO_LARGE`, then the connection closes; `ER_UNKNOWN_COM_ERROR`) or the
//!   command's real effect. It also defeats opensrv's built-in `SELECT @@max_allowed_packet`
//!   answer (a hard-coded 64 MiB) so the configured value is reported.
//! - [`OutputGuard`] rewrites the login failure into MySQL's `1045 Access denied`, and
//!   buffers output: opensrv writes every packet (every result row) with its own system
//!   call; the guard sends them together when opensrv flushes at the end of a command.
//!
//! Markers carry a random per-process token, so a client cannot forge them.
//!
//! The input guard also hands opensrv at most one (re-framed, well-formed) packet per read:
//! opensrv's `PacketReader::next_async` keeps using the packet it returned after replacing
//! its buffer when a read held more than one packet (a use-after-free), which corrupts
//! pipelined commands such as COM_STMT_CLOSE (which has no reply) followed by the next one.
//! And it makes every COM_STMT_EXECUTE carry its parameter types: a client may send them
//! once and then set `new_params_bound_flag = 0`, which opensrv misreads (it does not skip
//! the flag byte, so every parameter is read one byte off).

use parking_lot::Mutex;
use std::collections::VecDeque;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use crate::charset::Charsets;

const MAX_FRAGMENT: usize = 0xFF_FFFF;

/// Commands opensrv-mysql handles itself.
const PASS: [u8; 9] = [0x01, 0x02, 0x03, 0x04, 0x0e, 0x16, 0x17, 0x18, 0x19];

/// What a marker query stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Marker {
    /// The packet exceeded `max_allowed_packet`.
    TooLarge,
    /// COM_STMT_RESET for a statement id.
    StmtReset,
    /// COM_RESET_CONNECTION.
    ResetConnection,
    /// COM_SET_OPTION.
    SetOption,
    /// Any other command byte.
    Unknown(u8),
    /// A statement whose text is no text in the client's character set: the hex of the
    /// bytes from the first bad one (see `charset`).
    InvalidString(String),
}

/// Encodes and recognises marker queries.
#[derive(Clone, Debug)]
pub struct Markers {
    prefix: Arc<str>,
}

impl Default for Markers {
    fn default() -> Self {
        Markers {
            prefix: format!("/*tutti-internal-{:016x}:", rand::random::<u64>()).into(),
        }
    }
}

impl Markers {
    fn encode(&self, m: &Marker) -> String {
        let what = match m {
            Marker::TooLarge => "too-large".to_string(),
            Marker::StmtReset => "stmt-reset".to_string(),
            Marker::ResetConnection => "reset-connection".to_string(),
            Marker::SetOption => "set-option".to_string(),
            Marker::Unknown(b) => format!("unknown-{b:02x}"),
            Marker::InvalidString(hex) => format!("invalid-string-{hex}"),
        };
        format!("{}{what}*/", self.prefix)
    }

    /// The marker a query stands for, if it is one.
    pub fn decode(&self, query: &str) -> Option<Marker> {
        let what = query.strip_prefix(&*self.prefix)?.strip_suffix("*/")?;
        Some(match what {
            "too-large" => Marker::TooLarge,
            "stmt-reset" => Marker::StmtReset,
            "reset-connection" => Marker::ResetConnection,
            "set-option" => Marker::SetOption,
            other if other.starts_with("invalid-string-") => {
                let hex = &other["invalid-string-".len()..];
                Marker::InvalidString(hex.chars().filter(char::is_ascii_hexdigit).collect())
            }
            other => Marker::Unknown(u8::from_str_radix(other.strip_prefix("unknown-")?, 16).ok()?),
        })
    }
}

/// What the guard knows of each prepared statement: its parameter count (set by the shim
/// when it answers COM_STMT_PREPARE) and the parameter types last sent by the client.
///
/// It is also how the shim asks to end the connection after a reply ([`Statements::close`]).
#[derive(Clone, Default)]
pub struct Statements(
    Arc<Mutex<std::collections::HashMap<u32, StatementParams>>>,
    Arc<std::sync::atomic::AtomicBool>,
);

/// A statement's parameter count and the types the client last bound.
type StatementParams = (usize, Option<Vec<u8>>);

impl Statements {
    /// Ends the client's input: opensrv finishes (and flushes) the current reply, then sees
    /// end-of-stream and closes the connection.
    pub fn close(&self) {
        self.1.store(true, std::sync::atomic::Ordering::Release);
    }

    fn closed_by_server(&self) -> bool {
        self.1.load(std::sync::atomic::Ordering::Acquire)
    }

    /// Records a prepared statement's parameter count.
    pub fn prepared(&self, id: u32, params: usize) {
        self.0.lock().insert(id, (params, None));
    }

    /// Gives COM_STMT_EXECUTE its parameter types when the client left them out.
    fn fill_types(&self, payload: Vec<u8>) -> Vec<u8> {
        if payload.len() < 10 {
            return payload;
        }
        let id = u32::from_le_bytes([payload[1], payload[2], payload[3], payload[4]]);
        let mut map = self.0.lock();
        let Some((n, types)) = map.get_mut(&id) else {
            return payload;
        };
        let n = *n;
        if n == 0 {
            return payload;
        }
        let flag_at = 10 + n.div_ceil(8);
        let Some(&flag) = payload.get(flag_at) else {
            return payload;
        };
        if flag != 0 {
            if let Some(t) = payload.get(flag_at + 1..flag_at + 1 + 2 * n) {
                *types = Some(t.to_vec());
            }
            return payload;
        }
        match types {
            Some(t) => {
                let mut out = Vec::with_capacity(payload.len() + t.len());
                out.extend_from_slice(&payload[..flag_at]);
                out.push(1);
                out.extend_from_slice(t);
                out.extend_from_slice(&payload[flag_at + 1..]);
                out
            }
            None => payload,
        }
    }

    fn closed(&self, payload: &[u8]) {
        if let Some(b) = payload.get(1..5) {
            self.0
                .lock()
                .remove(&u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
        }
    }
}

/// Reads client packets, enforcing the size limit and replacing unhandled commands.
pub struct InputGuard<R> {
    inner: R,
    max_packet: usize,
    markers: Markers,
    statements: Statements,
    charsets: Charsets,
    /// Complete packets (all fragments of one logical packet each), ready for opensrv.
    ready: VecDeque<Vec<u8>>,
    /// How much of the front packet was already handed out.
    sent: usize,
    header: Vec<u8>,
    /// Bytes of the current fragment's payload still to come.
    remaining: usize,
    fragment_len: usize,
    first_seq: u8,
    last_seq: u8,
    in_packet: bool,
    payload: Vec<u8>,
    total: usize,
    discarding: bool,
    eof: bool,
}

impl<R> InputGuard<R> {
    /// Guards `inner` with the given `max_allowed_packet`.
    pub fn new(
        inner: R,
        max_packet: usize,
        markers: Markers,
        statements: Statements,
        charsets: Charsets,
    ) -> Self {
        InputGuard {
            inner,
            max_packet,
            markers,
            statements,
            charsets,
            ready: VecDeque::new(),
            sent: 0,
            header: Vec::with_capacity(4),
            remaining: 0,
            fragment_len: 0,
            first_seq: 0,
            last_seq: 0,
            in_packet: false,
            payload: Vec::new(),
            total: 0,
            discarding: false,
            eof: false,
        }
    }

    fn emit(&mut self, first_seq: u8, payload: &[u8]) {
        let mut out = Vec::with_capacity(payload.len() + 4);
        let mut seq = first_seq;
        let mut chunks = payload.chunks(MAX_FRAGMENT).peekable();
        if payload.is_empty() {
            out.extend([0, 0, 0, seq]);
        }
        while let Some(c) = chunks.next() {
            let n = c.len() as u32;
            out.extend(&n.to_le_bytes()[..3]);
            out.push(seq);
            out.extend(c);
            seq = seq.wrapping_add(1);
            if chunks.peek().is_none() && c.len() == MAX_FRAGMENT {
                out.extend([0, 0, 0, seq]);
            }
        }
        self.ready.push_back(out);
    }

    fn emit_marker(&mut self, seq: u8, m: Marker) {
        let mut p = vec![0x03];
        p.extend(self.markers.encode(&m).as_bytes());
        self.emit(seq, &p);
    }

    fn finish_packet(&mut self) {
        self.in_packet = false;
        if self.discarding {
            self.discarding = false;
            let seq = self.last_seq;
            self.emit_marker(seq, Marker::TooLarge);
            return;
        }
        let mut payload = std::mem::take(&mut self.payload);
        let seq = self.first_seq;
        if seq != 0 {
            // Handshake and authentication packets: not commands.
            if seq == 1 {
                self.charsets.note_handshake(&payload);
            }
            self.emit(seq, &payload);
            return;
        }
        // COM_INIT_DB, COM_QUERY, COM_STMT_PREPARE: text in the client's character set.
        if matches!(payload.first(), Some(0x02 | 0x03 | 0x16)) {
            match self.charsets.decode(&payload[1..]) {
                Ok(std::borrow::Cow::Borrowed(_)) => {}
                Ok(std::borrow::Cow::Owned(text)) => {
                    payload.truncate(1);
                    payload.extend(text);
                }
                Err(bad) => {
                    let hex = bad.iter().map(|b| format!("{b:02X}")).collect();
                    return self.emit_marker(seq, Marker::InvalidString(hex));
                }
            }
        }
        match payload.first().copied() {
            Some(cmd) if PASS.contains(&cmd) => {
                if cmd == 0x03
                    && (payload[1..].starts_with(b"SELECT @@")
                        || payload[1..].starts_with(b"select @@"))
                {
                    // Keep opensrv's hard-coded @@max_allowed_packet answer out of the way.
                    let mut p = payload[..7].to_vec();
                    p.push(b' ');
                    p.extend(&payload[7..]);
                    self.emit(seq, &p);
                } else if cmd == 0x17 {
                    let payload = self.statements.fill_types(payload);
                    self.emit(seq, &payload);
                } else {
                    if cmd == 0x19 {
                        self.statements.closed(&payload);
                    }
                    self.emit(seq, &payload);
                }
            }
            Some(0x1a) => self.emit_marker(seq, Marker::StmtReset),
            Some(0x1f) => self.emit_marker(seq, Marker::ResetConnection),
            Some(0x1b) => self.emit_marker(seq, Marker::SetOption),
            Some(other) => self.emit_marker(seq, Marker::Unknown(other)),
            None => self.emit_marker(seq, Marker::Unknown(0)),
        }
    }

    /// Consumes raw bytes from the socket.
    fn feed(&mut self, mut data: &[u8]) {
        while !data.is_empty() {
            if self.remaining == 0 && self.header.len() < 4 {
                let need = 4 - self.header.len();
                let take = need.min(data.len());
                self.header.extend_from_slice(&data[..take]);
                data = &data[take..];
                if self.header.len() < 4 {
                    return;
                }
                let len = u32::from_le_bytes([self.header[0], self.header[1], self.header[2], 0])
                    as usize;
                let seq = self.header[3];
                if !self.in_packet {
                    self.in_packet = true;
                    self.first_seq = seq;
                    self.total = 0;
                    self.payload.clear();
                }
                self.last_seq = seq;
                self.fragment_len = len;
                self.remaining = len;
                self.total += len;
                if self.total > self.max_packet && !self.discarding {
                    self.discarding = true;
                    self.payload = Vec::new();
                }
                if len == 0 {
                    self.header.clear();
                    self.finish_packet();
                }
                continue;
            }
            let take = self.remaining.min(data.len());
            if !self.discarding {
                self.payload.extend_from_slice(&data[..take]);
            }
            data = &data[take..];
            self.remaining -= take;
            if self.remaining == 0 {
                self.header.clear();
                if self.fragment_len < MAX_FRAGMENT {
                    self.finish_packet();
                }
            }
        }
    }
}

impl<R: AsyncRead + Unpin> AsyncRead for InputGuard<R> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        loop {
            if this.statements.closed_by_server() {
                return Poll::Ready(Ok(()));
            }
            if let Some(front) = this.ready.front() {
                // Never past the end of this packet (see the module doc).
                let n = buf.remaining().min(front.len() - this.sent);
                buf.put_slice(&front[this.sent..this.sent + n]);
                this.sent += n;
                if this.sent == front.len() {
                    this.ready.pop_front();
                    this.sent = 0;
                }
                return Poll::Ready(Ok(()));
            }
            if this.eof {
                return Poll::Ready(Ok(()));
            }
            let mut tmp = [0u8; 16 * 1024];
            let mut rb = ReadBuf::new(&mut tmp);
            match Pin::new(&mut this.inner).poll_read(cx, &mut rb) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Ready(Ok(())) => {
                    let got = rb.filled();
                    if got.is_empty() {
                        this.eof = true;
                    } else {
                        let got = got.to_vec();
                        this.feed(&got);
                    }
                }
            }
        }
    }
}

/// The user whose login failed, for the error message.
#[derive(Default, Clone)]
pub struct LoginFailure(pub Arc<Mutex<Option<(String, String, bool)>>>);

/// Writes server packets, turning opensrv's login failure (1698) into MySQL's 1045.
pub struct OutputGuard<W> {
    inner: W,
    handshake: bool,
    pending: Vec<u8>,
    out: Vec<u8>,
    written: usize,
    failure: LoginFailure,
}

impl<W> OutputGuard<W> {
    /// Guards `inner`; `failure` is filled by the shim when a login fails.
    pub fn new(inner: W, failure: LoginFailure) -> Self {
        OutputGuard {
            inner,
            handshake: true,
            pending: Vec::new(),
            out: Vec::new(),
            written: 0,
            failure,
        }
    }

    fn process(&mut self) {
        while self.handshake && self.pending.len() >= 4 {
            let len =
                u32::from_le_bytes([self.pending[0], self.pending[1], self.pending[2], 0]) as usize;
            if self.pending.len() < 4 + len {
                return;
            }
            let packet: Vec<u8> = self.pending.drain(..4 + len).collect();
            let kind = packet.get(4).copied();
            if kind == Some(0xFF)
                && packet.len() >= 7
                && u16::from_le_bytes([packet[5], packet[6]]) == 1698
            {
                let (user, host, with_pw) = self.failure.0.lock().clone().unwrap_or_default();
                let msg = format!(
                    "Access denied for user '{user}'@'{host}' (using password: {})",
                    if with_pw { "YES" } else { "NO" }
                );
                let mut payload = vec![0xFF];
                payload.extend(1045u16.to_le_bytes());
                payload.extend(b"#28000");
                payload.extend(msg.as_bytes());
                self.out.extend(&(payload.len() as u32).to_le_bytes()[..3]);
                self.out.push(packet[3]);
                self.out.extend(payload);
            } else {
                self.out.extend(packet);
            }
            if matches!(kind, Some(0x00) | Some(0xFF)) {
                self.handshake = false;
                let rest = std::mem::take(&mut self.pending);
                self.out.extend(rest);
            }
        }
    }
}

impl<W: AsyncWrite + Unpin> OutputGuard<W> {
    fn poll_drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.written < self.out.len() {
            match Pin::new(&mut self.inner).poll_write(cx, &self.out[self.written..]) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => self.written += n,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return Poll::Pending,
            }
        }
        self.out.clear();
        self.written = 0;
        Poll::Ready(Ok(()))
    }
}

/// Buffered output beyond this is written out before more is accepted.
const OUTPUT_BUFFER: usize = 64 * 1024;

impl<W: AsyncWrite + Unpin> AsyncWrite for OutputGuard<W> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if this.handshake {
            this.pending.extend_from_slice(buf);
            this.process();
            return Poll::Ready(Ok(buf.len()));
        }
        if this.out.len() - this.written >= OUTPUT_BUFFER {
            match this.poll_drain(cx) {
                Poll::Ready(Ok(())) => {}
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return Poll::Pending,
            }
        }
        this.out.extend_from_slice(buf);
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let mut total = 0;
        for b in bufs {
            match self.as_mut().poll_write(cx, b) {
                Poll::Ready(Ok(n)) => total += n,
                Poll::Ready(Err(e)) if total == 0 => return Poll::Ready(Err(e)),
                Poll::Pending if total == 0 => return Poll::Pending,
                _ => break,
            }
        }
        Poll::Ready(Ok(total))
    }

    fn is_write_vectored(&self) -> bool {
        true
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        this.process();
        if this.handshake && !this.pending.is_empty() && this.out.is_empty() {
            // An incomplete packet cannot be rewritten yet; pass what we have.
            let rest = std::mem::take(&mut this.pending);
            this.out.extend(rest);
        }
        match this.poll_drain(cx) {
            Poll::Ready(Ok(())) => Pin::new(&mut this.inner).poll_flush(cx),
            other => other,
        }
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.as_mut().poll_flush(cx) {
            Poll::Ready(Ok(())) => Pin::new(&mut self.inner).poll_shutdown(cx),
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn packet(seq: u8, payload: &[u8]) -> Vec<u8> {
        let mut p = (payload.len() as u32).to_le_bytes()[..3].to_vec();
        p.push(seq);
        p.extend(payload);
        p
    }

    fn run(max: usize, input: &[u8], chunk: usize) -> (Vec<u8>, Markers) {
        run_as(&Charsets::default(), max, input, chunk)
    }

    fn run_as(c: &Charsets, max: usize, input: &[u8], chunk: usize) -> (Vec<u8>, Markers) {
        let m = Markers::default();
        let st = Statements::default();
        let mut g = InputGuard::new(&[][..] as &[u8], max, m.clone(), st, c.clone());
        for c in input.chunks(chunk) {
            g.feed(c);
        }
        (g.ready.into_iter().flatten().collect(), m)
    }

    #[test]
    fn known_commands_and_handshake_pass_unchanged() {
        let mut input = packet(1, b"handshake response with \x17 inside");
        input.extend(packet(0, b"\x03select 1"));
        input.extend(packet(0, b"\x0e"));
        for chunk in [1, 3, 7, 1000] {
            assert_eq!(run(1024, &input, chunk).0, input);
        }
    }

    #[test]
    fn unknown_commands_become_markers() {
        let (out, m) = run(1024, &packet(0, b"\x1f"), 5);
        assert_eq!(
            m.decode(std::str::from_utf8(&out[5..]).unwrap()),
            Some(Marker::ResetConnection)
        );
        let (out, m) = run(1024, &packet(0, b"\xfa\x01\x02"), 2);
        assert_eq!(out[4], 0x03);
        assert_eq!(
            m.decode(std::str::from_utf8(&out[5..]).unwrap()),
            Some(Marker::Unknown(0xfa))
        );
        assert_eq!(
            m.decode("/*tutti-internal-0000000000000000:unknown-fa*/"),
            None,
            "forged token"
        );
    }

    #[test]
    fn statements_are_decoded_from_the_client_charset() {
        let c = Charsets::default();
        let (out, m) = run_as(&c, 1024, &packet(0, b"\x03select 'caf\xE9'"), 4);
        assert_eq!(
            m.decode(std::str::from_utf8(&out[5..]).unwrap()),
            Some(Marker::InvalidString("E927".into()))
        );
        c.set_client("latin1");
        let (out, _) = run_as(&c, 1024, &packet(0, b"\x16select 'caf\xE9'"), 4);
        assert_eq!(out, packet(0, "\x16select 'café'".as_bytes()));
    }

    #[test]
    fn oversized_packets_are_skipped_not_buffered() {
        let mut input = packet(0, &[b'x'; 5000]);
        input.extend(packet(0, b"\x0e"));
        let (out, m) = run(4096, &input, 333);
        let first_len = u32::from_le_bytes([out[0], out[1], out[2], 0]) as usize;
        let q = std::str::from_utf8(&out[5..4 + first_len]).unwrap();
        assert_eq!(m.decode(q), Some(Marker::TooLarge));
        assert_eq!(
            &out[4 + first_len..],
            &packet(0, b"\x0e")[..],
            "the stream stays in sync"
        );
    }

    #[test]
    fn execute_packets_always_carry_parameter_types() {
        let st = Statements::default();
        st.prepared(5, 2);
        // id 5, flags 0, iterations 1, null bitmap 0, bound flag 1, types (LONG, VAR_STRING), values
        let first = [
            &[0x17, 5, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 3, 0, 253, 0][..],
            &[7, 0, 0, 0, 1, b'x'],
        ]
        .concat();
        assert_eq!(st.fill_types(first.clone()), first);
        let again = [
            &[0x17, 5, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0][..],
            &[8, 0, 0, 0, 1, b'y'],
        ]
        .concat();
        let fixed = st.fill_types(again);
        assert_eq!(
            fixed,
            [
                &[0x17, 5, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 3, 0, 253, 0][..],
                &[8, 0, 0, 0, 1, b'y']
            ]
            .concat()
        );
        st.closed(&[0x19, 5, 0, 0, 0]);
        assert!(st.0.lock().is_empty());
    }

    #[test]
    fn select_at_at_is_kept_from_the_builtin_shortcut() {
        let (out, _) = run(1024, &packet(0, b"\x03SELECT @@max_allowed_packet"), 64);
        assert_eq!(&out[5..], b"SELECT  @@max_allowed_packet");
    }

    #[test]
    fn login_failure_becomes_1045() {
        let f = LoginFailure::default();
        *f.0.lock() = Some(("bob".into(), "127.0.0.1".into(), true));
        let mut g = OutputGuard::new(Vec::<u8>::new(), f);
        let mut err = vec![0xFF];
        err.extend(1698u16.to_le_bytes());
        err.extend(b"#28000Authenticate failed");
        g.pending = [
            packet(0, b"\x0agreeting"),
            packet(2, &err),
            packet(1, b"after"),
        ]
        .concat();
        g.process();
        let p2 = &g.out[4 + 9..];
        assert_eq!(u16::from_le_bytes([p2[5], p2[6]]), 1045);
        assert!(String::from_utf8_lossy(p2)
            .contains("Access denied for user 'bob'@'127.0.0.1' (using password: YES)"));
        assert!(!g.handshake);
        assert!(g.out.ends_with(&packet(1, b"after")));
    }
}
